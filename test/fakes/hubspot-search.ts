// The HubSpot test server's search: POST /crm/v3/objects/{type}/search with HubSpot's documented
// limits (at most 5 filterGroups, 6 filters a group and 18 in all, 200 results a page, a request body
// of at most 3,000 characters, https://developers.hubspot.com/docs/api/crm/search, Limitations),
// answered from the search index, which sees writes only after a lag (hubspot-search-index.ts).
// Filters, sorts and paging are hubspot-contacts.ts's; the 5-a-second search limit is hubspot-limits.ts.
// Registered by hubspot-server.ts, which passes its shared state in.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { filterMatches, searchPage } from './hubspot-contacts';
import { HubSpotError, fail, isRecord } from './hubspot-errors';
import type { FakeObject, HubSpotState, ObjectType } from './hubspot-objects';
import type { PropertyChecks } from './hubspot-properties';
import type { RecordHelpers } from './hubspot-records';

/** Longest search request body HubSpot takes (https://developers.hubspot.com/docs/api/crm/search, Limitations). */
export const SEARCH_BODY_CHARS = 3_000;

/** The JSON body parser, which keeps each body's length for the search body limit. */
export function registerSearchBodyParser(app: FastifyInstance): void {
  // JSON parsed by hand to keep each body's length as sent: HubSpot limits a search request body
  // to 3,000 characters (https://developers.hubspot.com/docs/api/crm/search, Limitations).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = String(body);
    (req as FastifyRequest & { bodyChars?: number }).bodyChars = text.length;
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON: the body is not JSON'), undefined);
    }
  });
}

/** The search endpoint. */
export function registerSearchRoute(
  app: FastifyInstance,
  s: HubSpotState,
  known: PropertyChecks['known'],
  records: Pick<RecordHelpers, 'view' | 'objectType'>,
): void {
  const { store, index } = s;
  const { view, objectType } = records;

  function search(type: ObjectType, body: unknown) {
    if (!isRecord(body)) throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON');
    // At most 5 filterGroups, 6 filters in a group and 18 filters in all; at most 200 results a page
    // (https://developers.hubspot.com/docs/api/crm/search, Limitations).
    const filterGroups = (body.filterGroups ?? []) as unknown[];
    if (!Array.isArray(filterGroups) || filterGroups.length > 5) {
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'There can be at most 5 filterGroups');
    }
    const total = filterGroups.reduce<number>(
      (n, g) => n + (isRecord(g) && Array.isArray(g.filters) ? g.filters.length : 0),
      0,
    );
    if (total > 18) throw new HubSpotError(400, 'VALIDATION_ERROR', 'There can be at most 18 filters');
    const matches = (obj: FakeObject, g: unknown) => {
      if (!isRecord(g) || !Array.isArray(g.filters))
        throw new HubSpotError(400, 'VALIDATION_ERROR', 'filterGroups[].filters is required');
      if (g.filters.length > 6)
        throw new HubSpotError(400, 'VALIDATION_ERROR', 'A filterGroup can have at most 6 filters');
      return g.filters.every((f: unknown) => {
        if (!isRecord(f) || typeof f.propertyName !== 'string') {
          throw new HubSpotError(400, 'VALIDATION_ERROR', 'filters[].propertyName is required');
        }
        return filterMatches(obj, f, fail);
      });
    };
    // HubSpot refuses a filter on a property the object type does not have, whatever the data.
    for (const g of filterGroups) {
      const filters = isRecord(g) && Array.isArray(g.filters) ? (g.filters as unknown[]) : [];
      for (const f of filters) {
        if (isRecord(f) && typeof f.propertyName === 'string' && !known(type, f.propertyName)) {
          throw new HubSpotError(
            400,
            'VALIDATION_ERROR',
            `There was a problem with the request: property ${f.propertyName} does not exist on ${type}`,
          );
        }
      }
    }
    const limit = typeof body.limit === 'number' ? body.limit : 10;
    if (limit > 200) throw new HubSpotError(400, 'VALIDATION_ERROR', 'limit must be at most 200');
    const props = Array.isArray(body.properties) ? (body.properties as string[]) : undefined;
    // Search reads the index, which sees writes only after the lag (hubspot-search-index.ts).
    const hits = index
      .visible(type, store.get(type)!.values())
      .filter((o) => filterGroups.length === 0 || filterGroups.some((g) => matches(o, g)));
    return searchPage(hits, body, limit, (o) => view(o, props), fail);
  }

  app.post('/crm/v3/objects/:type/search', async (req: FastifyRequest) => {
    const type = objectType(req);
    // "The request body is limited to 3,000 characters" (https://developers.hubspot.com/docs/api/crm/search,
    // Limitations): a longer one is refused whole, in HubSpot's error shape.
    const chars = (req as FastifyRequest & { bodyChars?: number }).bodyChars ?? 0;
    if (chars > SEARCH_BODY_CHARS) {
      throw new HubSpotError(
        400,
        'VALIDATION_ERROR',
        `The request body is ${chars} characters long; a search request body is limited to ${SEARCH_BODY_CHARS} characters.`,
      );
    }
    return search(type, req.body);
  });
}
