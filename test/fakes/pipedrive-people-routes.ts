// The fake Pipedrive's persons (v2: https://developers.pipedrive.com/docs/api/v1/Persons), notes
// (v1: https://developers.pipedrive.com/docs/api/v1/Notes) and users
// (v1: https://developers.pipedrive.com/docs/api/v1/Users) endpoints.
import { badRequest, notFound, stamp, type FakePerson } from './pipedrive-records';
import { digits, person, text, v1Page, v2Page, type Route } from './pipedrive-http';
import { customFields, items } from './pipedrive-person-fields';

function searchItem(p: FakePerson) {
  return {
    result_score: 1,
    item: {
      id: p.id,
      type: 'person',
      name: p.name,
      phones: p.phones.map((x) => x.value),
      emails: p.emails.map((x) => x.value),
      visible_to: 3,
      owner: { id: p.owner_id },
      organization: null,
      custom_fields: [],
      notes: [],
    },
  };
}

export const PEOPLE_ROUTES: Route[] = [
  // GET /api/v2/persons/search: term of 2 characters at least (1 with exact_match); limit ≤ 500;
  // fields limits what is searched (the fake knows phone and email; default here: phone). How Pipedrive matches a
  // phone against a term is not documented: the fake assumes it matches the term's digits inside a
  // phone's digits whatever the formatting ("+44 20 7946 0000" holds 2079460000). Unverified against
  // a live Pipedrive; if Pipedrive matches fewer forms, findContactsByPhone finds fewer persons.
  [
    'GET',
    /^\/api\/v2\/persons\/search$/,
    (s, r) => {
      const term = r.query.get('term') ?? '';
      const exact = r.query.get('exact_match') === 'true';
      if (term.length < (exact ? 1 : 2)) throw badRequest('term must be at least 2 characters long');
      const d = digits(term);
      const fields = (r.query.get('fields') ?? 'phone').split(',');
      const phoneHit = (p: FakePerson) =>
        fields.includes('phone') &&
        p.phones.some((x) => (d.length > 0 ? digits(x.value).includes(d) : x.value.includes(term)));
      // An e-mail: the term inside the address, or (exact_match, not case sensitive) the whole address.
      const emailHit = (p: FakePerson) =>
        fields.includes('email') &&
        p.emails.some((x) =>
          exact
            ? x.value.toLowerCase() === term.toLowerCase()
            : x.value.toLowerCase().includes(term.toLowerCase()),
        );
      const hits = [...s.persons.values()].filter((p) => phoneHit(p) || emailHit(p));
      const page = v2Page(hits.map(searchItem), r.query, 500);
      return { success: true, data: { items: page.data }, additional_data: page.additional_data };
    },
  ],
  // POST /api/v2/persons: name is required; phones and emails as arrays of { value, label, primary };
  // custom field values by key (pipedrive-person-fields.ts).
  [
    'POST',
    /^\/api\/v2\/persons$/,
    (s, r) => {
      if (typeof r.body.name !== 'string' || r.body.name.trim() === '') throw badRequest('name is required');
      const p: FakePerson = {
        id: s.nextId++,
        name: r.body.name,
        phones: r.body.phones === undefined ? [] : items(r.body, 'phones'),
        emails: r.body.emails === undefined ? [] : items(r.body, 'emails'),
        custom_fields: r.body.custom_fields === undefined ? {} : { ...customFields(s, r.body) },
        owner_id: Number(r.body.owner_id ?? s.apiUserId),
        add_time: new Date().toISOString(),
        update_time: new Date().toISOString(),
      };
      s.persons.set(p.id, p);
      return { success: true, data: p };
    },
  ],
  [
    'DELETE',
    /^\/api\/v2\/persons\/(\d+)$/,
    (s, _r, id) => {
      person(s, id);
      s.persons.delete(Number(id));
      return { success: true, data: { id: Number(id) } };
    },
  ],
  // Notes: content is required, and a deal, person, organisation, lead or project to attach it to.
  [
    'GET',
    /^\/api\/v1\/notes$/,
    (s, r) => {
      const personId = r.query.get('person_id');
      const list = [...s.notes.values()]
        .filter((n) => personId === null || n.person_id === Number(personId))
        .sort((a, b) => a.id - b.id);
      return v1Page(list, r.query, 500);
    },
  ],
  [
    'POST',
    /^\/api\/v1\/notes$/,
    (s, r) => {
      if (typeof r.body.content !== 'string' || r.body.content === '')
        throw badRequest('content is required');
      if (r.body.person_id === undefined)
        throw badRequest('one of deal_id, person_id, org_id, lead_id or project_id is required');
      const now = stamp();
      const n = {
        id: s.nextId++,
        content: r.body.content,
        person_id: person(s, r.body.person_id).id,
        user_id: s.apiUserId,
        add_time: now,
        update_time: now,
      };
      s.notes.set(n.id, n);
      return { success: true, data: n };
    },
  ],
  [
    'PUT',
    /^\/api\/v1\/notes\/(\d+)$/,
    (s, r, id) => {
      const n = s.notes.get(Number(id));
      if (!n) throw notFound('Note');
      if (r.body.content !== undefined) n.content = text(r.body, 'content');
      n.update_time = stamp();
      return { success: true, data: n };
    },
  ],
  [
    'DELETE',
    /^\/api\/v1\/notes\/(\d+)$/,
    (s, _r, id) => {
      if (!s.notes.delete(Number(id))) throw notFound('Note');
      return { success: true, data: Number(id) };
    },
  ],
  // GET /v1/users/me: the user the token belongs to.
  ['GET', /^\/api\/v1\/users\/me$/, (s) => ({ success: true, data: s.users.get(s.apiUserId) })],
  // GET /v1/users/find: term required; search_by_email=1 matches e-mail addresses only.
  [
    'GET',
    /^\/api\/v1\/users\/find$/,
    (s, r) => {
      const term = (r.query.get('term') ?? '').toLowerCase();
      if (term === '') throw badRequest('term is required');
      const byEmail = r.query.get('search_by_email') === '1';
      const users = [...s.users.values()].filter((u) =>
        (byEmail ? u.email : u.name).toLowerCase().includes(term),
      );
      return { success: true, data: users };
    },
  ],
];
