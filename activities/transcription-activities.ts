// Transcripts for recordings that have none (config transcription.google): Speech-to-Text long-running
// recognition with speaker diarization, Natural Language sentiment, written back to the platform with
// PATCH /monitors/{id} so the warehouse sync and the call log pick it up like any transcript. Exactly
// once per recording: the job (and its operation's name) is recorded before and after the operation
// starts, so a retry polls the same operation; a monthly cap of audio minutes guards the cost.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { Readable } from 'node:stream';
import {
  AudioStaging,
  GoogleSpeech,
  INLINE_AUDIO_MAX_SECONDS,
  cxScore,
  mp3Info,
  parseGsUri,
  readArchivedHead,
  sentimentLabel,
  toTranscript,
  type GoogleTranscriptionConfig,
  type Mp3Info,
} from '../connectors/google-speech';
import {
  archivedAudioUri,
  finishTranscription,
  getTranscriptionJob,
  listUntranscribedRecordings,
  reserveTranscription,
  setTranscriptionOperation,
  skipTranscription,
  usageMonth,
} from '../connectors/postgres';
import { nudgeTranscribed } from './recording-nudge';
import type { ActivityDeps } from './deps';

/** Largest request Speech-to-Text takes with inline audio (10 MB). */
const INLINE_AUDIO_MAX_BYTES = 10 * 1024 * 1024;

/** gRPC codes (google-gax errors) that a retry cannot fix: bad argument, not found, denied, unauthenticated. */
const PERMANENT_CODES = new Set([3, 5, 7, 9, 16]);

/** How one recording's transcription ended. */
export type TranscribeOutcome =
  'transcribed' | 'already' | 'capped' | 'skipped' | 'failed' | 'not-configured';

export interface TranscribeInput {
  account: string;
  recordingId: number;
}

/**
 * Reads the body up to `limit` bytes. `complete` says whether that was all of it; `whole()` streams
 * the entire body (the bytes read, then the rest) for staging audio too big to hold.
 */
async function readHead(
  body: Readable,
  limit: number,
): Promise<{ head: Buffer; complete: boolean; whole: () => Readable }> {
  const chunks: Buffer[] = [];
  let size = 0;
  const it = body[Symbol.asyncIterator]() as AsyncIterator<Buffer | Uint8Array>;
  let complete = true;
  for (;;) {
    const next = await it.next();
    if (next.done) break;
    const b = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    chunks.push(b);
    size += b.length;
    if (size > limit) {
      complete = false;
      break;
    }
  }
  const head = Buffer.concat(chunks);
  async function* rest() {
    yield head;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head, complete, whole: () => Readable.from(rest()) };
}

function googleCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'number' ? code : undefined;
}

