// A call's timeline in the warehouse: its events, once each, whatever order they came in.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables';

export interface CallEventInput {
  eventId: string;
  name: string;
  /** `YYYY-MM-DD HH:MM:SS` UTC, or null. */
  time: string | null;
  state: string | null;
  context: string | null;
  detail: unknown;
}

/** Stores events of a call; an event already stored (same account and id) is left as it is. */
export async function addCallEvents(
  db: Kysely<Database>,
  account: string,
  callId: number,
  events: readonly CallEventInput[],
): Promise<number> {
  if (events.length === 0) return 0;
  const rows = events.map((e) => ({
    account,
    event_id: e.eventId,
    call_id: callId,
    name: e.name,
    event_time: e.time ? new Date(`${e.time.replace(' ', 'T')}Z`) : null,
    state: e.state,
    context: e.context,
    detail: JSON.stringify(e.detail),
  }));
  const result = await db
    .insertInto('call_events')
    .values(rows)
    .onConflict((oc) => oc.columns(['account', 'event_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

/** A call's events in time order. */
export async function callTimeline(db: Kysely<Database>, account: string, callId: number) {
  return db
    .selectFrom('call_events')
    .selectAll()
    .where('account', '=', account)
    .where('call_id', '=', callId)
    .orderBy('event_time')
    .orderBy('event_id')
    .execute();
}

/**
 * The keys pressed during a call: the digits of the DTMF events on its timeline, one string per event,
 * in event time order (then the order they were recorded in, then event id).
 */
export async function callDtmfDigits(
  db: Kysely<Database>,
  account: string,
  callId: number,
): Promise<string[]> {
  const digits = sql<string>`detail->>'digits'`;
  const rows = await db
    .selectFrom('call_events')
    .select(digits.as('digits'))
    .where('account', '=', account)
    .where('call_id', '=', callId)
    .where(digits, 'is not', null)
    .orderBy('event_time')
    .orderBy('recorded_at')
    .orderBy('event_id')
    .execute();
  return rows.map((r) => r.digits);
}
