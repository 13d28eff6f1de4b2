// Archives recording and voicemail audio into the object store, so it outlives platform retention.
import { Context } from '@temporalio/activity';
import { audioObjectKey, type StoredObject } from '../connectors/object-store';
import { PlatformError } from '../connectors/platform';
import {
  audioRecordedDates,
  listAudioBacklog,
  markAudioArchived,
  markAudioMissing,
  type AudioStream,
} from '../connectors/postgres';
import type { ActivityDeps } from './deps';

export interface ArchiveAudioInput {
  account: string;
  stream: AudioStream;
  /** Continue after this id (keyset pagination across calls). */
  afterId?: number;
  /** Files per call. */
  limit?: number;
}

export interface ArchiveAudioResult {
  archived: number;
  /** Files the platform still answered 404/410 for past archive.missingAudioGrace: recorded as lost
   *  with the reason, and not asked for again. */
  missing: number;
  /** Files the platform answered 404/410 for within the grace: asked for again on later runs. */
  notYet: number;
  /** Last id handled, for the next call; undefined when the backlog is empty. */
  lastId: number | undefined;
}

const DOWNLOADS_AT_ONCE = 6;

/** The platform's answer that it has no audio for the file (404/410) as a reason, or undefined. */
export function audioGoneReason(err: unknown): string | undefined {
  if (!(err instanceof PlatformError) || (err.status !== 404 && err.status !== 410)) return undefined;
  return `the platform answered ${err.status} for the .mp3: ${err.message}`;
}

/** The oldest recording time whose audio is archived, when archive.maxAge limits it. */
export function archiveWindow(maxAgeMs: number | undefined, now = Date.now()): { since?: Date } {
  return maxAgeMs === undefined ? {} : { since: new Date(now - maxAgeMs) };
}

export function createAudioActivities(deps: ActivityDeps) {
  return {
    /** Downloads the audio of up to `limit` rows not archived yet, checks its size, and records where it is. */
    async archiveAudio(input: ArchiveAudioInput): Promise<ArchiveAudioResult> {
      const ctx = Context.current();
      const ids = await listAudioBacklog(deps.warehouse.db, input.stream, input.account, {
        limit: input.limit ?? 60,
        ...(input.afterId !== undefined ? { afterId: input.afterId } : {}),
        ...archiveWindow(deps.config.archive.maxAge),
      });
      const client = deps.platform(input.account);
      const recorded = await audioRecordedDates(deps.warehouse.db, input.stream, input.account, ids);
      let archived = 0;
      let missing = 0;
      let notYet = 0;
      const archiveOne = async (id: number): Promise<void> => {
        // Its own abort, so a download found already archived is cut off at the connection.
        const skip = new AbortController();
        const signal = AbortSignal.any([ctx.cancellationSignal, skip.signal]);
        try {
          const file =
            input.stream === 'recordings'
              ? await client.history.monitors.mp3(id, { signal })
              : await client.history.voicemessages.mp3(id, { signal });
          const key = audioObjectKey(input.stream, input.account, id, recorded.get(id));
          // A retry after the upload but before the row was marked finds the object already there
          // (same size as the download announces) and does not upload it again.
          const existing = file.contentLength !== undefined ? await deps.archive.exists(key) : null;
          let stored: StoredObject;
          if (existing?.uri !== undefined && existing.bytes === file.contentLength) {
            skip.abort();
            file.body.destroy();
            stored = {
              uri: existing.uri,
              bytes: existing.bytes,
              ...(existing.md5 ? { md5: existing.md5 } : {}),
            };
          } else {
            stored = await deps.archive.put(key, file.body, file.contentLength);
          }
          await markAudioArchived(deps.warehouse.db, input.stream, input.account, id, stored);
          archived += 1;
        } catch (err) {
          const gone = audioGoneReason(err);
          if (gone === undefined) throw err;
          // Audio often is not there yet right after hangup: later runs ask again, until the grace
          // since the first 404 has passed; then it is recorded as lost and no longer asked for.
          const state = await markAudioMissing(
            deps.warehouse.db,
            input.stream,
            input.account,
            id,
            gone,
            deps.config.archive.missingAudioGrace,
          );
          if (state === 'lost') missing += 1;
          else notYet += 1;
        }
      };
      // A few downloads at once: each waits mostly on the network, and the client's rate limit holds.
      for (let i = 0; i < ids.length; i += DOWNLOADS_AT_ONCE) {
        ctx.heartbeat({ id: ids[i] });
        await Promise.all(ids.slice(i, i + DOWNLOADS_AT_ONCE).map(archiveOne));
      }
      return { archived, missing, notYet, lastId: ids.at(-1) };
    },
  };
}

export type AudioActivities = ReturnType<typeof createAudioActivities>;
