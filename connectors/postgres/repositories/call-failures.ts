// Call follow-ups that gave up, written by their workflows (through an activity) and read by status.
import type { Kysely } from 'kysely';
import type { CallFailureRow, Database, NewCallFailureRow } from '../tables';

/** Records a workflow run's failure; a retried write of the same run changes nothing. */
export async function recordCallFailure(db: Kysely<Database>, row: NewCallFailureRow): Promise<void> {
  await db
    .insertInto('call_failures')
    .values(row)
    .onConflict((oc) => oc.columns(['workflow_id', 'run_id']).doNothing())
    .execute();
}

/** The most recent failures, newest first. */
export async function recentCallFailures(db: Kysely<Database>, limit = 20): Promise<CallFailureRow[]> {
  return db
    .selectFrom('call_failures')
    .selectAll()
    .orderBy('failed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