export function createTranscriptionActivities(deps: ActivityDeps) {
  let speech: GoogleSpeech | undefined;
  const config = (): GoogleTranscriptionConfig | undefined => deps.config.transcription.google;
  const client = (cfg: GoogleTranscriptionConfig) => (speech ??= new GoogleSpeech(cfg));
  let staging: AudioStaging | undefined;
  const stagingOf = (cfg: GoogleTranscriptionConfig) =>
    cfg.stagingBucket ? (staging ??= new AudioStaging({ ...cfg, stagingBucket: cfg.stagingBucket })) : null;
  /** Removes the recording's staged audio (never an archived object: those live under other names). */
  const unstage = async (cfg: GoogleTranscriptionConfig, input: TranscribeInput) =>
    stagingOf(cfg)?.delete(input.account, input.recordingId);

  /** Polls the operation until it is done (heartbeating), then scores, PATCHes and closes the job. */
  const complete = async (cfg: GoogleTranscriptionConfig, input: TranscribeInput, name: string) => {
    const outcome = await awaitOperation(cfg, input, name);
    // The operation has finished with the audio: a staged copy is no longer needed.
    await unstage(cfg, input);
    return outcome;
  };

  const awaitOperation = async (cfg: GoogleTranscriptionConfig, input: TranscribeInput, name: string) => {
    const ctx = Context.current();
    const db = deps.warehouse.db;
    let delay = 1000;
    for (;;) {
      const state = await client(cfg).poll(name);
      if (state.done && state.error) {
        await finishTranscription(db, input.account, input.recordingId, {
          status: 'failed',
          reason: state.error,
        });
        return 'failed' as const;
      }
      if (state.done) {
        const { transcript, segments } = toTranscript(state.results);
        if (transcript.trim() === '') {
          await finishTranscription(db, input.account, input.recordingId, {
            status: 'done',
            reason: 'no speech',
          });
          return 'transcribed' as const;
        }
        const language = cfg.languages[0]!;
        const { score } = await client(cfg).sentiment(transcript, language);
        const updated = await deps.platform(input.account).history.monitors.update(input.recordingId, {
          transcript,
          transcript_speakers: JSON.stringify(segments),
          sentiment: sentimentLabel(score),
          cx_score: cxScore(score),
          metadata: {
            source: 'callsync',
            model: `google-speech/${cfg.model}`,
            language,
            speakers: new Set(segments.map((s) => s.speaker)).size,
            words: transcript.split(/\s+/).length,
            sentiment_score: score,
            billed_seconds: state.billedSeconds,
          },
        });
        await finishTranscription(db, input.account, input.recordingId, { status: 'done' });
        // The call's CRM log gets the transcript now, not at its next scheduled check (which still
        // comes, should the note not get through).
        await nudgeTranscribed(deps.temporal, input.account, updated).catch((err: unknown) =>
          deps.logger.warn(
            { err, recordingId: input.recordingId },
            'could not tell the call of its transcript',
          ),
        );
        return 'transcribed' as const;
      }
      ctx.heartbeat({ operation: name });
      await ctx.sleep(delay);
      delay = Math.min(delay * 2, 15_000);
    }
  };

  /** Reserves the audio against the cap, starts recognition and waits for it (staged: remove after). */
  const begin = async (
    cfg: GoogleTranscriptionConfig,
    input: TranscribeInput,
    month: string,
    audio: Buffer | { uri: string },
    info: Mp3Info,
    staged: boolean,
  ): Promise<TranscribeOutcome> => {
    const db = deps.warehouse.db;
    const reservation = await reserveTranscription(db, {
      account: input.account,
      recordingId: input.recordingId,
      audioSeconds: info.seconds,
      month,
      capSeconds: cfg.monthlyCapMinutes * 60,
    });
    // Over the cap: no job is recorded, so the recording is picked up again next month.
    if (!reservation.reserved) {
      if (staged) await unstage(cfg, input);
      return 'capped';
    }
    let name: string;
    try {
      name = await client(cfg).start(audio, info);
    } catch (err) {
      const code = googleCode(err);
      if (code === undefined || !PERMANENT_CODES.has(code)) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      // Refused credentials fail the run (the job stays running, so a later sweep resumes it once
      // they are fixed); a request Google cannot take fails this recording alone.
      if (code === 7 || code === 16) {
        throw ApplicationFailure.nonRetryable(
          `Speech-to-Text refused the credentials: ${reason}`,
          'GoogleAuthError',
        );
      }
      await finishTranscription(db, input.account, input.recordingId, { status: 'failed', reason });
      if (staged) await unstage(cfg, input);
      return 'failed';
    }
    await setTranscriptionOperation(db, input.account, input.recordingId, name);
    return complete(cfg, input, name);
  };

  return {
    /** Recordings of the account without a transcript (within transcription.google.maxAge), ids only. */
    async untranscribedRecordings(input: { account: string; limit: number }): Promise<number[]> {
      const cfg = config();
      if (!cfg) return [];
      return listUntranscribedRecordings(deps.warehouse.db, input.account, {
        since: new Date(Date.now() - cfg.maxAge),
        limit: input.limit,
      });
    },

    /** Transcribes one recording once (resuming its operation on a retry), within the monthly cap. */
    async transcribeRecording(input: TranscribeInput): Promise<TranscribeOutcome> {
      const cfg = config();
      if (!cfg) return 'not-configured';
      const db = deps.warehouse.db;
      const job = await getTranscriptionJob(db, input.account, input.recordingId);
      if (job && job.status !== 'running') return 'already';
      if (job?.operation_name) return complete(cfg, input, job.operation_name);

      const month = usageMonth(new Date());
      const skip = async (reason: string) => {
        await skipTranscription(db, {
          account: input.account,
          recordingId: input.recordingId,
          month,
          reason,
        });
        return 'skipped' as const;
      };
      const platform = deps.platform(input.account);
      const monitor = await platform.history.monitors.get(input.recordingId);
      if (monitor.transcript) return skip('the platform has a transcript');
      // A long recording archived to Cloud Storage is recognised from there: only its first bytes
      // (the MP3 header) are read, nothing is downloaded from the platform or uploaded again.
      const archive = deps.config.archive.gcs;
      const archived = archive
        ? await archivedAudioUri(db, 'recordings', input.account, input.recordingId)
        : null;
      let inArchive = Boolean(archive && archived && parseGsUri(archived.uri));
      if (archive && archived && inArchive) {
        // A missing archived object is left alone: the audio comes from the platform (staged).
        const head = await readArchivedHead(archive, archived.uri, 64 * 1024).catch((err: unknown) => {
          if (googleCode(err) === 404) return null;
          throw err;
        });
        inArchive = head !== null;
        const info = head && mp3Info(head, archived.bytes || head.length);
        if (info && (info.seconds > INLINE_AUDIO_MAX_SECONDS || archived.bytes > INLINE_AUDIO_MAX_BYTES)) {
          return begin(cfg, input, month, { uri: archived.uri }, info, false);
        }
      }
      const file = await platform.history.monitors.mp3(input.recordingId, {
        signal: Context.current().cancellationSignal,
      });
      const { head, complete: whole, whole: body } = await readHead(file.body, INLINE_AUDIO_MAX_BYTES);
      const headInfo = mp3Info(head, whole ? head.length : (file.contentLength ?? head.length));
      if (!headInfo) {
        file.body.destroy();
        return skip(`not an MP3 Speech-to-Text can read (${file.contentType})`);
      }
      let info = headInfo;
      let audio: Buffer | { uri: string } = head;
      let staged = false;
      if (!whole || info.seconds > INLINE_AUDIO_MAX_SECONDS) {
        // Too long to send inline: Speech-to-Text reads it from Cloud Storage, the archive's copy
        // when the recording is archived there, else a staged one.
        const stage = stagingOf(cfg);
        if (archived && inArchive) {
          // Archived without a size on record: its object is read in place.
          file.body.destroy();
          audio = { uri: archived.uri };
        } else if (stage) {
          const put = await stage.put(input.account, input.recordingId, body());
          audio = { uri: put.uri };
          staged = true;
          info = mp3Info(head, put.bytes) ?? info;
        } else {
          file.body.destroy();
          const size = whole ? `audio of ${Math.round(info.seconds)} s` : 'audio over 10 MB';
          return skip(
            `${size}: Speech-to-Text takes at most 60 s inline; configure transcription.google.stagingBucket ` +
              '(or archive.gcs) so longer audio is read from Cloud Storage',
          );
        }
      }
      return begin(cfg, input, month, audio, info, staged);
    },
  };
}

export type TranscriptionActivities = ReturnType<typeof createTranscriptionActivities>;
