import type { SyncCursor } from '../../contracts';
import {
  advanceCursor,
  compareCursorValues,
  decodeCursor,
  encodeCursor,
  MAX_ENDED,
  maxCursorValue,
  nextRunCursor,
  readsRecent,
} from '../../sync/cursor';

const HOUR = 3_600_000;
const overlap = { lookbackMs: 24 * HOUR, lateArrivalMs: 2 * HOUR };
const cdrs = { mode: 'incremental', changes: false } as const;
const contacts = { mode: 'incremental', changes: true } as const;
const queues = { mode: 'full', changes: true } as const;

const NOW = Date.UTC(2026, 10, 1, 12);
const MIN = 60_000;

describe('nextRunCursor', () => {
  it('reads a new immutable stream from its first id, and starts counting its runs', () => {
    expect(nextRunCursor(null, cdrs, overlap, NOW)).toEqual({
      since: null,
      until: null,
      page: 1,
      max: null,
      afterId: 0,
      maxId: 0,
      ended: [],
    });
  });

  it('goes on where a run that stopped part-way stopped', () => {
    const stopped: SyncCursor = {
      since: null,
      until: null,
      page: 7,
      max: '2026-11-01 09:00:00',
      afterId: 9120,
      maxId: 9120,
      ended: [[NOW - 10 * MIN, 8000]],
    };
    expect(nextRunCursor(stopped, cdrs, overlap, NOW)).toBe(stopped);
  });

  it('reads an immutable stream by id, whatever the calldate: from the last run that ended late-arrival ago', () => {
    const done: SyncCursor = {
      since: null,
      until: null,
      page: 1,
      max: '2026-11-01 09:00:00',
      afterId: 9500,
      maxId: 9500,
      done: true,
      ended: [
        [NOW - 3 * HOUR, 7000],
        [NOW - 2 * HOUR - MIN, 8000],
        [NOW - HOUR, 9000],
        [NOW - 5 * MIN, 9500],
      ],
    };
    expect(nextRunCursor(done, cdrs, overlap, NOW)).toEqual({
      since: null,
      until: null,
      page: 1,
      max: '2026-11-01 09:00:00',
      afterId: 8000,
      maxId: 9500,
      ended: [
        [NOW - 2 * HOUR - MIN, 8000],
        [NOW - HOUR, 9000],
        [NOW - 5 * MIN, 9500],
      ],
    });
  });

  it('reads again from the oldest run it knows while none ended late-arrival ago', () => {
    const done: SyncCursor = {
      ...{ since: null, until: null, page: 1, max: '2026-11-01 09:00:00', afterId: 20_037, maxId: 20_037 },
      done: true,
      ended: [
        [NOW - 10 * MIN, 20_000],
        [NOW - 5 * MIN, 20_037],
      ],
    };
    const next = nextRunCursor(done, cdrs, overlap, NOW);
    expect(next.afterId).toBe(20_000);
    expect(next.ended).toEqual(done.ended);
  });

  it('keeps at most MAX_ENDED run ends, never moving the start later for it', () => {
    const ended = Array.from({ length: MAX_ENDED + 5 }, (_, i): [number, number] => [NOW - HOUR + i, i + 1]);
    const next = nextRunCursor(
      { since: null, until: null, page: 1, max: null, afterId: 0, maxId: 0, ended, done: true },
      cdrs,
      overlap,
      NOW,
    );
    expect(next.ended).toHaveLength(MAX_ENDED);
    expect(next.afterId).toBe(1);
  });

  it('reads a checkpoint from before id reads once more by calldate, then counts ids', () => {
    const old = decodeCursor('{"since":null,"until":null,"page":1,"max":"2026-11-01 09:00:00","done":true}');
    expect(nextRunCursor(old, cdrs, overlap, NOW)).toEqual({
      since: '2026-11-01 07:00:00',
      until: null,
      page: 1,
      max: '2026-11-01 09:00:00',
      afterId: 0,
      maxId: 0,
      ended: [],
    });
  });

  it('re-reads the lookback of a changing stream, across a month end', () => {
    const done: SyncCursor = {
      since: null,
      until: null,
      page: 1,
      max: '2026-03-01 06:00:00',
      afterId: 40,
      done: true,
    };
    expect(nextRunCursor(done, contacts, overlap, NOW)).toEqual({
      since: '2026-02-28 06:00:00',
      until: null,
      page: 1,
      max: '2026-03-01 06:00:00',
      afterId: 0,
    });
  });

  it('re-reads a changing stream that found nothing yet, and full streams, from the start', () => {
    const empty: SyncCursor = { since: null, until: null, page: 1, max: null, afterId: 0, done: true };
    expect(nextRunCursor(empty, contacts, overlap, NOW)).toEqual({
      since: null,
      until: null,
      page: 1,
      max: null,
      afterId: 0,
    });
    const full: SyncCursor = { since: null, until: null, page: 1, max: '31', afterId: 31, done: true };
    expect(nextRunCursor(full, queues, overlap, NOW)).toEqual({
      since: null,
      until: null,
      page: 1,
      max: '31',
      afterId: 0,
    });
  });

  it('starts a lookback in UTC when the newest record came with an offset', () => {
    const done: SyncCursor = {
      since: null,
      until: null,
      page: 1,
      max: '2026-07-01T12:00:00+01:00',
      afterId: 0,
      done: true,
    };
    expect(nextRunCursor(done, contacts, { ...overlap, lookbackMs: 2 * HOUR }, NOW).since).toBe(
      '2026-07-01 09:00:00',
    );
  });
});

