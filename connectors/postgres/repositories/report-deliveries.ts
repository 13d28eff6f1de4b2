// Deliveries of finished reports: recorded before each send ('sending', with the id the send will
// carry) and after it ('sent', with what the destination answered), so a retry knows what happened.
import { sql, type Kysely } from 'kysely';
import type { Database, DeliveryChannel, ReportDeliveryRow } from '../tables';

/** The delivery of one run to one target. */
export interface DeliveryTarget {
  runId: string;
  channel: DeliveryChannel;
  target: string;
  /** Deterministic key (see activities' deliveryKey): the same run, channel and target give the same key. */
  deliveryKey: string;
}

/** The delivery's row, created 'pending' when no earlier attempt recorded it. */
export async function claimDelivery(db: Kysely<Database>, d: DeliveryTarget): Promise<ReportDeliveryRow> {
  await db
    .insertInto('report_deliveries')
    .values({ run_id: d.runId, channel: d.channel, target: d.target, delivery_key: d.deliveryKey })
    .onConflict((oc) => oc.columns(['run_id', 'channel', 'target']).doNothing())
    .execute();
  return db
    .selectFrom('report_deliveries')
    .selectAll()
    .where('run_id', '=', d.runId)
    .where('channel', '=', d.channel)
    .where('target', '=', d.target)
    .executeTakeFirstOrThrow();
}

/** Records that a send is about to happen, with the id it carries; committed before the send. */
export async function markDeliverySending(
  db: Kysely<Database>,
  id: string,
  externalId: string | null,
): Promise<void> {
  await db
    .updateTable('report_deliveries')
    .set({
      state: 'sending',
      external_id: externalId,
      attempts: sql<number>`attempts + 1`,
      error: null,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('state', '<>', 'sent')
    .execute();
}

/** Records a confirmed delivery. */
export async function markDeliverySent(
  db: Kysely<Database>,
  id: string,
  result: { externalId: string; externalUrl?: string | null; detail?: unknown },
): Promise<void> {
  const now = new Date();
  await db
    .updateTable('report_deliveries')
    .set({
      state: 'sent',
      external_id: result.externalId,
      external_url: result.externalUrl ?? null,
      detail: result.detail === undefined ? null : JSON.stringify(result.detail),
      error: null,
      updated_at: now,
      sent_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/** Records a delivery that failed for good (a retry cannot fix it), with the reason. */
export async function markDeliveryFailed(db: Kysely<Database>, id: string, error: string): Promise<void> {
  await db
    .updateTable('report_deliveries')
    .set({ state: 'failed', error, updated_at: new Date() })
    .where('id', '=', id)
    .where('state', '<>', 'sent')
    .execute();
}

/** Every delivery of a run, oldest first (for `reports show` and status). */
export async function listRunDeliveries(
  db: Kysely<Database>,
  runId: string | number,
): Promise<ReportDeliveryRow[]> {
  return db
    .selectFrom('report_deliveries')
    .selectAll()
    .where('run_id', '=', String(runId))
    .orderBy('id')
    .execute();
}
