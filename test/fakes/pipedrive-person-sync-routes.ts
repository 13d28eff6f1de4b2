// The fake Pipedrive's endpoints the two-way contact sync adds: the v2 persons list with its filters
// and order, one person, a person's update, and the v1 person fields
// (https://developers.pipedrive.com/docs/api/v1/Persons, https://developers.pipedrive.com/docs/api/v1/PersonFields).
import { badRequest } from './pipedrive-records';
import { person, v1Page, v2Page, type Route } from './pipedrive-http';
import { addPersonField, customFields, items, personView } from './pipedrive-person-fields';

/** An RFC 3339 time of a query (400 otherwise), as ms. */
function timeOf(q: URLSearchParams, name: string): number | null {
  const raw = q.get(name);
  if (raw === null) return null;
  const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(ms)) throw badRequest(`${name} must be in RFC 3339 format`);
  return ms;
}

export const PERSON_SYNC_ROUTES: Route[] = [
  // GET /api/v2/persons (getPersons): ids (up to 100), updated_since (update_time at or after it) and
  // updated_until (before it) in RFC 3339, sort_by id | update_time | add_time, sort_direction asc |
  // desc, limit ≤ 500 (default 100), cursor. Deleted persons are not listed.
  [
    'GET',
    /^\/api\/v2\/persons$/,
    (s, r) => {
      const ids = (r.query.get('ids') ?? '').split(',').filter(Boolean).map(Number);
      if (ids.length > 100) throw badRequest('ids: at most 100');
      const since = timeOf(r.query, 'updated_since');
      const until = timeOf(r.query, 'updated_until');
      const sortBy = r.query.get('sort_by') ?? 'id';
      if (sortBy !== 'id' && sortBy !== 'update_time' && sortBy !== 'add_time')
        throw badRequest('sort_by must be one of id, update_time, add_time');
      const direction = r.query.get('sort_direction') ?? 'asc';
      if (direction !== 'asc' && direction !== 'desc') throw badRequest('sort_direction must be asc or desc');
      const key = (p: { id: number; update_time: string; add_time: string }) =>
        sortBy === 'id' ? p.id : Date.parse(sortBy === 'update_time' ? p.update_time : p.add_time);
      const list = [...s.persons.values()]
        .filter((p) => ids.length === 0 || ids.includes(p.id))
        .filter((p) => since === null || Date.parse(p.update_time) >= since)
        .filter((p) => until === null || Date.parse(p.update_time) < until)
        .sort((a, b) => (key(a) - key(b) || a.id - b.id) * (direction === 'desc' ? -1 : 1));
      return v2Page(list.map(personView), r.query, 500);
    },
  ],
  ['GET', /^\/api\/v2\/persons\/(\d+)$/, (s, _r, id) => ({ success: true, data: personView(person(s, id)) })],
  // PATCH /api/v2/persons/{id} (updatePerson): the fields given change; phones and emails replace the
  // person's whole arrays; custom field values by key (null clears one); update_time is the server's.
  [
    'PATCH',
    /^\/api\/v2\/persons\/(\d+)$/,
    (s, r, id) => {
      const p = person(s, id);
      if (r.body.name !== undefined) {
        if (typeof r.body.name !== 'string' || r.body.name.trim() === '')
          throw badRequest('name must not be empty');
      }
      const phones = r.body.phones !== undefined ? items(r.body, 'phones') : p.phones;
      const emails = r.body.emails !== undefined ? items(r.body, 'emails') : p.emails;
      const custom = r.body.custom_fields !== undefined ? customFields(s, r.body) : {};
      if (typeof r.body.name === 'string') p.name = r.body.name;
      p.phones = phones;
      p.emails = emails;
      for (const [k, v] of Object.entries(custom)) {
        if (v === null) delete p.custom_fields[k];
        else p.custom_fields[k] = v;
      }
      p.update_time = new Date().toISOString();
      return { success: true, data: personView(p) };
    },
  ],
  // GET /v1/personFields: every person field, paged by start and limit (≤ 500).
  ['GET', /^\/api\/v1\/personFields$/, (s, r) => v1Page(s.personFields, r.query, 500)],
  ['POST', /^\/api\/v1\/personFields$/, (s, r) => ({ success: true, data: addPersonField(s, r.body) })],
];
