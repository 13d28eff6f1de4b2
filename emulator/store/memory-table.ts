import { queryRows, type Ordering } from './query';
import type { CollectionQuery, CollectionResult, Id, InsertOptions, Row, Table } from './types';

/** Orders ids: numbers numerically, anything else (ddi e164 strings) as strings. */
export function compareIds(a: Id, b: Id): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

export interface MemoryTableOptions {
  name: string;
  /** Ids are e164 strings (ddis): inserts must bring their id, and `id` ranges are scanned, not searched. */
  stringIds?: boolean;
  /** A property that ascends with id (cdrs: calldate); updates may not change it, inserts may not go back. */
  sortedKey?: string;
  /** The sortedKey value of an inserted row that has none (cdrs: the clock's now). */
  defaultSortValue?: () => string;
  /** Called after every insert/update/remove (not for bulk seeding). */
  emit?: (op: 'insert' | 'update' | 'remove', row: Row) => void;
}

/**
 * In-memory rows of one resource kind, one id-ordered array per customer.
 * Rows handed out are shared snapshots: callers must not mutate them (update() replaces the object).
 * With a sortedKey, rows ascend by it as well as by id, so range filters on it use binary search;
 * rows added by insertLate (dated before rows written earlier) follow the ordered ones, and queries
 * test them one by one.
 */
export class MemoryTable implements Table {
  readonly name: string;
  private readonly partitions = new Map<number, Row[]>();
  /** Per customer, how many leading rows ascend by the sortedKey (all of them when absent). */
  private readonly keyOrdered = new Map<number, number>();
  private readonly ordering: Ordering;
  private readonly emit: (op: 'insert' | 'update' | 'remove', row: Row) => void;
  private readonly defaultSortValue: (() => string) | undefined;
  private maxId = 0;
  /** Property names seen on rows (computed on first use, then grown by inserts and updates). */
  private properties: Set<string> | undefined;

  constructor(opts: MemoryTableOptions) {
    this.name = opts.name;
    this.ordering = {
      numericIds: opts.stringIds !== true,
      ...(opts.sortedKey !== undefined ? { sortedKey: opts.sortedKey } : {}),
    };
    this.emit = opts.emit ?? (() => undefined);
    this.defaultSortValue = opts.defaultSortValue;
  }

  /** Bulk seeding: appends rows without change events (sorting by id if they come unordered). */
  load(customerId: number, rows: readonly Row[]): void {
    const part = this.partition(customerId);
    for (const row of rows) {
      part.push(row);
      if (typeof row.id === 'number' && row.id > this.maxId) this.maxId = row.id;
    }
    let sorted = true;
    for (let i = 1; i < part.length && sorted; i++) {
      sorted = compareIds((part[i - 1] as Row).id, (part[i] as Row).id) < 0;
    }
    if (!sorted) part.sort((a, b) => compareIds(a.id, b.id));
    this.noteKeyOrder(customerId, part);
    this.properties = undefined;
  }

  /** The highest numeric id ever held (ids are never reused). */
  get lastId(): number {
    return this.maxId;
  }

  /** Marks an id as used elsewhere (live ids of finished calls), so inserts without an id skip it. */
  reserveId(id: number): void {
    if (id > this.maxId) this.maxId = id;
  }

  get(id: Id): { row: Row; customerId: number } | undefined {
    const key = this.normaliseId(id);
    if (key === undefined) return undefined;
    for (const [customerId, rows] of this.partitions) {
      const i = this.indexOf(rows, key);
      if (i >= 0) return { row: rows[i] as Row, customerId };
    }
    return undefined;
  }

  query(customerId: number, q: CollectionQuery): CollectionResult {
    const rows = this.partitions.get(customerId) ?? [];
    const ordered = this.keyOrdered.get(customerId);
    return queryRows(
      rows,
      q,
      ordered === undefined ? this.ordering : { ...this.ordering, keySortedUntil: ordered },
    );
  }

  hasProperty(name: string): boolean | undefined {
    if (this.properties === undefined) {
      // Rows of a table share their shape: the first and last rows of each customer show it.
      const seen = new Set<string>();
      for (const rows of this.partitions.values()) {
        for (const row of [...rows.slice(0, 50), ...rows.slice(-50)])
          for (const k of Object.keys(row)) seen.add(k);
      }
      if (seen.size === 0) return undefined;
      this.properties = seen;
    }
    return this.properties.has(name);
  }

  private noteProperties(row: Row): void {
    if (this.properties !== undefined) for (const k of Object.keys(row)) this.properties.add(k);
  }

  /** With keyMayGoBack, the row may be dated before the last row (as insertLate). */
  insert(customerId: number, input: Omit<Row, 'id'> & { id?: Id }, opts: InsertOptions = {}): Row {
    return this.add(customerId, input, opts.keyMayGoBack === true);
  }

  /**
   * Inserts a row written now whose sortedKey lies before rows written earlier: the CDR of a long
   * call, written at hangup with the newest id but dated at the call's start. Its id still comes last.
   */
  insertLate(customerId: number, input: Omit<Row, 'id'> & { id?: Id }): Row {
    return this.add(customerId, input, true);
  }

