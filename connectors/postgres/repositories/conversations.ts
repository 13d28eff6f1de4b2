// Messages the streams brought that are not on the CRM contact yet: SMS without a mapping, and voice
// messages without one or changed since it was written (transcript or archived audio arrived).
import { sql, type Kysely } from 'kysely';
import type { Database, SmsRow, VoicemessageRow } from '../tables';

export interface UnloggedQuery {
  account: string;
  /** The CRM destination's identity (crm_objects.destination: destinationIdOf, portal or org). */
  destination: string;
  since: Date;
  limit: number;
}

/**
 * SMS of the account written to the warehouse since `since` (by the stream or the webhook path; the
 * platform's clock may differ from ours) with no crm_objects row, newest first.
 */
export async function unloggedSms(db: Kysely<Database>, q: UnloggedQuery): Promise<SmsRow[]> {
  return (
    db
      .selectFrom('sms as s')
      .selectAll('s')
      .where('s.account', '=', q.account)
      .where('s.synced_at', '>=', q.since)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('crm_objects as o')
              .select(sql`1`.as('one'))
              .where('o.destination', '=', q.destination)
              .where('o.kind', '=', 'sms')
              .whereRef('o.source_key', '=', sql<string>`s.account || ':sms:' || s.id`),
          ),
        ),
      )
      // Newest first: a pass that cannot log everything (messages of callers no contact holds come
      // back each pass) still logs the new ones.
      .orderBy('s.synced_at', 'desc')
      .orderBy('s.id', 'desc')
      .limit(q.limit)
      .execute()
  );
}

/**
 * Voice messages of the account since `since` (by when they were synced) that have no crm_objects
 * row, or whose row is older than their last change or audio archiving.
 */
export async function unloggedVoicemessages(
  db: Kysely<Database>,
  q: UnloggedQuery,
): Promise<VoicemessageRow[]> {
  return db
    .selectFrom('voicemessages as v')
    .leftJoin('crm_objects as o', (join) =>
      join
        .on('o.destination', '=', q.destination)
        .on('o.kind', '=', 'voicemail')
        .on('o.source_key', '=', sql<string>`v.account || ':voicemail:' || v.id`),
    )
    .selectAll('v')
    .where('v.account', '=', q.account)
    .where('v.synced_at', '>=', q.since)
    .where((eb) =>
      eb.or([
        eb('o.crm_id', 'is', null),
        eb('o.updated_at', '<', sql<Date>`greatest(v.synced_at, coalesce(v.audio_archived_at, v.synced_at))`),
      ]),
    )
    .orderBy('v.synced_at', 'desc')
    .orderBy('v.id', 'desc')
    .limit(q.limit)
    .execute();
}
