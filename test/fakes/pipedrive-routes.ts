// The endpoints of the fake Pipedrive that callsync's connector calls, each checking what Pipedrive
// documents for it and answering in its shape. Documentation: persons (v2)
// https://developers.pipedrive.com/docs/api/v1/Persons, activities (v2)
// https://developers.pipedrive.com/docs/api/v1/Activities, call logs (v1)
// https://developers.pipedrive.com/docs/api/v1/CallLogs, notes (v1)
// https://developers.pipedrive.com/docs/api/v1/Notes, users (v1) https://developers.pipedrive.com/docs/api/v1/Users.
import {
  badRequest,
  notFound,
  stamp,
  type FakeActivity,
  type FakeCallLog,
  type FakePerson,
  type PipedriveState,
} from './pipedrive-records';

export interface RouteRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

type Handler = (s: PipedriveState, r: RouteRequest, id: string) => unknown;

/** The activity types a new company has (Settings → Activities); `type` must be one of them. */
const ACTIVITY_TYPES = new Set(['call', 'meeting', 'task', 'deadline', 'email', 'lunch']);
/** Call log outcomes (Call Logs API, addCallLog: outcome). */
const OUTCOMES = new Set([
  'connected',
  'no_answer',
  'left_message',
  'left_voicemail',
  'wrong_number',
  'busy',
]);

const digits = (s: string) => s.replace(/\D/g, '');

/** A string field of a request body (400 when it is anything else, as Pipedrive's validation answers). */
function text(b: Record<string, unknown>, field: string): string {
  const v = b[field];
  if (typeof v !== 'string') throw badRequest(`${field} must be a string`);
  return v;
}

/** `limit` within Pipedrive's maximum for the endpoint (400 beyond it), or its default. */
function limitOf(q: URLSearchParams, max: number, dflt: number): number {
  const raw = q.get('limit');
  if (raw === null) return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw badRequest(`limit must be between 1 and ${max}`);
  return n;
}

/** A v2 page by an opaque cursor (here: the offset, base64). */
function v2Page<T>(items: T[], q: URLSearchParams, max: number, dflt = 100) {
  const limit = limitOf(q, max, dflt);
  const cursor = q.get('cursor');
  const start = cursor ? Number(Buffer.from(cursor, 'base64').toString()) : 0;
  const page = items.slice(start, start + limit);
  const next = start + limit < items.length ? Buffer.from(String(start + limit)).toString('base64') : null;
  return { success: true, data: page, additional_data: { next_cursor: next } };
}

/** A v1 page by start and limit. */
function v1Page<T>(items: T[], q: URLSearchParams, max: number, dflt = 100) {
  const limit = limitOf(q, max, dflt);
  const start = Number(q.get('start') ?? 0);
  const page = items.slice(start, start + limit);
  const more = start + limit < items.length;
  return {
    success: true,
    data: page,
    additional_data: {
      pagination: {
        start,
        limit,
        more_items_in_collection: more,
        ...(more ? { next_start: start + limit } : {}),
      },
    },
  };
}

function person(s: PipedriveState, id: unknown): FakePerson {
  const p = s.persons.get(Number(id));
  if (!p) throw notFound('Person');
  return p;
}

function activity(s: PipedriveState, id: unknown): FakeActivity {
  const a = s.activities.get(Number(id));
  if (!a || a.is_deleted) throw notFound('Activity');
  return a;
}

