// Looking rows up for a caller: 404 when missing, 403 when another customer owns them; and queries that
// combine alternatives (the store's filter is a conjunction).
import type { CollectionQuery, CollectionResult, FilterCondition, Id, Row, Table } from '../store';
import { sortRows } from '../store/query';
import { accessDenied, badRequest, notFound } from './http-error';
import type { Identity } from './route-def';

/** Limit that means "every matching row" when a query is combined in memory. */
const ALL_ROWS = 1_000_000_000;

/** A path id: numeric ids as numbers, anything else (an E.164 DDI id) as the string. */
export function parseId(raw: string): Id {
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}

/** Looks a path id up in a table, trying the other id type and a '+'-prefixed E.164 form. */
export function lookup(table: Table, raw: string): { row: Row; customerId: number } | undefined {
  const id = parseId(raw);
  return (
    table.get(id) ??
    (typeof id === 'number' ? table.get(raw) : undefined) ??
    (!raw.startsWith('+') && /^\d+$/.test(raw) ? table.get(`+${raw}`) : undefined)
  );
}

/** The caller's row of a table: 404 when it does not exist, 403 when another customer owns it. */
export function findOwned(table: Table, raw: string, identity: Identity): Row {
  const found = lookup(table, raw);
  if (!found) throw notFound(`${table.name} ${raw}`);
  if (found.customerId !== identity.customer_id) throw accessDenied();
  return found.row;
}

/** Parses {ids}: a comma-separated list of integers (400 otherwise). */
export function parseIds(raw: string): number[] {
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => !/^\d+$/.test(p))) {
    throw badRequest('Invalid ids', ['ids: must be a comma-separated list of integers']);
  }
  return [...new Set(parts.map(Number))];
}

/** All rows of a list of ids, each checked: 404 for any missing, 403 for any of another customer. */
export function findAllOwned(table: Table, ids: readonly Id[], identity: Identity): Row[] {
  const rows: Row[] = [];
  for (const id of ids) rows.push(findOwned(table, String(id), identity));
  return rows;
}

function compareIds(a: Row, b: Row): number {
  if (typeof a.id === 'number' && typeof b.id === 'number') return a.id - b.id;
  return String(a.id).localeCompare(String(b.id));
}

/** Rows matching any of several condition sets (each ANDed with the request's filter), id order, paged. */
export function queryAnyOf(
  table: Table,
  customerId: number,
  alternatives: readonly FilterCondition[][],
  q: CollectionQuery,
): CollectionResult {
  if (alternatives.length === 1) {
    const [only = []] = alternatives;
    return table.query(customerId, { ...q, filter: [...only, ...q.filter] });
  }
  const byId = new Map<Id, Row>();
  for (const alternative of alternatives) {
    const { data } = table.query(customerId, {
      page: 1,
      limit: ALL_ROWS,
      filter: [...alternative, ...q.filter],
    });
    for (const row of data) byId.set(row.id, row);
  }
  let rows = [...byId.values()].sort(compareIds);
  if (q.groupBy !== undefined) {
    const groupBy = q.groupBy;
    const seen = new Set<unknown>();
    rows = rows.filter((row) => {
      const key = row[groupBy];
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  rows = sortRows(rows, q.sort);
  const start = (q.page - 1) * q.limit;
  return { data: rows.slice(start, start + q.limit), total: rows.length };
}

/** A scalar field of a row as text ('' when absent or not a scalar), for rendered files. */
export function fieldText(row: Row, key: string): string {
  const v = row[key];
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}
