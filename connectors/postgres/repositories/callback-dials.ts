// Auto-dial attempts: recorded before POST /calls, marked sent just before each POST, completed with
// the placed call's id. A retried attempt reads its row to find the call an earlier try may have
// placed (its response lost), and to know how long ago that try sent its POST.
import type { Kysely } from 'kysely';
import type { CallbackDialRow, Database } from '../tables';

/** The attempt's row, or undefined when no try of it got as far as recording it. */
export async function getDialAttempt(
  db: Kysely<Database>,
  attemptKey: string,
): Promise<CallbackDialRow | undefined> {
  return db.selectFrom('callback_dials').selectAll().where('attempt_key', '=', attemptKey).executeTakeFirst();
}

/**
 * Records an attempt about to dial, with the newest calls to the number that exist already and the
 * newest start among them (platform time; null when there are none). A row already there is kept.
 */
export async function beginDialAttempt(
  db: Kysely<Database>,
  attempt: {
    attemptKey: string;
    account: string;
    number: string;
    knownCallIds: number[];
    callsSince: Date | null;
  },
): Promise<void> {
  await db
    .insertInto('callback_dials')
    .values({
      attempt_key: attempt.attemptKey,
      account: attempt.account,
      number: attempt.number,
      known_call_ids: attempt.knownCallIds,
      calls_since: attempt.callsSince,
    })
    .onConflict((oc) => oc.column('attempt_key').doNothing())
    .execute();
}

/** Marks the attempt's POST /calls as being sent now (written before the request goes out). */
export async function markDialSent(db: Kysely<Database>, attemptKey: string): Promise<void> {
  await db
    .updateTable('callback_dials')
    .set({ sent_at: new Date() })
    .where('attempt_key', '=', attemptKey)
    .execute();
}

/** Records the call an attempt placed. */
export async function recordDialedCall(
  db: Kysely<Database>,
  attemptKey: string,
  callId: number,
): Promise<void> {
  await db
    .updateTable('callback_dials')
    .set({ call_id: callId, placed_at: new Date() })
    .where('attempt_key', '=', attemptKey)
    .execute();
}
