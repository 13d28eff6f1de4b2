// The fake Pipedrive's activities (v2: https://developers.pipedrive.com/docs/api/v1/Activities) and
// call logs (v1: https://developers.pipedrive.com/docs/api/v1/CallLogs) endpoints. Pipedrive's Call
// Logs API has no update: a call log is added, read, listed and deleted.
import {
  badRequest,
  notFound,
  type FakeActivity,
  type FakeCallLog,
  type PipedriveState,
} from './pipedrive-records';
import { activity, person, text, v1Page, v2Page, type Route } from './pipedrive-http';

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

export const ACTIVITY_ROUTES: Route[] = [
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
  // GET /api/v2/activities/{id}: one activity; 404 once deleted
  // (https://developers.pipedrive.com/docs/api/v1/Activities#getActivity).
  ['GET', /^\/api\/v2\/activities\/(\d+)$/, (s, _r, id) => ({ success: true, data: activity(s, id) })],
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
];
