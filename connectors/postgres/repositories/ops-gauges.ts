// What the server's /metrics reads from PostgreSQL at each scrape for the alert rules
// (monitoring/alerts.yml): the audio archive's backlog, open quarantined records and when each
// stream last synced. Each is one grouped query over an index, so a scrape costs milliseconds.
import { sql, type Kysely } from 'kysely';
import type { AudioStream } from '../stream-tables';
import type { Database } from '../tables';
import { audioRecordedAt } from './audio';

const AUDIO_STREAMS: readonly AudioStream[] = ['recordings', 'voicemessages'];

/** Audio not archived yet and not given up on, per stream; `since` leaves out what archive.maxAge never archives. */
export async function archiveBacklogCounts(
  db: Kysely<Database>,
  since?: Date,
): Promise<Array<{ stream: AudioStream; n: number }>> {
  return Promise.all(
    AUDIO_STREAMS.map(async (stream) => {
      let query = db
        .selectFrom(stream as 'recordings')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('audio_archived_at', 'is', null)
        .where('audio_lost_at', 'is', null);
      if (since) query = query.where(audioRecordedAt(stream), '>=', since);
      const row = await query.executeTakeFirst();
      return { stream, n: row?.n ?? 0 };
    }),
  );
}

/** Open quarantined records per (account, stream), every account. */
export function openQuarantineByStream(db: Kysely<Database>) {
  return db
    .selectFrom('quarantined_records')
    .select(['account', 'stream', sql<number>`count(*)::int`.as('n')])
    .where('resolved_at', 'is', null)
    .groupBy(['account', 'stream'])
    .execute();
}

/** The end of each (account, stream)'s last successful incremental run. */
export function lastSuccessfulRuns(db: Kysely<Database>) {
  return db
    .selectFrom('sync_runs')
    .select(['account', 'stream', sql<Date>`max(finished_at)`.as('finished')])
    .where('status', '=', 'succeeded')
    .where('kind', '=', 'incremental')
    .groupBy(['account', 'stream'])
    .execute();
}
