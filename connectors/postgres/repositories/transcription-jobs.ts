// One transcription job per recording: recorded (with the audio minutes reserved against the month's
// cap) before Speech-to-Text is asked, then given the operation's name, so a retried activity polls
// that operation instead of paying for a second one; and recordings still without a transcript.
import { sql, type Kysely } from 'kysely';
import type { Database, TranscriptionJobRow } from '../tables';

/** `YYYY-MM` (UTC) of a time: the month audio minutes count towards. */
export function usageMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** The recording's job, if one was recorded. */
export async function getTranscriptionJob(
  db: Kysely<Database>,
  account: string,
  recordingId: number,
): Promise<TranscriptionJobRow | undefined> {
  return db
    .selectFrom('transcription_jobs')
    .selectAll()
    .where('account', '=', account)
    .where('recording_id', '=', String(recordingId))
    .executeTakeFirst();
}

/** Seconds of audio counted against `month` for an account. */
export async function monthAudioSeconds(
  db: Kysely<Database>,
  account: string,
  month: string,
): Promise<number> {
  const row = await db
    .selectFrom('transcription_jobs')
    .select(sql<string>`coalesce(sum(audio_seconds), 0)`.as('seconds'))
    .where('account', '=', account)
    .where('month', '=', month)
    .executeTakeFirstOrThrow();
  return Number(row.seconds);
}

/** What a reservation decided. */
export type Reservation = { reserved: true } | { reserved: false; usedSeconds: number };

/**
 * Records a running job for the recording, reserving its audio against the month's cap, under a
 * lock per account and month so concurrent reservations cannot overrun it together. A job that
 * exists already is kept (reserved: true, for the caller to resume it).
 */
export async function reserveTranscription(
  db: Kysely<Database>,
  job: { account: string; recordingId: number; audioSeconds: number; month: string; capSeconds: number },
): Promise<Reservation> {
  return db.transaction().execute(async (trx) => {
    const lockName = `transcription:${job.account}:${job.month}`;
    await sql`select pg_advisory_xact_lock(hashtextextended(${lockName}, 0))`.execute(trx);
    if (await getTranscriptionJob(trx, job.account, job.recordingId)) return { reserved: true };
    // Whole seconds, as Google bills them (rounded up).
    const seconds = Math.ceil(job.audioSeconds);
    const used = await monthAudioSeconds(trx, job.account, job.month);
    if (used + seconds > job.capSeconds) return { reserved: false, usedSeconds: used };
    await trx
      .insertInto('transcription_jobs')
      .values({
        account: job.account,
        recording_id: job.recordingId,
        status: 'running',
        audio_seconds: seconds,
        month: job.month,
      })
      .execute();
    return { reserved: true };
  });
}

/** Records a job that will not run (kept, so the recording is not fetched again on every sweep). */
export async function skipTranscription(
  db: Kysely<Database>,
  job: { account: string; recordingId: number; month: string; reason: string },
): Promise<void> {
  await db
    .insertInto('transcription_jobs')
    .values({
      account: job.account,
      recording_id: job.recordingId,
      status: 'skipped',
      audio_seconds: 0,
      month: job.month,
      reason: job.reason,
      finished_at: new Date(),
    })
    .onConflict((oc) => oc.columns(['account', 'recording_id']).doNothing())
    .execute();
}

/** Records the started operation's name on the job. */
export async function setTranscriptionOperation(
  db: Kysely<Database>,
  account: string,
  recordingId: number,
  operationName: string,
): Promise<void> {
  await db
    .updateTable('transcription_jobs')
    .set({ operation_name: operationName })
    .where('account', '=', account)
    .where('recording_id', '=', String(recordingId))
    .execute();
}

/** Ends a job: done, or failed with Google's reason. */
export async function finishTranscription(
  db: Kysely<Database>,
  account: string,
  recordingId: number,
  outcome: { status: 'done' | 'failed'; reason?: string },
): Promise<void> {
  await db
    .updateTable('transcription_jobs')
    .set({ status: outcome.status, reason: outcome.reason ?? null, finished_at: new Date() })
    .where('account', '=', account)
    .where('recording_id', '=', String(recordingId))
    .execute();
}

/**
 * Recordings of the account without a transcript, made at or after `since`, that have no job yet
 * (or a running one to resume), oldest first.
 */
export async function listUntranscribedRecordings(
  db: Kysely<Database>,
  account: string,
  opts: { since: Date; limit: number },
): Promise<number[]> {
  const rows = await db
    .selectFrom('recordings as r')
    .leftJoin('transcription_jobs as j', (join) =>
      join.onRef('j.account', '=', 'r.account').onRef('j.recording_id', '=', 'r.id'),
    )
    .select('r.id')
    .where('r.account', '=', account)
    .where((eb) => eb.or([eb('r.transcript', 'is', null), eb('r.transcript', '=', '')]))
    .where('r.created_at', '>=', opts.since)
    .where((eb) => eb.or([eb('j.status', 'is', null), eb('j.status', '=', 'running')]))
    .orderBy('r.id')
    .limit(opts.limit)
    .execute();
  return rows.map((r) => Number(r.id));
}

/** The month's transcription usage of an account: audio seconds counted and jobs by status. */
export async function transcriptionUsage(
  db: Kysely<Database>,
  account: string,
  month: string,
): Promise<{ seconds: number; byStatus: Record<string, number> }> {
  const rows = await db
    .selectFrom('transcription_jobs')
    .select([
      'status',
      sql<string>`count(*)`.as('jobs'),
      sql<string>`coalesce(sum(audio_seconds), 0)`.as('seconds'),
    ])
    .where('account', '=', account)
    .where('month', '=', month)
    .groupBy('status')
    .execute();
  return {
    seconds: rows.reduce((n, r) => n + Number(r.seconds), 0),
    byStatus: Object.fromEntries(rows.map((r) => [r.status, Number(r.jobs)])),
  };
}
