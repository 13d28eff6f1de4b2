import type { SyncCursor } from '../../contracts';
import {
  advanceCursor,
  compareCursorValues,
  decodeCursor,
  encodeCursor,
  maxCursorValue,
  nextRunCursor,
} from '../../sync/cursor';

const HOUR = 3_600_000;
const overlap = { lookbackMs: 24 * HOUR, lateArrivalMs: 2 * HOUR };
const cdrs = { mode: 'incremental', changes: false } as const;
const contacts = { mode: 'incremental', changes: true } as const;
const queues = { mode: 'full', changes: true } as const;

describe('nextRunCursor', () => {
  it('reads a new stream from the start', () => {
    expect(nextRunCursor(null, cdrs, overlap)).toEqual({ since: null, until: null, page: 1, max: null });
  });

  it('goes on from the next page of a run that stopped part-way', () => {
    const stopped: SyncCursor = {
      since: '2026-11-01 00:00:00',
      until: null,
      page: 7,
      max: '2026-11-01 09:00:00',
    };
    expect(nextRunCursor(stopped, cdrs, overlap)).toBe(stopped);
  });

  it('re-reads the late-arrival window of an immutable stream: a CDR is written at hangup, dated at its start', () => {
    const done: SyncCursor = { since: null, until: null, page: 1, max: '2026-11-01 09:00:00', done: true };
    expect(nextRunCursor(done, cdrs, overlap)).toEqual({
      since: '2026-11-01 07:00:00',
      until: null,
      page: 1,
      max: '2026-11-01 09:00:00',
    });
  });

  it('re-reads the lookback of a changing stream, across a month end', () => {
    const done: SyncCursor = { since: null, until: null, page: 1, max: '2026-03-01 06:00:00', done: true };
    expect(nextRunCursor(done, contacts, overlap).since).toBe('2026-02-28 06:00:00');
  });

  it('re-reads a stream that found nothing yet, and full streams, from the start', () => {
    const empty: SyncCursor = { since: null, until: null, page: 1, max: null, done: true };
    expect(nextRunCursor(empty, cdrs, overlap)).toEqual({ since: null, until: null, page: 1, max: null });
    const full: SyncCursor = { since: null, until: null, page: 1, max: '31', done: true };
    expect(nextRunCursor(full, queues, overlap)).toEqual({ since: null, until: null, page: 1, max: '31' });
  });

  it('starts a late-arrival window in UTC when the newest record came with an offset', () => {
    const done: SyncCursor = {
      since: null,
      until: null,
      page: 1,
      max: '2026-07-01T12:00:00+01:00',
      done: true,
    };
    expect(nextRunCursor(done, cdrs, overlap).since).toBe('2026-07-01 09:00:00');
  });
});

describe('advanceCursor', () => {
  const start: SyncCursor = {
    since: '2026-11-01 00:00:00',
    until: '2026-11-02 00:00:00',
    page: 1,
    max: null,
  };

  it('moves to the next page and keeps the largest value seen', () => {
    const one = advanceCursor(start, '2026-11-01 10:00:00', 2);
    expect(one).toEqual({ ...start, page: 2, max: '2026-11-01 10:00:00' });
    // A page of older records (late arrivals sort by id, not by time) does not move max back.
    expect(advanceCursor(one, '2026-11-01 08:00:00', 3).max).toBe('2026-11-01 10:00:00');
  });

  it('marks the read done on its last page, an empty one included', () => {
    const last = advanceCursor({ ...start, page: 4, max: '2026-11-01 10:00:00' }, null, undefined);
    expect(last).toEqual({ ...start, page: 1, max: '2026-11-01 10:00:00', done: true });
    expect(advanceCursor(start, null, undefined)).toEqual({ ...start, page: 1, max: null, done: true });
  });

  it('compares ids by value, not as text', () => {
    expect(advanceCursor({ ...start, max: '9' }, '10', 2).max).toBe('10');
  });
});

describe('maxCursorValue', () => {
  it('finds the newest time, skipping records without one', () => {
    const records = [
      { calldate: '2026-11-01 09:00:00' },
      { calldate: null },
      {},
      { calldate: '2026-11-01 10:00:00' },
      { calldate: '2026-10-31 23:00:00' },
    ];
    expect(maxCursorValue(records, 'calldate')).toBe('2026-11-01 10:00:00');
    expect(maxCursorValue([], 'calldate')).toBeNull();
    expect(maxCursorValue([{ calldate: null }], 'calldate')).toBeNull();
  });

  it('orders numeric ids by value', () => {
    expect(maxCursorValue([{ id: 9 }, { id: 10 }, { id: 2 }], 'id')).toBe('10');
  });

  it('orders times in mixed forms as instants', () => {
    const records = [{ t: '2026-11-01 09:30:00' }, { t: '2026-11-01T10:00:00+01:00' }, { t: '2026-11-01' }];
    expect(maxCursorValue(records, 't')).toBe('2026-11-01 09:30:00');
  });
});

describe('compareCursorValues', () => {
  it('orders spec times, numbers, mixed times and other text', () => {
    expect(compareCursorValues('2026-11-01 10:00:00', '2026-11-01 09:59:59')).toBeGreaterThan(0);
    expect(compareCursorValues('100', '99')).toBeGreaterThan(0);
    expect(compareCursorValues('2026-11-01T09:00:00Z', '2026-11-01 09:00:00')).toBe(0);
    expect(compareCursorValues('b', 'a')).toBeGreaterThan(0);
  });
});

describe('encodeCursor and decodeCursor', () => {
  it('round-trip a cursor', () => {
    const cursor: SyncCursor = {
      since: '2026-11-01 00:00:00',
      until: null,
      page: 3,
      max: '2026-11-01 10:00:00',
    };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor(encodeCursor({ ...cursor, done: true }))).toEqual({ ...cursor, done: true });
  });

  it('reads checkpoints written before a field existed', () => {
    expect(decodeCursor('{"page":2}')).toEqual({ since: null, until: null, page: 2, max: null });
  });

  it('rejects a checkpoint that is not a cursor, naming the field', () => {
    expect(() => decodeCursor('not json')).toThrow('checkpoint cursor: not JSON');
    expect(() => decodeCursor('null')).toThrow('checkpoint cursor: must be an object');
    expect(() => decodeCursor('{"page":0}')).toThrow('checkpoint cursor: page must be an integer >= 1');
    expect(() => decodeCursor('{"page":"2"}')).toThrow('page must be an integer');
    expect(() => decodeCursor('{"page":2,"max":20261101}')).toThrow(
      'checkpoint cursor: max must be a string or null',
    );
  });
});