/** The writable fields of an activity, checked as Pipedrive checks them. */
function activityFields(s: PipedriveState, b: Record<string, unknown>): Partial<FakeActivity> {
  const out: Partial<FakeActivity> = {};
  if (b.type !== undefined) {
    if (typeof b.type !== 'string' || !ACTIVITY_TYPES.has(b.type)) throw badRequest('Invalid activity type');
    out.type = b.type;
  }
  if (b.subject !== undefined) out.subject = text(b, 'subject');
  if (b.done !== undefined) out.done = b.done === true;
  if (b.due_date !== undefined) {
    out.due_date = text(b, 'due_date');
    if (!/^\d{4}-\d\d-\d\d$/.test(out.due_date)) throw badRequest('due_date must be YYYY-MM-DD');
  }
  if (b.due_time !== undefined) {
    out.due_time = text(b, 'due_time');
    if (!/^\d\d:\d\d$/.test(out.due_time)) throw badRequest('due_time must be HH:MM');
  }
  if (b.duration !== undefined) {
    out.duration = text(b, 'duration');
    if (!/^\d\d:\d\d$/.test(out.duration)) throw badRequest('duration must be HH:MM');
  }
  if (b.person_id !== undefined) out.person_id = person(s, b.person_id).id;
  if (b.owner_id !== undefined) {
    if (!s.users.has(Number(b.owner_id))) throw badRequest('owner_id: user not found');
    out.owner_id = Number(b.owner_id);
  }
  if (b.note !== undefined) out.note = text(b, 'note');
  return out;
}

function searchItem(p: FakePerson) {
  return {
    result_score: 1,
    item: {
      id: p.id,
      type: 'person',
      name: p.name,
      phones: p.phones.map((x) => x.value),
      emails: [],
      visible_to: 3,
      owner: { id: p.owner_id },
      organization: null,
      custom_fields: [],
      notes: [],
    },
  };
}