describe('advanceCursor', () => {
  const start: SyncCursor = {
    since: '2026-11-01 00:00:00',
    until: '2026-11-02 00:00:00',
    page: 1,
    max: null,
    afterId: 0,
  };

  it('moves after the last id read and keeps the largest value seen', () => {
    const one = advanceCursor(start, { pageMax: '2026-11-01 10:00:00', lastId: 2000, done: false }, NOW);
    expect(one).toEqual({ ...start, page: 2, max: '2026-11-01 10:00:00', afterId: 2000, maxId: 2000 });
    // A page of older records (late arrivals sort by id, not by time) does not move max back.
    const two = advanceCursor(one, { pageMax: '2026-11-01 08:00:00', lastId: 4000, done: false }, NOW);
    expect(two.max).toBe('2026-11-01 10:00:00');
    expect(two.afterId).toBe(4000);
  });

  it('marks the read done on its last page, an empty one included', () => {
    const at = { ...start, page: 4, max: '2026-11-01 10:00:00', afterId: 6000, maxId: 6000 };
    const last = advanceCursor(at, { pageMax: null, lastId: 6000, done: true }, NOW);
    expect(last).toEqual({ ...at, page: 1, done: true });
    expect(advanceCursor(start, { pageMax: null, lastId: 0, done: true }, NOW)).toEqual({
      ...start,
      maxId: 0,
      done: true,
    });
  });

  it("stamps an immutable stream's run end with the largest id it committed", () => {
    const reading: SyncCursor = {
      ...start,
      since: null,
      until: null,
      afterId: 10,
      maxId: 50,
      ended: [[1, 10]],
    };
    const mid = advanceCursor(reading, { pageMax: null, lastId: 40, done: false }, NOW);
    expect(mid.ended).toEqual([[1, 10]]);
    expect(mid.maxId).toBe(50);
    const end = advanceCursor(mid, { pageMax: null, lastId: 60, done: true }, NOW);
    expect(end.ended).toEqual([
      [1, 10],
      [NOW, 60],
    ]);
  });

  it("keeps a first read's end of history through its pages, and the next run drops it", () => {
    const first: SyncCursor = {
      since: null,
      until: null,
      page: 1,
      max: null,
      afterId: 0,
      ended: [],
      watchedAfterId: 70,
    };
    const mid = advanceCursor(first, { pageMax: null, lastId: 40, done: false }, NOW);
    expect(mid.watchedAfterId).toBe(70);
    const done = advanceCursor(mid, { pageMax: null, lastId: 90, done: true }, NOW);
    expect(done.watchedAfterId).toBe(70);
    const next = nextRunCursor(done, cdrs, overlap, NOW);
    expect(next.watchedAfterId).toBeUndefined();
    expect(readsRecent(next)).toBe(true);
  });

  it('compares ids by value, not as text', () => {
    expect(advanceCursor({ ...start, max: '9' }, { pageMax: '10', lastId: 1, done: false }, NOW).max).toBe(
      '10',
    );
  });
});

describe('readsRecent', () => {
  it('is a lookback or a read by id after an earlier run, not a first read of everything', () => {
    const base: SyncCursor = { since: null, until: null, page: 1, max: null, afterId: 0 };
    expect(readsRecent(base)).toBe(false);
    expect(readsRecent({ ...base, ended: [] })).toBe(false);
    expect(readsRecent({ ...base, ended: [[1, 0]] })).toBe(true);
    expect(readsRecent({ ...base, since: '2026-11-01 00:00:00' })).toBe(true);
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
      afterId: 4000,
      maxId: 4000,
      ended: [[NOW, 3000]],
      watchedAfterId: 3500,
    };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor(encodeCursor({ ...cursor, done: true }))).toEqual({ ...cursor, done: true });
  });

  it('reads checkpoints written before a field existed', () => {
    expect(decodeCursor('{"page":1}')).toEqual({ since: null, until: null, page: 1, max: null, afterId: 0 });
  });

  it('starts a read stopped at a page number (before keyset reads) again from its beginning', () => {
    const old =
      '{"since":"2026-10-01 00:00:00","until":"2026-10-08 00:00:00","page":7,"max":"2026-10-03 00:00:00"}';
    expect(decodeCursor(old)).toEqual({
      since: '2026-10-01 00:00:00',
      until: '2026-10-08 00:00:00',
      page: 1,
      max: '2026-10-03 00:00:00',
      afterId: 0,
    });
  });

  it('rejects a checkpoint that is not a cursor, naming the field', () => {
    expect(() => decodeCursor('not json')).toThrow('checkpoint cursor: not JSON');
    expect(() => decodeCursor('null')).toThrow('checkpoint cursor: must be an object');
    expect(() => decodeCursor('{"page":0}')).toThrow('checkpoint cursor: page must be an integer >= 1');
    expect(() => decodeCursor('{"page":"2"}')).toThrow('page must be an integer');
    expect(() => decodeCursor('{"page":2,"max":20261101}')).toThrow(
      'checkpoint cursor: max must be a string or null',
    );
    expect(() => decodeCursor('{"page":2,"afterId":"7"}')).toThrow(
      'checkpoint cursor: afterId must be an integer >= 0',
    );
    expect(() => decodeCursor('{"page":2,"afterId":7,"ended":[[1]]}')).toThrow(
      'checkpoint cursor: ended must be a list of [time ms, id] pairs',
    );
  });
});
