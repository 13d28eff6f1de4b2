// The dashboard's call list and a call's page. The list is keyset-paginated newest first over the
// (account, calldate) index; a number, user or outcome narrows it through their own indexes.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../tables';
import { callTimeline } from '../call-events';

export interface CallSearch {
  accounts: readonly string[];
  /** Digits of a number, matched against the caller and the callee (as stored, with or without +). */
  number?: string | undefined;
  userId?: number | undefined;
  /** The CDR's disposition (CONNECTED, RINGING, VM, ON_HOLD, INITIAL). */
  outcome?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Keyset: calls strictly older than this (calldate, id). */
  before?: { calldate: Date; id: number } | undefined;
  limit: number;
}

/** Forms a number may be stored in: as typed, with and without a leading + or 00. */
export function numberForms(input: string): string[] {
  const digits = input.replace(/[^\d]/g, '');
  if (!digits) return [];
  const bare = digits.replace(/^00/, '');
  return [...new Set([input.trim(), digits, bare, `+${bare}`, `00${bare}`])];
}

/** One page of root call legs, newest first; `next` is set when there are older ones. */
export async function searchCalls(db: Kysely<Database>, q: CallSearch) {
  if (q.accounts.length === 0) return { calls: [], next: null };
  let query = db
    .selectFrom('cdrs as c')
    .leftJoin('users as u', (j) => j.onRef('u.account', '=', 'c.account').onRef('u.id', '=', 'c.user_id'))
    .select([
      'c.account',
      'c.id',
      'c.live_id',
      'c.calldate',
      'c.src',
      'c.src_name',
      'c.dst',
      'c.dst_name',
      'c.disposition',
      'c.billsec',
      'c.type',
      'c.user_id',
      sql<string | null>`nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '')`.as('user_name'),
    ])
    .where('c.account', 'in', [...q.accounts])
    .where(sql<boolean>`coalesce(c.is_root, true)`);
  const forms = q.number ? numberForms(q.number) : [];
  if (q.number !== undefined && forms.length === 0) return { calls: [], next: null };
  if (forms.length > 0)
    query = query.where((eb) => eb.or([eb('c.src', 'in', forms), eb('c.dst', 'in', forms)]));
  if (q.userId !== undefined) query = query.where('c.user_id', '=', q.userId);
  if (q.outcome) query = query.where('c.disposition', '=', q.outcome);
  if (q.from) query = query.where('c.calldate', '>=', q.from);
  if (q.to) query = query.where('c.calldate', '<', q.to);
  if (q.before) {
    const b = q.before;
    query = query.where((eb) =>
      eb.or([
        eb('c.calldate', '<', b.calldate),
        eb.and([eb('c.calldate', '=', b.calldate), eb('c.id', '<', b.id)]),
      ]),
    );
  }
  const rows = await query
    .orderBy('c.calldate', 'desc')
    .orderBy('c.id', 'desc')
    .limit(q.limit + 1)
    .execute();
  const calls = rows
    .slice(0, q.limit)
    .map((r) => ({ ...r, id: Number(r.id), live_id: r.live_id === null ? null : Number(r.live_id) }));
  const last = calls[calls.length - 1];
  return {
    calls,
    next: rows.length > q.limit && last?.calldate ? { calldate: last.calldate, id: last.id } : null,
  };
}

/** The users calls can be filtered by. */
export async function callUsers(db: Kysely<Database>, accounts: readonly string[]) {
  if (accounts.length === 0) return [];
  return db
    .selectFrom('users')
    .select(['account', 'id', sql<string>`concat_ws(' ', first_name, last_name)`.as('name'), 'email'])
    .where('account', 'in', [...accounts])
    .orderBy('first_name')
    .orderBy('last_name')
    .limit(1000)
    .execute();
}

/**
 * Everything the call page shows: the CDR legs, events, recording, CRM objects and callback task. The
 * CRM objects are those of `destination` (the account's configured portal or org, destinationIdOf):
 * what callsync created in a portal the account has left is no object an agent can open now.
 */
export async function callDetail(db: Kysely<Database>, account: string, cdrId: number, destination: string) {
  const cdr = await db
    .selectFrom('cdrs')
    .selectAll()
    .where('account', '=', account)
    .where('id', '=', cdrId)
    .executeTakeFirst();
  if (!cdr) return undefined;
  const liveId = cdr.live_id === null ? null : Number(cdr.live_id);
  if (liveId === null)
    return { cdr, legs: [cdr], events: [], recordings: [], crm: [], builtinLog: undefined, tasks: [] };
  const [legs, events, recordings, crm, builtinLog] = await Promise.all([
    db
      .selectFrom('cdrs')
      .selectAll()
      .where('account', '=', account)
      .where('live_id', '=', liveId)
      .orderBy('calldate')
      .orderBy('id')
      .limit(50)
      .execute(),
    callTimeline(db, account, liveId),
    db
      .selectFrom('recordings')
      .select([
        'id',
        'created_at',
        'transcript',
        'summary',
        'sentiment',
        'audio_uri',
        'audio_bytes',
        'audio_archived_at',
      ])
      .where('account', '=', account)
      .where('live_id', '=', liveId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('crm_objects')
      .select(['destination', 'kind', 'source_key', 'crm_id', 'created_at', 'updated_at'])
      .where('destination', '=', destination)
      .where('kind', '=', 'call_log')
      .where('source_key', '=', `${account}:${liveId}`)
      .execute(),
    db
      .selectFrom('builtin_call_logs')
      .select(['id', 'title', 'status', 'direction', 'updated_at'])
      .where('account', '=', account)
      .where('key', '=', `${account}:${liveId}`)
      .executeTakeFirst(),
  ]);
  // A missed call's callback task is keyed by its first missed call: `<account>:callback:<number>:<call id>`.
  const tasks = await db
    .selectFrom('crm_objects')
    .select(['destination', 'source_key', 'crm_id', 'created_at'])
    .where('destination', '=', destination)
    .where('kind', '=', 'task')
    .where('source_key', 'like', `${account}:callback:%:${liveId}`)
    .where('account', '=', account)
    .execute();
  return { cdr, legs, events, recordings, crm, builtinLog, tasks };
}

/** A recording's archived audio (its object URI), for the player. */
export async function recordingAudio(db: Kysely<Database>, account: string, id: number) {
  return db
    .selectFrom('recordings')
    .select(['audio_uri', 'audio_bytes'])
    .where('account', '=', account)
    .where('id', '=', id)
    .where('audio_archived_at', 'is not', null)
    .executeTakeFirst();
}
