import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import {
  copySql,
  countQuarantined,
  createTableLike,
  getCheckpoint,
  listQuarantined,
  markAudioArchived,
  STREAM_NAMES,
  toCopyText,
  upsertPage,
  type PageRecord,
} from '../../connectors/postgres';
import { fixture, pageRecord, RAW_RECORDS } from '../unit/warehouse-fixtures';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

/** A page of CDRs with consecutive ids from `first`. */
function cdrs(first: number, count: number, overrides: Record<string, unknown> = {}): PageRecord<'cdrs'>[] {
  return Array.from({ length: count }, (_, i) => {
    const id = first + i;
    return pageRecord('cdrs', {
      ...RAW_RECORDS.cdrs,
      id,
      live_id: 9_000_000 + id,
      calldate: new Date(Date.UTC(2026, 9, 1) + id * 60_000).toISOString().slice(0, 19).replace('T', ' '),
      ...overrides,
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the clock is past each of `stamps` (synced_at values), so that a write now is stamped later. */
async function clockPast(stamps: Date[]): Promise<void> {
  const latest = Math.max(...stamps.map((d) => d.getTime()));
  while (Date.now() <= latest) await sleep(1);
}

describe('bulk upsert', () => {
  let w: MigratedWarehouse;

  beforeAll(async () => {
    w = await createMigratedWarehouse('bulk', 12);
  });
  afterAll(async () => {
    await w.dispose();
  });

  const count = async (table: string, account?: string) => {
    const { rows } = await w.pool.query<{ n: number }>(
      `select count(*) as n from ${table}${account ? ' where account = $1' : ''}`,
      account ? [account] : [],
    );
    return rows[0]!.n;
  };

  it('inserts a new page straight by COPY, then reports an identical page unchanged without touching synced_at', async () => {
    const page = cdrs(1, 50);
    expect(await upsertPage(w.pool, { stream: 'cdrs', account: 'a1', records: page })).toEqual({
      inserted: 50,
      updated: 0,
      unchanged: 0,
      quarantined: 0,
      path: 'copy',
    });
    const before = await w.db
      .selectFrom('cdrs')
      .select(['id', 'synced_at'])
      .where('account', '=', 'a1')
      .execute();
    await clockPast(before.map((r) => r.synced_at));
    expect(await upsertPage(w.pool, { stream: 'cdrs', account: 'a1', records: page })).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: 50,
      quarantined: 0,
      path: 'merge',
    });
    const after = await w.db
      .selectFrom('cdrs')
      .select(['id', 'synced_at'])
      .where('account', '=', 'a1')
      .execute();
    expect(after).toEqual(before);
  });

  it('stores typed columns and the raw record (extra fields included), read back through kysely', async () => {
    const row = await w.db
      .selectFrom('cdrs')
      .selectAll()
      .where('account', '=', 'a1')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      account: 'a1',
      id: 1,
      duration: 74,
      type: 'O',
      disposition: 'CONNECTED',
      destination: 'out',
      rate: 0.0125,
      charge: 0.025,
      is_root: true,
      info: 'line one\nline\ttwo \\ end',
      dst_ua: '',
    });
    expect(row.calldate).toEqual(new Date('2026-10-01T00:01:00Z'));
    expect(row.raw).toMatchObject({ id: 1, queue_wait: 12, type: 0, rate: '0.0125' });
  });

  it('updates a changed record (transcript arrives later), bumping synced_at and keeping the archived audio', async () => {
    const first = fixture('recordings');
    await upsertPage(w.pool, { stream: 'recordings', account: 'a1', records: [first] });
    await markAudioArchived(w.db, 'recordings', 'a1', 88001, { uri: 'file:///x/88001.mp3', bytes: 1234 });
    const before = await w.db
      .selectFrom('recordings')
      .selectAll()
      .where('id', '=', 88001)
      .executeTakeFirstOrThrow();
    await clockPast([before.synced_at]);
    const done = fixture('recordings', {
      transcript: 'Hello, Acme here.',
      summary: 'Greeting',
      cx_score: '9',
    });
    expect(await upsertPage(w.pool, { stream: 'recordings', account: 'a1', records: [done] })).toMatchObject({
      inserted: 0,
      updated: 1,
      unchanged: 0,
    });
    const after = await w.db
      .selectFrom('recordings')
      .selectAll()
      .where('id', '=', 88001)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ transcript: 'Hello, Acme here.', summary: 'Greeting', cx_score: 9 });
    expect(after.raw).toMatchObject({ transcript: 'Hello, Acme here.' });
    expect(after.synced_at.getTime()).toBeGreaterThan(before.synced_at.getTime());
    expect(after).toMatchObject({ audio_uri: 'file:///x/88001.mp3', audio_bytes: 1234 });
    expect(after.audio_archived_at).toEqual(before.audio_archived_at);
  });

  it('merges a page of new and known records, counting each', async () => {
    const page = [...cdrs(41, 10, { duration: 75 }), ...cdrs(51, 10)]; // 41..50 changed, 51..60 new
    expect(await upsertPage(w.pool, { stream: 'cdrs', account: 'a1', records: page })).toEqual({
      inserted: 10,
      updated: 10,
      unchanged: 0,
      quarantined: 0,
      path: 'merge',
    });
    expect(await count('cdrs', 'a1')).toBe(60);
  });

  it('keeps the last of duplicate ids within a page', async () => {
    const page = [
      ...cdrs(100, 3, { duration: 1 }),
      ...cdrs(101, 1, { duration: 2 }),
      ...cdrs(100, 1, { duration: 3 }),
    ];
    expect(await upsertPage(w.pool, { stream: 'cdrs', account: 'dup', records: page })).toMatchObject({
      inserted: 3,
    });
    const rows = await w.db
      .selectFrom('cdrs')
      .select(['id', 'duration'])
      .where('account', '=', 'dup')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 100, duration: 3 },
      { id: 101, duration: 2 },
      { id: 102, duration: 1 },
    ]);
    // The same in the merge path.
    const again = [...cdrs(100, 1, { duration: 4 }), ...cdrs(100, 1, { duration: 5 })];
    expect(await upsertPage(w.pool, { stream: 'cdrs', account: 'dup', records: again })).toMatchObject({
      updated: 1,
      path: 'merge',
    });
    const one = await w.db
      .selectFrom('cdrs')
      .select('duration')
      .where('account', '=', 'dup')
      .where('id', '=', 100)
      .executeTakeFirst();
    expect(one?.duration).toBe(5);
  });

  it('keeps accounts apart: the same id in two accounts is two rows', async () => {
    await upsertPage(w.pool, { stream: 'sms', account: 'x', records: [fixture('sms')] });
    await upsertPage(w.pool, {
      stream: 'sms',
      account: 'y',
      records: [fixture('sms', { message: 'other' })],
    });
    const rows = await w.db.selectFrom('sms').select(['account', 'message']).orderBy('account').execute();
    expect(rows).toEqual([
      { account: 'x', message: 'Your order has shipped 📦' },
      { account: 'y', message: 'other' },
    ]);
  });

  it('writes the same page from several writers at once without duplicates or errors', async () => {
    const page = cdrs(1000, 2000);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => upsertPage(w.pool, { stream: 'cdrs', account: 'race', records: page })),
    );
    expect(results.reduce((n, r) => n + r.inserted, 0)).toBe(2000);
    expect(results.reduce((n, r) => n + r.inserted + r.updated + r.unchanged, 0)).toBe(8000);
    expect(results.every((r) => r.updated === 0)).toBe(true);
    expect(await count('cdrs', 'race')).toBe(2000);
  });

  /** Waits until some session of this database is blocked on a lock (the page's COPY on the uncommitted id). */
  const waitForLockWait = async () => {
    for (let i = 0; i < 200; i++) {
      const { rows } = await w.pool.query<{ waiting: boolean }>(
        `select exists (select 1 from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock' and query like 'COPY%') as waiting`,
      );
      if (rows[0]?.waiting) return;
      await sleep(25);
    }
    throw new Error('the page never waited for the other writer');
  };

  it('falls back to the merge when another writer commits one of the ids during the direct COPY', async () => {
    const page = cdrs(3000, 20);
    const other = await w.pool.connect();
    try {
      await other.query('begin');
      // Uncommitted, so the page's "all new?" check does not see it, but its COPY must wait for it.
      await other.query(`insert into cdrs (account, id, raw) values ('fallback', 3010, '{"id":3010}')`);
      const writing = upsertPage(w.pool, { stream: 'cdrs', account: 'fallback', records: page });
      await waitForLockWait();
      await other.query('commit');
      expect(await writing).toEqual({
        inserted: 19,
        updated: 1,
        unchanged: 0,
        quarantined: 0,
        path: 'merge',
      });
    } finally {
      other.release();
    }
    const row = await w.db
      .selectFrom('cdrs')
      .select(['duration', 'raw'])
      .where('account', '=', 'fallback')
      .where('id', '=', 3010)
      .executeTakeFirstOrThrow();
    expect(row.duration).toBe(74);
    expect(await count('cdrs', 'fallback')).toBe(20);
  });

  it('writes disjoint and overlapping pages concurrently', async () => {
    const pages = [cdrs(5000, 1000), cdrs(6000, 1000), cdrs(5500, 1000), cdrs(7000, 1000)];
    const results = await Promise.all(
      pages.map((records) => upsertPage(w.pool, { stream: 'cdrs', account: 'windows', records })),
    );
    expect(results.reduce((n, r) => n + r.inserted, 0)).toBe(3000);
    expect(await count('cdrs', 'windows')).toBe(3000);
  });

  it('gives the same result without the direct COPY', async () => {
    const page = cdrs(1, 30);
    expect(
      await upsertPage(w.pool, { stream: 'cdrs', account: 'slow', records: page }, { fastPath: false }),
    ).toEqual({ inserted: 30, updated: 0, unchanged: 0, quarantined: 0, path: 'merge' });
    expect(
      await upsertPage(w.pool, { stream: 'cdrs', account: 'slow', records: page }, { fastPath: false }),
    ).toMatchObject({ unchanged: 30 });
  });

  it('moves the checkpoint in the same transaction as the rows', async () => {
    const key = { account: 'cp', stream: 'cdrs', scope: 'window-2026-10' };
    await upsertPage(w.pool, {
      stream: 'cdrs',
      account: 'cp',
      records: cdrs(1, 5),
      checkpoint: { key, cursor: '2026-10-01 00:05:00' },
    });
    expect((await getCheckpoint(w.db, key))?.cursor).toBe('2026-10-01 00:05:00');
    expect(await getCheckpoint(w.db, { account: 'cp', stream: 'cdrs' })).toBeNull();
  });

  it('leaves rows and checkpoint as they were when a page fails', async () => {
    const key = { account: 'fail', stream: 'cdrs' };
    await upsertPage(w.pool, {
      stream: 'cdrs',
      account: 'fail',
      records: cdrs(1, 5),
      checkpoint: { key, cursor: 'c1' },
    });
    // A constraint the warehouse does not have, to make the database refuse one row of the next page.
    await sql`alter table cdrs add constraint test_no_negative_duration check (duration >= 0) not valid`.execute(
      w.db,
    );
    try {
      for (const fastPath of [true, false]) {
        const page = [...cdrs(6, 5), ...cdrs(11, 1, { duration: -1 })];
        await expect(
          upsertPage(
            w.pool,
            { stream: 'cdrs', account: 'fail', records: page, checkpoint: { key, cursor: 'c2' } },
            { fastPath },
          ),
        ).rejects.toThrow(/test_no_negative_duration/);
        expect((await getCheckpoint(w.db, key))?.cursor).toBe('c1');
        expect(await count('cdrs', 'fail')).toBe(5);
      }
    } finally {
      await sql`alter table cdrs drop constraint test_no_negative_duration`.execute(w.db);
    }
    // The pool's connections still work afterwards.
    expect(await upsertPage(w.pool, { stream: 'cdrs', account: 'fail', records: cdrs(6, 5) })).toMatchObject({
      inserted: 5,
    });
  });

  it('quarantines a record no column can hold, in the same transaction, and stores the rest', async () => {
    const page = [...cdrs(1, 3), ...cdrs(4, 1, { calldate: '2026-02-30 10:00:00' })];
    expect(await upsertPage(w.pool, { stream: 'cdrs', account: 'q', records: page })).toMatchObject({
      inserted: 3,
      quarantined: 1,
    });
    expect(await count('cdrs', 'q')).toBe(3);
    const [entry] = await listQuarantined(w.db, { account: 'q' });
    expect(entry).toMatchObject({
      stream: 'cdrs',
      record_id: '4',
      reason: expect.stringMatching(/calldate/),
    });
    expect(entry?.raw).toMatchObject({ id: 4, calldate: '2026-02-30 10:00:00' });
    await upsertPage(w.pool, { stream: 'cdrs', account: 'q', records: page });
    expect(await countQuarantined(w.db, { account: 'q' })).toBe(1);
  });

  it('round-trips awkward text and JSON: tabs, newlines, backslashes, quotes, NUL, emoji', async () => {
    const nasty = 'tab\there\nnew "line" \\N \\. end\r\n😀 \u0000x';
    const rec = fixture('sms', {
      message: nasty,
      to_name: '\\',
      note: { deep: ['a\tb', 'c\\d', 'e\u0000f'] },
    });
    await upsertPage(w.pool, { stream: 'sms', account: 'text', records: [rec] });
    const row = await w.db
      .selectFrom('sms')
      .selectAll()
      .where('account', '=', 'text')
      .executeTakeFirstOrThrow();
    expect(row.message).toBe(nasty.replace('\u0000', ''));
    expect(row.to_name).toBe('\\');
    expect(row.raw).toMatchObject({
      message: nasty.replace('\u0000', ''),
      note: { deep: ['a\tb', 'c\\d', 'ef'] },
    });
  });

  it.each(STREAM_NAMES)(
    'stores the %s fixture and reads it back unchanged on a second write',
    async (stream) => {
      const rec = fixture(stream);
      const first = await upsertPage(w.pool, { stream, account: 'all', records: [rec] });
      expect(first).toMatchObject({ inserted: 1, quarantined: 0 });
      const second = await upsertPage(w.pool, { stream, account: 'all', records: [rec] });
      expect(second).toMatchObject({ unchanged: 1 });
      const { rows } = await w.pool.query<{ raw: unknown }>(
        `select raw from ${stream} where account = 'all'`,
      );
      expect(rows).toEqual([{ raw: rec.raw }]);
    },
  );

  it('does nothing for an empty page but still moves the checkpoint', async () => {
    const key = { account: 'empty', stream: 'faxes' };
    expect(
      await upsertPage(w.pool, {
        stream: 'faxes',
        account: 'empty',
        records: [],
        checkpoint: { key, cursor: 'end' },
      }),
    ).toEqual({ inserted: 0, updated: 0, unchanged: 0, quarantined: 0, path: 'none' });
    expect((await getCheckpoint(w.db, key))?.cursor).toBe('end');
  });

  it('creates a table like a stream table for a raw COPY baseline, and COPY text of the same rows loads into it', async () => {
    await createTableLike(w.pool, 'cdrs', 'cdrs_baseline');
    const defs = async (table: string) => {
      const { rows } = await w.pool.query<{ def: string }>(
        `select regexp_replace(indexdef, '^.* USING ', '') as def from pg_indexes where tablename = $1 order by 1`,
        [table],
      );
      return rows.map((r) => r.def);
    };
    expect(await defs('cdrs_baseline')).toEqual(await defs('cdrs'));
    const columns = async (table: string) =>
      (
        await w.pool.query<{ c: string }>(
          `select attname || ' ' || format_type(atttypid, atttypmod) || ' ' || attnotnull as c
           from pg_attribute where attrelid = $1::regclass and attnum > 0 order by attnum`,
          [table],
        )
      ).rows;
    expect(await columns('cdrs_baseline')).toEqual(await columns('cdrs'));
    const text = toCopyText('cdrs', 'bench', cdrs(1, 100));
    const client = await w.pool.connect();
    try {
      await pipeline(
        Readable.from([Buffer.from(text)]),
        client.query(copyFrom(copySql('cdrs', 'cdrs_baseline'))),
      );
    } finally {
      client.release();
    }
    expect(await count('cdrs_baseline')).toBe(100);
  });
});
