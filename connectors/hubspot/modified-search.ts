// A HubSpot CRM search for the objects modified since an instant, in modification order, beyond the
// search API's window: one query pages through at most 10,000 results, so past that a new query
// starts at the last modification time seen (the objects of that instant come again; callers treat
// them as no-ops).
import { CrmError } from '../crm/errors';
import { DESTINATION } from './errors';

/** Results per search page (HubSpot's largest). */
export const SEARCH_PAGE = 200;
const SEARCH_WINDOW = 10_000;

/** A read of "modified since" goes back at least this far behind its cursor (rereadMargin). */
export const MIN_REREAD_MS = 60_000;

/**
 * How far behind its cursor a read of "modified since" through search starts: HubSpot's search sees
 * writes only after a few moments, not necessarily in their order
 * (https://developers.hubspot.com/docs/api/crm/search), so the latest modification seen is no
 * promise that every earlier one has been seen. Well past the configured search lag.
 */
export const rereadMargin = (searchLagMs: number): number => Math.max(MIN_REREAD_MS, 4 * searchLagMs);

/** One object of a search answer, as the client returns it. */
export interface SearchedObject {
  id: string;
  properties: Record<string, string | null>;
  updatedAt?: Date | string;
}

/** A search filter; `operator` is one of HubSpot's (each object's client has its own enum of them). */
export interface SearchFilter {
  propertyName: string;
  operator: 'GTE' | 'HAS_PROPERTY' | 'NOT_HAS_PROPERTY' | 'EQ';
  value?: string;
}

/** The search request; callers hand it to their object's `searchApi.doSearch`. */
export interface ModifiedSearchRequest {
  filterGroups: { filters: SearchFilter[] }[];
  sorts: string[];
  properties: string[];
  limit: number;
  after?: string;
}

export interface ModifiedSearch<T extends SearchedObject> {
  /** What is searched, for the error when one instant holds more than a window ("calls"). */
  what: string;
  /** The modification-time property searched and sorted on. */
  property: string;
  /** Epoch milliseconds: objects modified at or after it. */
  from: number;
  /** Further conditions, all required (e.g. HAS_PROPERTY of callsync's key). */
  filters?: SearchFilter[];
  properties: string[];
  search: (request: ModifiedSearchRequest) => Promise<{
    results: T[];
    paging?: { next?: { after?: string } };
  }>;
}

/** The objects modified at or after `from`, a page at a time. */
export async function* searchModifiedSince<T extends SearchedObject>(
  s: ModifiedSearch<T>,
): AsyncIterable<T[]> {
  let from = s.from;
  for (;;) {
    let after: string | undefined;
    let seen = 0;
    let last = from;
    do {
      const page = await s.search({
        filterGroups: [
          {
            filters: [
              { propertyName: s.property, operator: 'GTE', value: String(from) },
              ...(s.filters ?? []),
            ],
          },
        ],
        sorts: [s.property],
        properties: s.properties,
        limit: SEARCH_PAGE,
        ...(after ? { after } : {}),
      });
      for (const r of page.results) {
        const modified = Date.parse(String(r.properties[s.property] ?? r.updatedAt ?? ''));
        if (!Number.isNaN(modified)) last = Math.max(last, modified);
      }
      seen += page.results.length;
      yield page.results;
      after = page.paging?.next?.after;
    } while (after && seen + SEARCH_PAGE <= SEARCH_WINDOW);
    if (!after) return;
    if (last === from)
      throw new CrmError({
        destination: DESTINATION,
        message: `more than ${SEARCH_WINDOW} ${s.what} modified at ${new Date(from).toISOString()}`,
        retryable: false,
      });
    from = last;
  }
}