  private add(customerId: number, input: Omit<Row, 'id'> & { id?: Id }, late: boolean): Row {
    const { id: given, ...fields } = input;
    const id = given === undefined ? this.nextId(input) : this.normaliseId(given);
    if (id === undefined) throw new Error(`${this.name}: invalid id ${String(given)}`);
    if (this.get(id) !== undefined) throw new Error(`${this.name}: id ${String(id)} already exists`);
    const row: Row = { id, ...fields };
    const rows = this.partition(customerId);
    const at = this.insertionIndex(rows, id);
    const key = this.ordering.sortedKey;
    let inKeyOrder = true;
    if (key !== undefined) {
      const last = this.lastSortValue(customerId);
      if (row[key] === undefined || row[key] === null) {
        // A new row without its date happens "now", but never before the last row.
        const now = this.defaultSortValue?.() ?? '';
        row[key] = last !== undefined && last > now ? last : now;
      }
      inKeyOrder = last === undefined || last <= String(row[key]);
      if (at !== rows.length || (!inKeyOrder && !late)) {
        throw new RangeError(`${this.name}: new rows must come last by id and by ${key}`);
      }
    }
    const ordered = this.keyOrdered.get(customerId);
    rows.splice(at, 0, row);
    // The ordered prefix grows only while every row so far is in order.
    if (!inKeyOrder && ordered === undefined) this.keyOrdered.set(customerId, rows.length - 1);
    this.noteProperties(row);
    if (typeof id === 'number' && id > this.maxId) this.maxId = id;
    this.emit('insert', row);
    return row;
  }

  /** The largest sortedKey value of a customer's rows (undefined without rows or a sortedKey). */
  lastSortValue(customerId: number): string | undefined {
    const key = this.ordering.sortedKey;
    const rows = this.partitions.get(customerId);
    if (key === undefined || rows === undefined || rows.length === 0) return undefined;
    const ordered = this.keyOrdered.get(customerId) ?? rows.length;
    let max: string | undefined = ordered > 0 ? String((rows[ordered - 1] as Row)[key]) : undefined;
    for (let i = ordered; i < rows.length; i++) {
      const v = String((rows[i] as Row)[key]);
      if (max === undefined || v > max) max = v;
    }
    return max;
  }

  update(id: Id, patch: Record<string, unknown>): Row | undefined {
    const found = this.locate(id);
    if (found === undefined) return undefined;
    const [rows, i] = found;
    const old = rows[i] as Row;
    const key = this.ordering.sortedKey;
    if (key !== undefined && key in patch && patch[key] !== old[key]) {
      throw new RangeError(`${this.name}: ${key} cannot change (rows are ordered by it)`);
    }
    const row: Row = { ...old, ...patch, id: old.id };
    rows[i] = row;
    this.noteProperties(row);
    this.emit('update', row);
    return row;
  }

  remove(id: Id): boolean {
    const found = this.locate(id);
    if (found === undefined) return false;
    const [rows, i] = found;
    const [row] = rows.splice(i, 1);
    for (const [customerId, ordered] of this.keyOrdered) {
      if (this.partitions.get(customerId) !== rows) continue;
      if (i < ordered) this.keyOrdered.set(customerId, ordered - 1);
      if (rows.length <= (this.keyOrdered.get(customerId) ?? 0)) this.keyOrdered.delete(customerId);
    }
    if (row !== undefined) this.emit('remove', row);
    return true;
  }

  removeAll(customerId: number): number {
    const rows = this.partitions.get(customerId) ?? [];
    this.partitions.set(customerId, []);
    this.keyOrdered.delete(customerId);
    for (const row of rows) this.emit('remove', row);
    return rows.length;
  }

  /** The customer's row with the highest id (cdrs: the latest call). */
  last(customerId: number): Row | undefined {
    const rows = this.partitions.get(customerId);
    return rows?.[rows.length - 1];
  }

  count(customerId: number): number {
    return this.partitions.get(customerId)?.length ?? 0;
  }

  /** Records how many leading rows ascend by the sortedKey (after a bulk load). */
  private noteKeyOrder(customerId: number, rows: readonly Row[]): void {
    const key = this.ordering.sortedKey;
    this.keyOrdered.delete(customerId);
    if (key === undefined) return;
    for (let i = 1; i < rows.length; i++) {
      if (String((rows[i - 1] as Row)[key]) > String((rows[i] as Row)[key])) {
        this.keyOrdered.set(customerId, i);
        return;
      }
    }
  }

  private partition(customerId: number): Row[] {
    let rows = this.partitions.get(customerId);
    if (rows === undefined) {
      rows = [];
      this.partitions.set(customerId, rows);
    }
    return rows;
  }

  private nextId(input: Record<string, unknown>): Id {
    if (!this.ordering.numericIds) {
      if (typeof input.e164 === 'string') return input.e164;
      throw new Error(`${this.name}: rows need an id (e164)`);
    }
    return this.maxId + 1;
  }

  /** Path ids arrive as strings; numeric tables look them up as numbers. */
  private normaliseId(id: Id): Id | undefined {
    if (!this.ordering.numericIds) return String(id);
    const n = typeof id === 'number' ? id : Number(id);
    return Number.isInteger(n) ? n : undefined;
  }

  private locate(id: Id): [Row[], number] | undefined {
    const key = this.normaliseId(id);
    if (key === undefined) return undefined;
    for (const rows of this.partitions.values()) {
      const i = this.indexOf(rows, key);
      if (i >= 0) return [rows, i];
    }
    return undefined;
  }

  private insertionIndex(rows: readonly Row[], id: Id): number {
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareIds((rows[mid] as Row).id, id) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private indexOf(rows: readonly Row[], id: Id): number {
    const i = this.insertionIndex(rows, id);
    const row = rows[i];
    return row !== undefined && compareIds(row.id, id) === 0 ? i : -1;
  }
}
