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
  const optionalId = (field: 'afterId' | 'maxId' | 'watchedAfterId'): number | undefined => {
    const v = value[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
      throw new Error(`checkpoint cursor: ${field} must be an integer >= 0`);
    return v;
  };
  const afterId = optionalId('afterId');
  const maxId = optionalId('maxId');
  const watchedAfterId = optionalId('watchedAfterId');
  const ended = decodeEnded(value.ended);
  return {
    since: optionalText('since'),
    until: optionalText('until'),
    // A checkpoint from before keyset reads stood at a page number of an order nobody promised: its
    // read starts again from its beginning (the pages already written are written again, unchanged).
    page: afterId === undefined ? 1 : value.page,
    max: optionalText('max'),
    afterId: afterId ?? 0,
    ...(maxId !== undefined ? { maxId } : {}),
    ...(ended !== undefined ? { ended } : {}),
    ...(watchedAfterId !== undefined ? { watchedAfterId } : {}),
    ...(value.done === true ? { done: true } : {}),
  };
}

function decodeEnded(v: unknown): [number, number][] | undefined {
  if (v === undefined || v === null) return undefined;
  const pair = (e: unknown): e is [number, number] =>
    Array.isArray(e) && e.length === 2 && e.every((n) => typeof n === 'number' && Number.isSafeInteger(n));
  if (!Array.isArray(v) || !v.every(pair))
    throw new Error('checkpoint cursor: ended must be a list of [time ms, id] pairs');
  return v;
}

export interface OverlapSettings {
  /** Re-read window of changing streams, on the cursor field. */
  lookbackMs: number;
  /** Immutable streams read again what was written (by id) over this long before a run starts, so
   *  a record committed out of id order is still read. */
  lateArrivalMs: number;
}

/** Most run ends an immutable stream's cursor keeps (runs every minute over 2 h of late arrival: 120). */
export const MAX_ENDED = 200;

/** A read of the whole collection (within the stream's bounds), from its first id. */
function fromStart(previous: SyncCursor | null): SyncCursor {
  return { since: null, until: null, page: 1, max: previous?.max ?? null, afterId: 0 };
}

/**
 * Where the next incremental run starts. A run that stopped part-way goes on where it stopped.
 * Otherwise: full streams read everything; changing streams read their cursor field from a lookback
 * before the largest value committed; immutable streams read by id what was written since the runs
 * before, whatever their cursor field says (a CDR is dated at the call's start but written at its
 * end: a 6-hour call's CDR has the newest id and a calldate 6 hours back).
 */
export function nextRunCursor(
  previous: SyncCursor | null,
  def: Pick<StreamDefinition, 'mode' | 'changes'>,
  overlap: OverlapSettings,
  now: number,
): SyncCursor {
  if (previous && !previous.done) return previous;
  if (def.mode === 'full') return fromStart(previous);
  if (def.changes) {
    if (!previous?.max) return fromStart(previous);
    return { ...fromStart(previous), since: minusMs(previous.max, overlap.lookbackMs) };
  }
  const maxId = previous?.maxId ?? 0;
  if (previous?.ended === undefined) {
    // A new stream reads everything; a checkpoint from before id reads once more by its cursor
    // field, as it did, and from then on by id (the read counts the ids it commits).
    const first: SyncCursor = { ...fromStart(previous), maxId, ended: [] };
    if (!previous?.max) return first;
    return { ...first, since: minusMs(previous.max, overlap.lateArrivalMs) };
  }
  const ended = keptEnds(previous.ended, now - overlap.lateArrivalMs);
  return { ...fromStart(previous), afterId: ended[0]?.[1] ?? 0, maxId, ended };
}

/**
 * The run ends a new run needs: from the newest that ended at or before `before` (its id is where
 * the run starts) on; all of them when none is that old (the oldest one known is where it starts).
 */
function keptEnds(ended: readonly [number, number][], before: number): [number, number][] {
  let from = 0;
  for (let i = 0; i < ended.length; i++) if ((ended[i] as [number, number])[0] <= before) from = i;
  const kept = ended.slice(from);
  // Dropping a later end only keeps an earlier start for longer: more is read again, nothing less.
  while (kept.length > MAX_ENDED) kept.splice(1, 1);
  return kept;
}

/**
 * Whether a stream's read is of recent records (a run after the stream's first), not its whole
 * history: a lookback on the cursor field, or ids written since an earlier run.
 */
export function readsRecent(cursor: SyncCursor): boolean {
  return cursor.since !== null || (cursor.ended?.length ?? 0) > 0;
}

/** What a committed page tells the cursor. */
export interface PageProgress {
  /** Largest cursor-field value on the page (null when none). */
  pageMax: string | null;
  /** Largest id on the page (the read's position). */
  lastId: number;
  /** The read reached its end. */
  done: boolean;
}

/** The cursor after a committed page; `now` stamps the end of an immutable stream's run. */
export function advanceCursor(cursor: SyncCursor, page: PageProgress, now: number): SyncCursor {
  const { pageMax } = page;
  const max =
    cursor.max === null || (pageMax !== null && compareCursorValues(pageMax, cursor.max) > 0)
      ? pageMax
      : cursor.max;
  const maxId = Math.max(cursor.maxId ?? 0, page.lastId);
  const next: SyncCursor = {
    since: cursor.since,
    until: cursor.until,
    page: page.done ? 1 : cursor.page + 1,
    max,
    afterId: Math.max(cursor.afterId, page.lastId),
    maxId,
  };
  if (cursor.ended !== undefined) next.ended = page.done ? [...cursor.ended, [now, maxId]] : cursor.ended;
  if (cursor.watchedAfterId !== undefined) next.watchedAfterId = cursor.watchedAfterId;
  if (page.done) next.done = true;
  return next;
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