const ROUTES: [string, RegExp, Handler][] = [
  // GET /api/v2/persons/search: term of 2 characters at least; limit ≤ 500. How Pipedrive matches a
  // phone is not documented; the fake matches the term's digits inside a phone's digits, whatever
  // the formatting ("+44 20 7946 0000" holds 2079460000), which is what its UI search does.
  [
    'GET',
    /^\/api\/v2\/persons\/search$/,
    (s, r) => {
      const term = r.query.get('term') ?? '';
      if (term.length < 2) throw badRequest('term must be at least 2 characters long');
      const d = digits(term);
      const hits = [...s.persons.values()].filter((p) =>
        p.phones.some((x) => (d.length > 0 ? digits(x.value).includes(d) : x.value.includes(term))),
      );
      const page = v2Page(hits.map(searchItem), r.query, 500);
      return { success: true, data: { items: page.data }, additional_data: page.additional_data };
    },
  ],
  // GET /api/v2/persons?ids=: up to 100 ids.
  [
    'GET',
    /^\/api\/v2\/persons$/,
    (s, r) => {
      const ids = (r.query.get('ids') ?? '').split(',').filter(Boolean).map(Number);
      if (ids.length > 100) throw badRequest('ids: at most 100');
      const all = [...s.persons.values()].filter((p) => ids.length === 0 || ids.includes(p.id));
      return v2Page(all, r.query, 500);
    },
  ],
  // POST /api/v2/persons: name is required.
  [
    'POST',
    /^\/api\/v2\/persons$/,
    (s, r) => {
      if (typeof r.body.name !== 'string' || r.body.name.trim() === '') throw badRequest('name is required');
      const phones = Array.isArray(r.body.phones) ? (r.body.phones as FakePerson['phones']) : [];
      const p: FakePerson = {
        id: s.nextId++,
        name: r.body.name,
        phones: phones.map((x) => ({
          value: String(x.value),
          primary: x.primary === true,
          label: x.label ?? 'work',
        })),
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
  // GET /api/v2/activities: filters person_id and updated_since (RFC 3339), sorted, limit ≤ 500,
  // deleted activities left out.
  [
    'GET',
    /^\/api\/v2\/activities$/,
    (s, r) => {
      const personId = r.query.get('person_id');
      const since = r.query.get('updated_since');
      if (since !== null && Number.isNaN(Date.parse(since)))
        throw badRequest('updated_since must be RFC 3339');
      const sortBy = (r.query.get('sort_by') ?? 'id') as 'id' | 'update_time';
      const desc = r.query.get('sort_direction') === 'desc';
      const list = [...s.activities.values()]
        .filter((a) => !a.is_deleted)
        .filter((a) => personId === null || a.person_id === Number(personId))
        .filter((a) => since === null || Date.parse(a.update_time) >= Date.parse(since))
        .sort(
          (a, b) =>
            (sortBy === 'update_time' ? a.update_time.localeCompare(b.update_time) : a.id - b.id) *
            (desc ? -1 : 1),
        );
      return v2Page(list, r.query, 500);
    },
  ],
  [
    'POST',
    /^\/api\/v2\/activities$/,
    (s, r) => {
      const f = activityFields(s, r.body);
      const now = new Date().toISOString();
      const a: FakeActivity = {
        id: s.nextId++,
        subject: f.subject ?? 'Call',
        type: f.type ?? 'task',
        done: f.done ?? false,
        due_date: f.due_date ?? null,
        due_time: f.due_time ?? null,
        duration: f.duration ?? null,
        person_id: f.person_id ?? null,
        owner_id: f.owner_id ?? s.apiUserId,
        note: f.note ?? null,
        is_deleted: false,
        add_time: now,
        update_time: now,
      };
      s.activities.set(a.id, a);
      return { success: true, data: a };
    },
  ],
  [
    'PATCH',
    /^\/api\/v2\/activities\/(\d+)$/,
    (s, r, id) => {
      const a = activity(s, id);
      Object.assign(a, activityFields(s, r.body), { update_time: new Date().toISOString() });
      return { success: true, data: a };
    },
  ],
  [
    'DELETE',
    /^\/api\/v2\/activities\/(\d+)$/,
    (s, _r, id) => {
      activity(s, id).is_deleted = true;
      return { success: true, data: { id: Number(id) } };
    },
  ],
  // POST /v1/callLogs: outcome, to_phone_number, start_time and end_time are required; activity_id
  // must be an activity of type call, whose person the call log takes.
  [
    'POST',
    /^\/api\/v1\/callLogs$/,
    (s, r) => {
      const b = r.body;
      const outcome = text(b, 'outcome');
      if (!OUTCOMES.has(outcome)) throw badRequest('outcome is invalid');
      if (typeof b.to_phone_number !== 'string' || b.to_phone_number === '')
        throw badRequest('to_phone_number is required');
      for (const t of ['start_time', 'end_time'] as const)
        if (!/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(text(b, t)))
          throw badRequest(`${t} must be YYYY-MM-DD HH:MM:SS`);
      let personId = b.person_id === undefined ? null : person(s, b.person_id).id;
      if (b.activity_id !== undefined) {
        const a = activity(s, b.activity_id);
        if (a.type !== 'call') throw badRequest('activity_id must refer to a call type activity');
        personId = a.person_id;
      }
      const c: FakeCallLog = {
        id: `cl${s.nextId++}`,
        activity_id: b.activity_id === undefined ? null : Number(b.activity_id),
        person_id: personId,
        user_id: Number(b.user_id ?? s.apiUserId),
        subject: typeof b.subject === 'string' ? b.subject : null,
        outcome,
        to_phone_number: b.to_phone_number,
        from_phone_number: typeof b.from_phone_number === 'string' ? b.from_phone_number : null,
        start_time: text(b, 'start_time'),
        end_time: text(b, 'end_time'),
        duration: b.duration === undefined ? null : text(b, 'duration'),
      };
      s.callLogs.set(c.id, c);
      return { success: true, data: c };
    },
  ],
  // GET /v1/callLogs: the token user's call logs; limit ≤ 50.
  [
    'GET',
    /^\/api\/v1\/callLogs$/,
    (s, r) =>
      v1Page(
        [...s.callLogs.values()].filter((c) => c.user_id === s.apiUserId),
        r.query,
        50,
        20,
      ),
  ],
  [
    'DELETE',
    /^\/api\/v1\/callLogs\/([\w-]+)$/,
    (s, _r, id) => {
      if (!s.callLogs.delete(id)) throw notFound('Call log');
      return { success: true };
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

/** The handler of a request, or null when the fake has no such endpoint. */
export function route(
  method: string,
  path: string,
): ((s: PipedriveState, r: RouteRequest) => unknown) | null {
  for (const [m, re, handler] of ROUTES) {
    const hit = m === method ? re.exec(path) : null;
    if (hit) return (s, r) => handler(s, r, hit[1] ?? '');
  }
  return null;
}
