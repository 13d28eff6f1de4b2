// Finding callsync's own objects (calls, tasks, communications, notes) by their callsync_key, when
// an earlier attempt may have created them without recording their id (its answer was lost).
// HubSpot's search sees a write only after "a few moments"
// (https://developers.hubspot.com/docs/api/crm/search, Limitations): a key the search does not find
// may still be an object created a moment ago. So the keys not found are searched again once the
// search lag has passed, and only then reported missing (and created). Searches are split by body
// size (search-body.ts).
import type { Client } from '@hubspot/api-client';
import type { FilterOperatorEnum } from '@hubspot/api-client/lib/codegen/crm/objects/calls';
import { KEY_PROPERTY } from './properties';
import { splitBySearchBody } from './search-body';

/** Most results one search page returns. */
const SEARCH_PAGE = 200;

export interface KeySearchContext {
  client: Client;
  search<T>(send: () => Promise<T>): Promise<T>;
  sleep(ms: number): Promise<void>;
  /** How long HubSpot's search may take to see a write (HubSpotConfig.searchLagSeconds). */
  lagMs: number;
}

/** One search round: the id by key of every object found (the oldest, should a duplicate exist). */
async function searchKeys(
  ctx: KeySearchContext,
  objectType: string,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const searches = splitBySearchBody([...keys], (run) => ({
    filterGroups: [
      { filters: [{ propertyName: KEY_PROPERTY, operator: 'IN' as FilterOperatorEnum, values: run }] },
    ],
    properties: [KEY_PROPERTY],
    limit: SEARCH_PAGE,
  }));
  const hits: { id: string; key: string }[] = [];
  for (const { body } of searches) {
    let after: string | undefined;
    do {
      const page = await ctx.search(() =>
        ctx.client.crm.objects.searchApi.doSearch(objectType, { ...body, ...(after ? { after } : {}) }),
      );
      for (const r of page.results) {
        const key = r.properties[KEY_PROPERTY];
        if (key) hits.push({ id: r.id, key });
      }
      after = page.paging?.next?.after;
    } while (after);
  }
  // Should a duplicate ever exist, the oldest (smallest id) is the one callsync keeps.
  hits.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
  const found = new Map<string, string>();
  for (const h of hits) if (!found.has(h.key)) found.set(h.key, h.id);
  return found;
}

/**
 * The ids by key of callsync's objects of `objectType` with these keys. Keys the search does not
 * find are searched again after the search lag: an object created just before is found then.
 */
export async function findByKeys(
  ctx: KeySearchContext,
  objectType: string,
  keys: readonly string[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const found = await searchKeys(ctx, objectType, keys);
  const missing = keys.filter((k) => !found.has(k));
  if (missing.length === 0 || ctx.lagMs <= 0) return found;
  await ctx.sleep(ctx.lagMs);
  for (const [key, id] of await searchKeys(ctx, objectType, missing)) found.set(key, id);
  return found;
}
