// Sync cursors: where a read of a stream stands, stored as the checkpoint in the page's own commit.
import type { SyncCursor } from '../contracts';
import type { StreamDefinition } from './streams';
import { laterOf, minusMs } from './time';

/** Checkpoint text of a cursor. */
export function encodeCursor(cursor: SyncCursor): string {
  return JSON.stringify(cursor);
}

/** The cursor stored in a checkpoint; throws naming the problem when the text is not one. */
export function decodeCursor(text: string): SyncCursor {
  const value = JSON.parse(text) as Partial<SyncCursor>;
  if (typeof value.page !== 'number' || value.page < 1)
    throw new Error('checkpoint cursor: page must be >= 1');
  return {
    since: value.since ?? null,
    until: value.until ?? null,
    page: value.page,
    max: value.max ?? null,
    ...(value.done ? { done: true } : {}),
  };
}

export interface OverlapSettings {
  /** Re-read window of changing streams. */
  lookbackMs: number;
  /** Re-read window of immutable streams: records that appear late with an earlier cursor value
   *  (a CDR's calldate is the call's start, but it is written at hangup). */
  lateArrivalMs: number;
}

/**
 * Where the next incremental run starts. A run that stopped part-way goes on from its next page;
 * a finished one starts again a little before the largest cursor value it committed.
 */
export function nextRunCursor(
  previous: SyncCursor | null,
  def: Pick<StreamDefinition, 'mode' | 'changes'>,
  overlap: OverlapSettings,
): SyncCursor {
  if (previous && !previous.done && previous.page > 1) return previous;
  if (def.mode === 'full' || !previous?.max)
    return { since: null, until: null, page: 1, max: previous?.max ?? null };
  const back = def.changes ? overlap.lookbackMs : overlap.lateArrivalMs;
  return { since: minusMs(previous.max, back), until: null, page: 1, max: previous.max };
}

/** The cursor after a committed page. */
export function advanceCursor(
  cursor: SyncCursor,
  pageMax: string | null,
  nextPage: number | undefined,
): SyncCursor {
  const max = laterOf(cursor.max, pageMax);
  if (nextPage === undefined) return { since: cursor.since, until: cursor.until, page: 1, max, done: true };
  return { since: cursor.since, until: cursor.until, page: nextPage, max };
}

/** Largest cursor-field value among records (platform times compare as strings). */
export function maxCursorValue(records: readonly Record<string, unknown>[], field: string): string | null {
  let max: string | null = null;
  for (const r of records) {
    const v = r[field];
    const s = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
    if (s !== null && (max === null || s > max)) max = s;
  }
  return max;
}
