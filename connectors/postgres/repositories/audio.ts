// Where each recording's and voice message's audio file is archived, so the archive outlives the
// platform's retention.
import { sql, type Kysely } from 'kysely';
import type { AudioStream } from '../stream-tables';
import type { Database } from '../tables';

export interface ArchivedAudio {
  /** Location in the object store (e.g. file:///…/recordings/acme/123.mp3). */
  uri: string;
  bytes: number;
  /** MD5 (hex) of the stored file, checked against what was downloaded. */
  md5?: string | undefined;
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
    .set({
      audio_uri: audio.uri,
      audio_bytes: audio.bytes,
      audio_md5: audio.md5 ?? null,
      audio_archived_at: sql<Date>`now()`,
      audio_lost_at: null,
      audio_lost_reason: null,
      audio_missing_since: null,
    })
    .where('account', '=', account)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Records that a row's audio is gone from the platform (404/410), with the reason, so the backlog
 * no longer offers it; the first reason and time are kept. False when the row does not exist.
 */
export async function markAudioLost(
  db: Kysely<Database>,
  stream: AudioStream,
  account: string,
  id: number,
  reason: string,
): Promise<boolean> {
  const result = await db
    .updateTable(stream as 'recordings')
    .set({
      audio_lost_at: sql<Date>`coalesce(audio_lost_at, now())`,
      audio_lost_reason: sql<string>`coalesce(audio_lost_reason, ${reason})`,
    })
    .where('account', '=', account)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** What markAudioMissing found: whether the row exists, and whether its audio now counts as lost. */
export type AudioMissing = 'waiting' | 'lost' | 'no-row';

/**
 * Records that the platform answered 404/410 for a row's audio. The first time is kept; once
 * `graceMs` has passed since it (PostgreSQL's clock, one for every worker), the audio is marked lost
 * with `reason` and the time of the first answer, as markAudioLost does. Before that the row stays
 * in the backlog, and later runs ask again: audio often appears minutes after hangup.
 */
export async function markAudioMissing(
  db: Kysely<Database>,
  stream: AudioStream,
  account: string,
  id: number,
  reason: string,
  graceMs: number,
): Promise<AudioMissing> {
  const since = sql<Date>`coalesce(audio_missing_since, now())`;
  const pastGrace = sql<boolean>`${since} <= now() - ${graceMs} * interval '1 millisecond'`;
  const row = await db
    .updateTable(stream as 'recordings')
    .set({
      audio_missing_since: since,
      audio_lost_at: sql<Date | null>`case when ${pastGrace} then coalesce(audio_lost_at, now()) else audio_lost_at end`,
      audio_lost_reason: sql<string | null>`case when ${pastGrace} then coalesce(audio_lost_reason, ${reason}
        || ' (first answered ' || to_char(${since} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')
        || ' UTC, past archive.missingAudioGrace)') else audio_lost_reason end`,
    })
    .where('account', '=', account)
    .where('id', '=', id)
    .returning(sql<boolean>`audio_lost_at is not null`.as('lost'))
    .executeTakeFirst();
  if (row === undefined) return 'no-row';
  return row.lost ? 'lost' : 'waiting';
}

/**
 * When a row's call was recorded, as timestamptz: recordings have created_at; a voice message's
 * origtime is text holding `YYYY-MM-DD HH:MM:SS` (UTC) or epoch seconds, and anything else is null
 * (never a cast error that would stop the archive).
 */
export function audioRecordedAt(stream: AudioStream) {
  if (stream === 'recordings') return sql<Date | null>`created_at`;
  return sql<Date | null>`case
    when origtime ~ '^\\d{9,11}$' then to_timestamp(origtime::bigint)
    when origtime ~ '^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}(:\\d{2})?)?$' then origtime::timestamp at time zone 'UTC'
  end`;
}

/**
 * Ids of rows whose audio is not archived yet, ascending, after `afterId` (keyset pagination);
 * with `since`, only rows recorded at or after it (older audio is left on the platform).
 */
export async function listAudioBacklog(
  db: Kysely<Database>,
  stream: AudioStream,
  account: string,
  opts: { limit?: number; afterId?: number; since?: Date } = {},
): Promise<number[]> {
  let query = db
    .selectFrom(stream as 'recordings')
    .select('id')
    .where('account', '=', account)
    .where('audio_archived_at', 'is', null)
    .where('audio_lost_at', 'is', null);
  if (opts.afterId !== undefined) query = query.where('id', '>', opts.afterId);
  if (opts.since) query = query.where(audioRecordedAt(stream), '>=', opts.since);
  const rows = await query
    .orderBy('id')
    .limit(opts.limit ?? 100)
    .execute();
  return rows.map((r) => r.id);
}

/** When each of the given rows was recorded (null when unknown), to name their archived files by date. */
export async function audioRecordedDates(
  db: Kysely<Database>,
  stream: AudioStream,
  account: string,
  ids: readonly number[],
): Promise<Map<number, Date | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom(stream as 'recordings')
    .select(['id', audioRecordedAt(stream).as('recorded_at')])
    .where('account', '=', account)
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [Number(r.id), r.recorded_at]));
}

/** How far the audio archive of one account's stream has come. */
export interface AudioArchiveProgress {
  /** Rows whose audio is archived (whatever their age). */
  archived: number;
  /** Rows in the archive's window (`since`) still waiting for their audio. */
  pending: number;
  /** Rows whose audio the platform no longer has (recorded as lost, never asked for again). */
  lost: number;
  /** Bytes archived. */
  bytes: number;
}

/** Archived and pending audio of an account's stream; `since` as given to listAudioBacklog. */
export async function audioArchiveProgress(
  db: Kysely<Database>,
  stream: AudioStream,
  account: string,
  since?: Date,
): Promise<AudioArchiveProgress> {
  const inWindow = since ? sql<boolean>`${audioRecordedAt(stream)} >= ${since}` : sql<boolean>`true`;
  const row = await db
    .selectFrom(stream as 'recordings')
    .select([
      sql<number>`count(*) filter (where audio_archived_at is not null)::int`.as('archived'),
      sql<number>`count(*) filter (where audio_archived_at is null and audio_lost_at is null and ${inWindow})::int`.as(
        'pending',
      ),
      sql<number>`count(*) filter (where audio_lost_at is not null)::int`.as('lost'),
      sql<number>`coalesce(sum(audio_bytes), 0)::float8`.as('bytes'),
    ])
    .where('account', '=', account)
    .executeTakeFirstOrThrow();
  return { archived: row.archived, pending: row.pending, lost: row.lost, bytes: row.bytes };
}

/** Where a row's audio was archived (its object URI), or null when it is not archived. */
export async function archivedAudioUri(
  db: Kysely<Database>,
  stream: AudioStream,
  account: string,
  id: number,
): Promise<{ uri: string; bytes: number } | null> {
  const row = await db
    .selectFrom(stream as 'recordings')
    .select(['audio_uri', 'audio_bytes'])
    .where('account', '=', account)
    .where('id', '=', id)
    .where('audio_archived_at', 'is not', null)
    .executeTakeFirst();
  return row?.audio_uri ? { uri: row.audio_uri, bytes: Number(row.audio_bytes ?? 0) } : null;
}
