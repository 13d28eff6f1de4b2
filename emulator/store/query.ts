import type { CollectionQuery, CollectionResult, FilterCondition, Row } from './types';

type FilterValue = FilterCondition['value'];

const NUMERIC = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** The number a value stands for, when it is numeric (a number, or a string that reads as one). */
export function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && NUMERIC.test(v)) return Number(v);
  return undefined;
}

function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return JSON.stringify(v);
  return String(v);
}

function asBoolean(v: FilterValue): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === '1' || v === 'true') return true;
  if (v === 0 || v === '0' || v === 'false') return false;
  return undefined;
}

/** A filter value prepared once per query, so per-row work is only the field side. */
interface Operand {
  raw: FilterValue;
  num: number | undefined;
  text: string;
  bool: boolean | undefined;
}

function operand(v: FilterValue): Operand {
  return { raw: v, num: asNumber(v), text: v === null ? '' : asText(v), bool: asBoolean(v) };
}

/** Sign of (field - value): numeric when both sides are numeric, else by string; undefined if not comparable. */
function compare(field: unknown, b: Operand): number | undefined {
  if (field === null || field === undefined || b.raw === null) return undefined;
  if (typeof field === 'boolean') {
    if (b.bool === undefined) return undefined;
    return Number(field) - Number(b.bool);
  }
  if (b.num !== undefined) {
    const n = typeof field === 'number' ? field : asNumber(field);
    if (n !== undefined) return n < b.num ? -1 : n > b.num ? 1 : 0;
  }
  const s = asText(field);
  return s < b.text ? -1 : s > b.text ? 1 : 0;
}

/**
 * SQL LIKE as a regular expression: % any run, _ one character, backslash escapes, case-insensitive. A
 * pattern with no wildcard at all is a partial match (`%value%`): the official CLI sends bare values for
 * its like filters and documents "partial match on the number" (VoIPstudio/cli-client src/entities.js,
 * README.md), so the live platform evidently matches them anywhere in the value.
 */
export function likeToRegExp(pattern: string): RegExp {
  let src = '';
  let wildcards = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\' && i + 1 < pattern.length) {
      src += escapeRegExp(pattern[++i] as string);
    } else if (c === '%') {
      src += '[\\s\\S]*';
      wildcards = true;
    } else if (c === '_') {
      src += '[\\s\\S]';
      wildcards = true;
    } else src += escapeRegExp(c);
  }
  return new RegExp(wildcards ? `^${src}$` : src, 'i');
}

