// Sync cursors: where a read of a stream stands, stored as the checkpoint in the page's own commit.
import type { SyncCursor } from '../contracts';
import type { StreamDefinition } from './streams';
import { minusMs, platformTimeOrUndefined } from './time';

/** Checkpoint text of a cursor. */
export function encodeCursor(cursor: SyncCursor): string {
  return JSON.stringify(cursor);
}

/** The cursor stored in a checkpoint; throws naming the field when the text is not one. */
export function decodeCursor(text: string): SyncCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`checkpoint cursor: not JSON (${text.slice(0, 40)})`, { cause: err });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('checkpoint cursor: must be an object');
  const value = parsed as Record<keyof SyncCursor, unknown>;
  if (typeof value.page !== 'number' || !Number.isInteger(value.page) || value.page < 1)
    throw new Error('checkpoint cursor: page must be an integer >= 1');
  const optionalText = (field: 'since' | 'until' | 'max'): string | null => {
    const v = value[field];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') throw new Error(`checkpoint cursor: ${field} must be a string or null`);
    return v;
  };
  return {
    since: optionalText('since'),
    until: optionalText('until'),
    page: value.page,
    max: optionalText('max'),
    ...(value.done === true ? { done: true } : {}),
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
  const max =
    cursor.max === null || (pageMax !== null && compareCursorValues(pageMax, cursor.max) > 0)
      ? pageMax
      : cursor.max;
  if (nextPage === undefined) return { since: cursor.since, until: cursor.until, page: 1, max, done: true };
  return { since: cursor.since, until: cursor.until, page: nextPage, max };
}

/** Largest cursor-field value among records (as text, the way checkpoints keep it). */
export function maxCursorValue(records: readonly Record<string, unknown>[], field: string): string | null {
  let max: string | null = null;
  for (const r of records) {
    const v = r[field];
    const s = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
    if (s !== null && (max === null || compareCursorValues(s, max) > 0)) max = s;
  }
  return max;
}

// The spec's form: fixed width and UTC, so its text sorts as its time does (the common case, kept fast).
const SPEC_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * Orders two cursor values: numbers (ids) by value, times as instants (`2026-11-01T10:00:00+01:00`
 * is before `2026-11-01 09:30:00`), anything else as text.
 */
export function compareCursorValues(a: string, b: string): number {
  if (!(SPEC_TIME.test(a) && SPEC_TIME.test(b))) {
    if (NUMBER.test(a) && NUMBER.test(b)) return Number(a) - Number(b);
    const ta = platformTimeOrUndefined(a);
    const tb = platformTimeOrUndefined(b);
    if (ta !== undefined && tb !== undefined) return ta - tb;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
