// The latest call that reached each caller (per account, by the hashed caller key): written by the
// follow-up of every connected call before it tells the caller's callback, read by the callback
// before it writes its task and after each missed call. Only a later-starting call (ties: a higher
// call id) replaces the one recorded, so the row never moves back whatever order calls finish in.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables';

export interface CallerReachRecord {
  account: string;
  callerKey: string;
  /** The reaching call's start. */
  reachedAt: Date;
  callId: number;
}

/** Records that `callId` (started at `reachedAt`) reached the caller, unless a later call already did. */
export async function recordCallerReach(db: Kysely<Database>, reach: CallerReachRecord): Promise<void> {
  await db
    .insertInto('caller_reaches')
    .values({
      account: reach.account,
      caller_key: reach.callerKey,
      reached_at: reach.reachedAt,
      call_id: reach.callId,
    })
    .onConflict((oc) =>
      oc
        .columns(['account', 'caller_key'])
        .doUpdateSet({
          reached_at: (eb) => eb.ref('excluded.reached_at'),
          call_id: (eb) => eb.ref('excluded.call_id'),
          updated_at: sql<Date>`now()`,
        })
        .where(
          sql<boolean>`(excluded.reached_at, excluded.call_id) > (caller_reaches.reached_at, caller_reaches.call_id)`,
        ),
    )
    .execute();
}

/** The latest call that reached the caller, or undefined when none has. */
export async function latestCallerReach(
  db: Kysely<Database>,
  account: string,
  callerKey: string,
): Promise<CallerReachRecord | undefined> {
  const row = await db
    .selectFrom('caller_reaches')
    .select(['reached_at', 'call_id'])
    .where('account', '=', account)
    .where('caller_key', '=', callerKey)
    .executeTakeFirst();
  return row && { account, callerKey, reachedAt: row.reached_at, callId: Number(row.call_id) };
}
