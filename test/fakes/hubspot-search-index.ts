// The HubSpot test server's search index: as at HubSpot, a write reaches search only after a while
// ("newly created or updated CRM objects may take a few moments to appear in search results",
// https://developers.hubspot.com/docs/api/crm/search, Limitations). Every write of an object is kept
// as a version that search sees from `lag` milliseconds after the write; search answers with the
// latest written version it sees (an object it sees no version of is not found). A test may give
// one write a longer lag than a later one, so writes reach search out of order. Reads by id and batch reads
// go to the object store itself and see every write at once.
import type { FakeObject, ObjectType } from './hubspot-objects';

/** The lag of a test server started without `searchLagMs`: a realistic few moments. */
export const DEFAULT_SEARCH_LAG_MS = 1_000;

interface Version {
  visibleAt: number;
  object: FakeObject;
}

export class SearchIndex {
  private readonly versions = new Map<string, Version[]>();

  constructor(public lagMs: number = DEFAULT_SEARCH_LAG_MS) {}

  /** Records a write of `obj` (a copy of it as it is now), seen by search after the lag or `lagMs`. */
  wrote(obj: FakeObject, lagMs = this.lagMs, now = Date.now()): void {
    const key = `${obj.type}/${obj.id}`;
    const list = this.versions.get(key) ?? [];
    list.push({ visibleAt: now + lagMs, object: structuredClone(obj) });
    this.versions.set(key, list);
  }

  /** The version of each stored object search sees now (objects deleted since are gone from search). */
  visible(type: ObjectType, stored: Iterable<FakeObject>, now = Date.now()): FakeObject[] {
    const out: FakeObject[] = [];
    for (const obj of stored) {
      const list = this.versions.get(`${type}/${obj.id}`);
      if (!list) continue;
      // The list is in write order: the last version visible now is the one search sees.
      let at = list.length - 1;
      while (at >= 0 && list[at]!.visibleAt > now) at--;
      if (at < 0) continue;
      // Versions written before it will never be seen again.
      if (at > 0) list.splice(0, at);
      out.push(list[0]!.object);
    }
    return out;
  }
}
