// Collections beyond the spec that the emulator computes from its stored rows (transactions from
// statements, conversations from SMS and chats) rather than keeping: built per request into a
// throwaway table so page, limit, filter, sort and dir behave exactly as on a stored collection.
import { MemoryTable } from '../store/memory-table';
import type { CollectionQuery, Row, Table } from '../store';
import type { ApiSettings } from './api-settings';
import { checkQueryProperties, parseCollectionQuery } from './collection-query';
import { collection } from './responses';
import type { ApiResponse } from './route-def';

/** Every row of one customer in a table, id ascending. */
export function allRows(table: Table, customerId: number): Row[] {
  return table.query(customerId, { page: 1, limit: Number.MAX_SAFE_INTEGER, filter: [] }).data;
}

/**
 * The collection envelope of computed rows under the request's query. A collection with an order of its
 * own (`fallbackSort`) keeps it when the request names none; the API's default order applies to the others.
 */
export function derivedCollection(
  name: string,
  customerId: number,
  rows: readonly Row[],
  query: Readonly<Record<string, unknown>>,
  api: Readonly<ApiSettings>,
  fallbackSort?: CollectionQuery['sort'],
): ApiResponse {
  const table = new MemoryTable({ name, stringIds: rows.some((r) => typeof r.id === 'string') });
  table.load(customerId, rows);
  const q = parseCollectionQuery(query, fallbackSort ? { ...api, default_order: 'asc' } : api);
  checkQueryProperties(table, q);
  const sort = q.sort ?? fallbackSort;
  return collection(table.query(customerId, sort ? { ...q, sort } : q));
}
