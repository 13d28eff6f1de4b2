/** Operators the platform's `filter` accepts (`=` is the spec's synonym of `eq`). */
export type FilterOperator = 'eq' | '=' | 'like' | 'gt' | 'gte' | 'lt' | 'lte';
/** A scalar the platform compares with; dates go as `YYYY-MM-DD HH:MM:SS` UTC strings. */
export type FilterValue = string | number | boolean | null;
/** One condition of the `filter` query parameter. */
export interface FilterCondition {
  property: string;
  operator: FilterOperator;
  value: FilterValue;
}
/** What collection reads accept as a filter: a builder, a list of conditions, or the JSON already encoded. */
export type FilterInput = FilterBuilder<object> | readonly FilterCondition[] | string;

type Property<T> = Extract<keyof T, string>;
type Comparable = FilterValue | Date;

/** Formats a date the way the platform writes and compares them: `YYYY-MM-DD HH:MM:SS` in UTC. */
export function toPlatformDate(d: Date): string {
  if (Number.isNaN(d.getTime())) throw new RangeError('invalid date');
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** Immutable builder of the `filter` JSON, typed by the record's property names. */
export class FilterBuilder<T extends object> {
  constructor(private readonly conditions: readonly FilterCondition[] = []) {}

  /** property equals value. */
  eq(property: Property<T>, value: Comparable): FilterBuilder<T> {
    return this.add(property, 'eq', value);
  }
  /** SQL LIKE: `%` any run, `_` one character. */
  like(property: Property<T>, pattern: string): FilterBuilder<T> {
    return this.add(property, 'like', pattern);
  }
  /** property > value. */
  gt(property: Property<T>, value: Comparable): FilterBuilder<T> {
    return this.add(property, 'gt', value);
  }
  /** property >= value. */
  gte(property: Property<T>, value: Comparable): FilterBuilder<T> {
    return this.add(property, 'gte', value);
  }
  /** property < value. */
  lt(property: Property<T>, value: Comparable): FilterBuilder<T> {
    return this.add(property, 'lt', value);
  }
  /** property <= value. */
  lte(property: Property<T>, value: Comparable): FilterBuilder<T> {
    return this.add(property, 'lte', value);
  }

  /** The conditions so far. */
  toArray(): FilterCondition[] {
    return [...this.conditions];
  }
  /** The JSON string for the `filter` query parameter. */
  build(): string {
    return JSON.stringify(this.conditions);
  }

  private add(property: string, operator: FilterOperator, value: Comparable): FilterBuilder<T> {
    const v = value instanceof Date ? toPlatformDate(value) : value;
    return new FilterBuilder<T>([...this.conditions, { property, operator, value: v }]);
  }
}

/** Starts a filter on records of type T: `filter<Cdr>().gte('calldate', since).eq('type', 'M').build()`. */
export function filter<T extends object = Record<string, unknown>>(): FilterBuilder<T> {
  return new FilterBuilder<T>();
}

/** Encodes any accepted filter form to the query parameter's JSON; undefined for an empty filter. */
export function encodeFilter(input: FilterInput | undefined): string | undefined {
  if (input === undefined) return undefined;
  if (typeof input === 'string') return input === '' || input === '[]' ? undefined : input;
  const list = input instanceof FilterBuilder ? input.toArray() : input;
  return list.length === 0 ? undefined : JSON.stringify(list);
}

/** The conditions of any accepted filter form (JSON text is decoded; it must hold a list or one condition). */
export function filterConditions(input: FilterInput | undefined): FilterCondition[] {
  if (input === undefined) return [];
  if (input instanceof FilterBuilder) return input.toArray();
  if (typeof input !== 'string') return [...input];
  if (input.trim() === '') return [];
  const decoded: unknown = JSON.parse(input);
  if (Array.isArray(decoded)) return decoded as FilterCondition[];
  if (typeof decoded === 'object' && decoded !== null) return [decoded as FilterCondition];
  throw new TypeError('filter: JSON text must hold a list of conditions');
}