function escapeRegExp(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

type Predicate = (row: Row) => boolean;

/** One condition as a row predicate. */
export function conditionPredicate(cond: FilterCondition): Predicate {
  const prop = cond.property;
  const b = operand(cond.value);
  switch (cond.operator) {
    case 'eq':
    case '=':
      if (cond.value === null) return (row) => row[prop] === null || row[prop] === undefined;
      return (row) => compare(row[prop], b) === 0;
    case 'like': {
      if (cond.value === null) return () => false;
      const re = likeToRegExp(b.text);
      return (row) => {
        const v = row[prop];
        return v !== null && v !== undefined && re.test(asText(v));
      };
    }
    case 'gt':
      return (row) => {
        const c = compare(row[prop], b);
        return c !== undefined && c > 0;
      };
    case 'gte':
      return (row) => {
        const c = compare(row[prop], b);
        return c !== undefined && c >= 0;
      };
    case 'lt':
      return (row) => {
        const c = compare(row[prop], b);
        return c !== undefined && c < 0;
      };
    case 'lte':
      return (row) => {
        const c = compare(row[prop], b);
        return c !== undefined && c <= 0;
      };
  }
}

/** How a table's rows are ordered, which decides what the binary-search path may use. */
export interface Ordering {
  /** Ids are numbers ascending (then `id` ranges with a numeric value can be binary-searched). */
  numericIds: boolean;
  /** A property whose string values ascend with id (cdrs: calldate), also binary-searchable. */
  sortedKey?: string;
  /** Only this many leading rows ascend by the sortedKey (rows inserted late follow); all when absent. */
  keySortedUntil?: number;
}

/** First index in [lo, hi) whose row satisfies `pred`, for a predicate that is false…false true…true. */
function lowerBound(rows: readonly Row[], lo: number, hi: number, pred: Predicate): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(rows[mid] as Row)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function isRangeable(cond: FilterCondition, ordering: Ordering): boolean {
  if (cond.value === null || cond.operator === 'like') return false;
  if (cond.property === 'id') return ordering.numericIds && asNumber(cond.value) !== undefined;
  return cond.property === ordering.sortedKey;
}

/** Narrows [lo, hi) by binary search for one ordered condition. */
function narrow(rows: readonly Row[], range: [number, number], cond: FilterCondition): void {
  const b = operand(cond.value);
  const prop = cond.property;
  const cmp = (row: Row): number => compare(row[prop], b) ?? -1;
  const firstGte = (): number => lowerBound(rows, range[0], range[1], (r) => cmp(r) >= 0);
  const firstGt = (): number => lowerBound(rows, range[0], range[1], (r) => cmp(r) > 0);
  switch (cond.operator) {
    case 'gte':
      range[0] = firstGte();
      break;
    case 'gt':
      range[0] = firstGt();
      break;
    case 'lt':
      range[1] = firstGte();
      break;
    case 'lte':
      range[1] = firstGt();
      break;
    case 'eq':
    case '=': {
      const lo = firstGte();
      range[1] = firstGt();
      range[0] = lo;
      break;
    }
    case 'like':
      break;
  }
  if (range[1] < range[0]) range[1] = range[0];
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1; // absent values last
  if (b === undefined || b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = typeof a === 'string' ? a : JSON.stringify(a);
  const y = typeof b === 'string' ? b : JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Rows (in id order) in the order of `sort`: by the property, ties in id order, all reversed for desc.
 * `ordered` says the rows already ascend by the property (id, or the table's sorted key).
 */
export function sortRows(rows: Row[], sort: CollectionQuery['sort'], ordered = false): Row[] {
  if (sort === undefined) return rows;
  const property = sort.property;
  const out =
    ordered || property === 'id' ? rows : [...rows].sort((a, b) => compareValues(a[property], b[property]));
  return sort.desc ? out.reverse() : out;
}

/** Runs a collection query over rows ordered by id. `forceScan` skips the binary-search path (for tests). */
export function queryRows(
  rows: readonly Row[],
  q: CollectionQuery,
  ordering: Ordering,
  forceScan = false,
): CollectionResult {
  const { sortedKey, keySortedUntil } = ordering;
  if (sortedKey !== undefined && keySortedUntil !== undefined && keySortedUntil < rows.length) {
    return queryPartlyOrdered(rows, q, { ...ordering, sortedKey, keySortedUntil }, forceScan);
  }
  const page = Math.max(1, Math.floor(q.page) || 1);
  const limit = Math.max(0, Math.floor(q.limit) || 0);
  const range: [number, number] = [0, rows.length];
  const rest: FilterCondition[] = [];
  for (const cond of q.filter) {
    if (!forceScan && isRangeable(cond, ordering)) narrow(rows, range, cond);
    else rest.push(cond);
  }
  const [lo, hi] = range;
  const start = (page - 1) * limit;
  const sort = q.sort !== undefined && !(q.sort.property === 'id' && !q.sort.desc) ? q.sort : undefined;
  if (sort !== undefined) {
    const ordered = sort.property === 'id' || sort.property === ordering.sortedKey;
    if (sort.desc && ordered && rest.length === 0 && q.groupBy === undefined) {
      // Newest first over rows already in order: the page is counted from the end, no copy of the rest.
      const to = Math.max(lo, hi - start);
      return { data: rows.slice(Math.max(lo, to - limit), to).reverse(), total: hi - lo };
    }
    // Every match is needed to order them; then one page of them.
    const { sort: _sort, ...unsorted } = q;
    const all = queryRows(
      rows,
      { ...unsorted, page: 1, limit: Number.MAX_SAFE_INTEGER },
      ordering,
      forceScan,
    );
    const sorted = sortRows(all.data, sort, sort.property === ordering.sortedKey);
    return { data: sorted.slice(start, start + limit), total: all.total };
  }
  if (rest.length === 0 && q.groupBy === undefined) {
    const from = Math.min(hi, lo + start);
    return { data: rows.slice(from, Math.min(hi, from + limit)), total: hi - lo };
  }
  const preds = rest.map(conditionPredicate);
  const matches = (row: Row): boolean => {
    for (const p of preds) if (!p(row)) return false;
    return true;
  };
  const data: Row[] = [];
  const end = start + limit;
  let total = 0;
  const groupBy = q.groupBy;
  const seen = new Set<unknown>();
  for (let i = lo; i < hi; i++) {
    const row = rows[i] as Row;
    if (!matches(row)) continue;
    if (groupBy !== undefined) {
      const v = row[groupBy];
      const key = v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    if (total >= start && total < end) data.push(row);
    total++;
  }
  return { data, total };
}

/**
 * A query over rows of which only the first `keySortedUntil` ascend by the sorted key: its key
 * conditions narrow that prefix by binary search and test the later rows one by one; the rows
 * found (still in id order) are queried as rows with no sorted key.
 */
function queryPartlyOrdered(
  rows: readonly Row[],
  q: CollectionQuery,
  ordering: Ordering & { sortedKey: string; keySortedUntil: number },
  forceScan: boolean,
): CollectionResult {
  const plain: Ordering = { numericIds: ordering.numericIds };
  const keyConditions = q.filter.filter((c) => c.property === ordering.sortedKey && isRangeable(c, ordering));
  if (forceScan || keyConditions.length === 0) return queryRows(rows, q, plain, forceScan);
  const range: [number, number] = [0, ordering.keySortedUntil];
  for (const cond of keyConditions) narrow(rows, range, cond);
  const candidates = rows.slice(range[0], range[1]);
  const preds = keyConditions.map(conditionPredicate);
  for (let i = ordering.keySortedUntil; i < rows.length; i++) {
    const row = rows[i] as Row;
    if (preds.every((p) => p(row))) candidates.push(row);
  }
  const rest = q.filter.filter((c) => !keyConditions.includes(c));
  return queryRows(candidates, { ...q, filter: rest }, plain);
}
