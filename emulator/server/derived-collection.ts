// Collections beyond the spec that the emulator computes from its stored rows (transactions from
// statements, conversations from SMS and chats) rather than keeping: built per request into a
// throwaway table so page, limit, filter, sort and dir behave exactly as on a stored collection.
import { MemoryTable } from '../store/memory-table';
import type { CollectionQuery, Row, Table } from '../store';
import { checkQueryProperties, parseCollectionQuery } from './collection-query';
import { collection } from './responses';
import type { ApiResponse } from './route-def';

/** Every row of one customer in a table, id ascending. */
export function allRows(table: Table, customerId: number): Row[] {
  return table.query(customerId, { page: 1, limit: Number.MAX_SAFE_INTEGER, filter: [] }).data;
}

/** The collection envelope of computed rows under the request's query (`fallbackSort` when none). */
export function derivedCollection(
  name: string,
  customerId: number,
  rows: readonly Row[],
  query: Readonly<Record<string, unknown>>,
  fallbackSort?: CollectionQuery['sort'],
): ApiResponse {
  const table = new MemoryTable({ name, stringIds: rows.some((r) => typeof r.id === 'string') });
  table.load(customerId, rows);
  const q = parseCollectionQuery(query);
  checkQueryProperties(table, q);
  const sort = q.sort ?? fallbackSort;
  return collection(table.query(customerId, sort ? { ...q, sort } : q));
}
