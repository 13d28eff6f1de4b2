// Where each recording's and voice message's audio file is archived, so the archive outlives the
// platform's retention.
import { sql, type Kysely } from 'kysely';
import type { AudioStream } from '../stream-tables';
import type { Database } from '../tables';

export interface ArchivedAudio {
  /** Location in the object store (e.g. file:///…/recordings/acme/123.mp3). */
  uri: string;
  bytes: number;
}

/** Records where a row's audio was archived; false when the row does not exist (yet). */
export async function markAudioArchived(
  db: Kysely<Database>,
  stream: AudioStream,
  account: string,
  id: number,
  audio: ArchivedAudio,
): Promise<boolean> {
  // recordings and voicemessages have the same audio columns; one table type serves both.
  const result = await db
    .updateTable(stream as 'recordings')
    .set({ audio_uri: audio.uri, audio_bytes: audio.bytes, audio_archived_at: sql<Date>`now()` })
    .where('account', '=', account)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Ids of rows whose audio is not archived yet, ascending, after `afterId` (keyset pagination). */
export async function listAudioBacklog(
  db: Kysely<Database>,
  stream: AudioStream,
  account: string,
  opts: { limit?: number; afterId?: number } = {},
): Promise<number[]> {
  let query = db
    .selectFrom(stream as 'recordings')
    .select('id')
    .where('account', '=', account)
    .where('audio_archived_at', 'is', null);
  if (opts.afterId !== undefined) query = query.where('id', '>', opts.afterId);
  const rows = await query
    .orderBy('id')
    .limit(opts.limit ?? 100)
    .execute();
  return rows.map((r) => r.id);
}
