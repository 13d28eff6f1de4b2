// Auto-dial attempts: recorded before POST /calls, completed with the placed call's id. A retried
// attempt reads its row to find the call an earlier try may have placed (its response lost).
import type { Kysely } from 'kysely';
import type { CallbackDialRow, Database } from '../tables';

/** The attempt's row, or undefined when no try of it got as far as recording it. */
export async function getDialAttempt(
  db: Kysely<Database>,
  attemptKey: string,
): Promise<CallbackDialRow | undefined> {
  return db.selectFrom('callback_dials').selectAll().where('attempt_key', '=', attemptKey).executeTakeFirst();
}

/** Records an attempt about to dial, with the calls to the number that exist already (kept if there). */
export async function beginDialAttempt(
  db: Kysely<Database>,
  attempt: { attemptKey: string; account: string; number: string; knownCallIds: number[] },
): Promise<void> {
  await db
    .insertInto('callback_dials')
    .values({
      attempt_key: attempt.attemptKey,
      account: attempt.account,
      number: attempt.number,
      known_call_ids: attempt.knownCallIds,
    })
    .onConflict((oc) => oc.column('attempt_key').doNothing())
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
