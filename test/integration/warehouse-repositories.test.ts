import {
  addCallEvents,
  addQuarantined,
  callDtmfDigits,
  countQuarantined,
  deleteCheckpoint,
  finishSyncRun,
  getCheckpoint,
  getSyncRun,
  latestSyncRuns,
  audioArchiveProgress,
  audioRecordedDates,
  listAudioBacklog,
  markAudioLost,
  markAudioMissing,
  listCheckpoints,
  listQuarantined,
  markAudioArchived,
  recordSyncRunProgress,
  resolveQuarantined,
  setCheckpoint,
  startSyncRun,
  upsertPage,
} from '../../connectors/postgres';
import { fixture } from '../unit/warehouse-fixtures';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

describe('service-state repositories', () => {
  let w: MigratedWarehouse;

  beforeAll(async () => {
    w = await createMigratedWarehouse('repositories');
  });
  afterAll(async () => {
    await w.dispose();
  });

  describe('checkpoints', () => {
    it('are absent until set, then move, per account, stream and scope', async () => {
      const main = { account: 'acme', stream: 'cdrs' };
      const window = { ...main, scope: 'backfill:2025-01' };
      expect(await getCheckpoint(w.db, main)).toBeNull();
      await setCheckpoint(w.db, main, '2026-10-30 09:00:00');
      await setCheckpoint(w.db, window, null);
      const first = await getCheckpoint(w.db, main);
      expect(first?.cursor).toBe('2026-10-30 09:00:00');
      await setCheckpoint(w.db, main, '2026-10-30 10:00:00');
      const second = await getCheckpoint(w.db, main);
      expect(second?.cursor).toBe('2026-10-30 10:00:00');
      expect(second!.updatedAt.getTime()).toBeGreaterThanOrEqual(first!.updatedAt.getTime());
      expect(await getCheckpoint(w.db, window)).toMatchObject({ cursor: null });
      expect(await getCheckpoint(w.db, { account: 'other', stream: 'cdrs' })).toBeNull();
      expect((await listCheckpoints(w.db, 'acme')).map((c) => c.scope)).toEqual(['', 'backfill:2025-01']);
      expect(await deleteCheckpoint(w.db, window)).toBe(true);
      expect(await deleteCheckpoint(w.db, window)).toBe(false);
    });

    it('can move inside a caller transaction and roll back with it', async () => {
      const key = { account: 'acme', stream: 'sms' };
      await setCheckpoint(w.db, key, 'a');
      await expect(
        w.db.transaction().execute(async (trx) => {
          await setCheckpoint(trx, key, 'b');
          throw new Error('page failed');
        }),
      ).rejects.toThrow('page failed');
      expect((await getCheckpoint(w.db, key))?.cursor).toBe('a');
    });
  });

  describe('quarantine', () => {
    const entry = {
      account: 'acme',
      stream: 'cdrs',
      recordId: '42',
      reason: 'calldate: required',
      raw: { id: 42 },
    };

    it('is idempotent per (account, stream, record id), keeping the latest reason', async () => {
      await addQuarantined(w.db, entry);
      await addQuarantined(w.db, entry);
      await addQuarantined(w.db, { ...entry, reason: 'type: must be a string', raw: { id: 42, type: [] } });
      expect(await countQuarantined(w.db, { account: 'acme', stream: 'cdrs' })).toBe(1);
      const [row] = await listQuarantined(w.db, { account: 'acme' });
      expect(row).toMatchObject({
        record_id: '42',
        reason: 'type: must be a string',
        raw: { id: 42, type: [] },
      });
      expect(row!.last_seen_at.getTime()).toBeGreaterThanOrEqual(row!.first_seen_at.getTime());
    });

    it('adds several at once (duplicates keep the last), lists, counts, resolves and reopens', async () => {
      await addQuarantined(w.db, [
        { ...entry, stream: 'sms', recordId: '1' },
        { ...entry, stream: 'sms', recordId: '2' },
        { ...entry, stream: 'sms', recordId: '2', reason: 'later' },
        { ...entry, stream: 'sms', recordId: '3', raw: undefined, reason: 'bad \u0000 byte' },
      ]);
      expect(await countQuarantined(w.db, { stream: 'sms' })).toBe(3);
      const listed = await listQuarantined(w.db, { stream: 'sms', limit: 2 });
      expect(listed).toHaveLength(2);
      expect((await listQuarantined(w.db, { stream: 'sms' })).find((r) => r.record_id === '2')?.reason).toBe(
        'later',
      );
      expect(await resolveQuarantined(w.db, { account: 'acme', stream: 'sms', recordId: '1' })).toBe(true);
      expect(await resolveQuarantined(w.db, { account: 'acme', stream: 'sms', recordId: '1' })).toBe(false);
      expect(await countQuarantined(w.db, { stream: 'sms' })).toBe(2);
      expect(await countQuarantined(w.db, { stream: 'sms', includeResolved: true })).toBe(3);
      await addQuarantined(w.db, { ...entry, stream: 'sms', recordId: '1' });
      expect(await countQuarantined(w.db, { stream: 'sms' })).toBe(3);
    });
  });

  describe('sync runs', () => {
    it('start (idempotent per open workflow run), report progress, finish, and list the latest per stream', async () => {
      const run = { account: 'acme', stream: 'cdrs', kind: 'incremental', workflowId: 'sync-acme-cdrs-1' };
      const id = await startSyncRun(w.db, run);
      expect(await startSyncRun(w.db, run)).toBe(id);
      await recordSyncRunProgress(w.db, id, { records: 5000, errors: 1 });
      expect(await getSyncRun(w.db, id)).toMatchObject({
        status: 'running',
        records: 5000,
        errors: 1,
        finished_at: null,
      });
      expect(await finishSyncRun(w.db, id, { status: 'succeeded', records: 12000, errors: 1 })).toBe(true);
      const done = await getSyncRun(w.db, id);
      expect(done).toMatchObject({ status: 'succeeded', records: 12000, errors: 1, error: null });
      expect(done!.finished_at).toBeInstanceOf(Date);
      await finishSyncRun(w.db, id, { status: 'succeeded', records: 12000, errors: 1 });
      expect((await getSyncRun(w.db, id))!.finished_at).toEqual(done!.finished_at);

      // A new run of the same workflow id once the first has finished is a new run.
      const next = await startSyncRun(w.db, run);
      expect(next).not.toBe(id);
      await finishSyncRun(w.db, next, { status: 'failed', records: 0, errors: 1, error: 'HTTP 503' });
      const anonymous = await startSyncRun(w.db, { account: 'acme', stream: 'sms', kind: 'backfill' });
      expect(await startSyncRun(w.db, { account: 'acme', stream: 'sms', kind: 'backfill' })).not.toBe(
        anonymous,
      );

      const latest = await latestSyncRuns(w.db, 'acme');
      expect(latest.map((r) => [r.stream, r.status])).toEqual([
        ['cdrs', 'failed'],
        ['sms', 'running'],
      ]);
      expect(latest[0]).toMatchObject({ id: next, error: 'HTTP 503' });
      expect(await finishSyncRun(w.db, 999_999, { status: 'failed', records: 0, errors: 0 })).toBe(false);
    });
  });

  describe('archived audio', () => {
    it('records where each recording and voice message was archived, and lists the backlog', async () => {
      await upsertPage(w.pool, {
        stream: 'recordings',
        account: 'acme',
        records: [
          fixture('recordings', { id: 1 }),
          fixture('recordings', { id: 2 }),
          fixture('recordings', { id: 3 }),
        ],
      });
      await upsertPage(w.pool, {
        stream: 'voicemessages',
        account: 'acme',
        records: [fixture('voicemessages')],
      });
      expect(await listAudioBacklog(w.db, 'recordings', 'acme')).toEqual([1, 2, 3]);
      expect(
        await markAudioArchived(w.db, 'recordings', 'acme', 2, { uri: 'file:///a/2.mp3', bytes: 2048 }),
      ).toBe(true);
      expect(
        await markAudioArchived(w.db, 'recordings', 'acme', 99, { uri: 'file:///a/99.mp3', bytes: 1 }),
      ).toBe(false);
      expect(await listAudioBacklog(w.db, 'recordings', 'acme')).toEqual([1, 3]);
      expect(await listAudioBacklog(w.db, 'recordings', 'acme', { afterId: 1, limit: 5 })).toEqual([3]);
      const row = await w.db
        .selectFrom('recordings')
        .selectAll()
        .where('id', '=', 2)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ audio_uri: 'file:///a/2.mp3', audio_bytes: 2048 });
      expect(row.audio_archived_at).toBeInstanceOf(Date);

      expect(
        await markAudioArchived(w.db, 'voicemessages', 'acme', 4401, { uri: 'file:///v/4401.mp3', bytes: 9 }),
      ).toBe(true);
      expect(await listAudioBacklog(w.db, 'voicemessages', 'acme')).toEqual([]);
    });

    it('records lost audio once with its reason, out of the backlog, and counts it', async () => {
      await upsertPage(w.pool, {
        stream: 'recordings',
        account: 'lost',
        records: [fixture('recordings', { id: 11 }), fixture('recordings', { id: 12 })],
      });
      expect(await markAudioLost(w.db, 'recordings', 'lost', 11, 'the platform answered 410')).toBe(true);
      expect(await markAudioLost(w.db, 'recordings', 'lost', 11, 'a later reason')).toBe(true);
      expect(await markAudioLost(w.db, 'recordings', 'lost', 99, 'no such row')).toBe(false);
      expect(await listAudioBacklog(w.db, 'recordings', 'lost')).toEqual([12]);
      const row = await w.db
        .selectFrom('recordings')
        .select(['audio_lost_at', 'audio_lost_reason'])
        .where('account', '=', 'lost')
        .where('id', '=', 11)
        .executeTakeFirstOrThrow();
      expect(row.audio_lost_reason).toBe('the platform answered 410'); // the first reason stays
      expect(row.audio_lost_at).toBeInstanceOf(Date);
      await markAudioArchived(w.db, 'recordings', 'lost', 12, {
        uri: 'gs://b/12.mp3',
        bytes: 5,
        md5: 'ab12',
      });
      expect(await audioArchiveProgress(w.db, 'recordings', 'lost')).toEqual({
        archived: 1,
        pending: 0,
        lost: 1,
        bytes: 5,
      });
      const dates = await audioRecordedDates(w.db, 'recordings', 'lost', [11, 12, 99]);
      expect([...dates.keys()].sort()).toEqual([11, 12]);
      expect(dates.get(11)).toEqual(
        new Date(`${String(fixture('recordings').record.created_at).replace(' ', 'T')}Z`),
      );
    });

    it('keeps the first 404 of audio not there yet, and counts it lost only past the grace', async () => {
      await upsertPage(w.pool, {
        stream: 'voicemessages',
        account: 'late',
        records: [fixture('voicemessages', { id: 21 }), fixture('voicemessages', { id: 22 })],
      });
      const day = 86_400_000;
      expect(
        await markAudioMissing(w.db, 'voicemessages', 'late', 21, 'the platform answered 404', day),
      ).toBe('waiting');
      const first = await w.db
        .selectFrom('voicemessages')
        .select(['audio_missing_since', 'audio_lost_at'])
        .where('account', '=', 'late')
        .where('id', '=', 21)
        .executeTakeFirstOrThrow();
      expect(first.audio_missing_since).toBeInstanceOf(Date);
      expect(first.audio_lost_at).toBeNull();
      expect(await listAudioBacklog(w.db, 'voicemessages', 'late')).toEqual([21, 22]);
      // Asked again within the grace: still waiting, the first 404's time kept.
      expect(
        await markAudioMissing(w.db, 'voicemessages', 'late', 21, 'the platform answered 404', day),
      ).toBe('waiting');
      const again = await w.db
        .selectFrom('voicemessages')
        .select('audio_missing_since')
        .where('account', '=', 'late')
        .where('id', '=', 21)
        .executeTakeFirstOrThrow();
      expect(again.audio_missing_since).toEqual(first.audio_missing_since);
      // Past the grace (here: none), lost with the reason and when it was first missing.
      expect(await markAudioMissing(w.db, 'voicemessages', 'late', 21, 'the platform answered 404', 0)).toBe(
        'lost',
      );
      const lost = await w.db
        .selectFrom('voicemessages')
        .select('audio_lost_reason')
        .where('account', '=', 'late')
        .where('id', '=', 21)
        .executeTakeFirstOrThrow();
      expect(lost.audio_lost_reason).toMatch(
        /^the platform answered 404 \(first answered \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, past archive\.missingAudioGrace\)$/,
      );
      expect(await listAudioBacklog(w.db, 'voicemessages', 'late')).toEqual([22]);
      expect(await markAudioMissing(w.db, 'voicemessages', 'late', 99, 'the platform answered 404', 0)).toBe(
        'no-row',
      );
      // Audio that arrives in the end is archived and no longer counts as missing.
      await markAudioMissing(w.db, 'voicemessages', 'late', 22, 'the platform answered 404', day);
      await markAudioArchived(w.db, 'voicemessages', 'late', 22, { uri: 'file:///v/22.mp3', bytes: 9 });
      const archived = await w.db
        .selectFrom('voicemessages')
        .select(['audio_missing_since', 'audio_archived_at'])
        .where('account', '=', 'late')
        .where('id', '=', 22)
        .executeTakeFirstOrThrow();
      expect(archived.audio_missing_since).toBeNull();
      expect(archived.audio_archived_at).toBeInstanceOf(Date);
    });
  });

  describe('call timeline', () => {
    const ev = (eventId: string, name: string, time: string | null, digits: string | null) => ({
      eventId,
      name,
      time,
      state: null,
      context: 'IVR',
      detail: { eventId, name, digits },
    });

    it("reads a call's DTMF keys in event time order, whatever order they were recorded in", async () => {
      await addCallEvents(w.db, 'acme', 77, [
        ev('d-late', 'call.dtmf', '2026-11-01 12:00:09', '1'),
        ev('ring', 'call.ringing', '2026-11-01 12:00:01', null),
      ]);
      await addCallEvents(w.db, 'acme', 77, [
        ev('d-early', 'call.dtmf', '2026-11-01 12:00:05', '2'),
        ev('d-untimed', 'call.dtmf', null, '#'),
      ]);
      await addCallEvents(w.db, 'acme', 78, [ev('other-call', 'call.dtmf', '2026-11-01 12:00:00', '9')]);
      await addCallEvents(w.db, 'other', 77, [ev('other-acct', 'call.dtmf', '2026-11-01 12:00:00', '8')]);
      // The workflow's older signals have no digits field at all.
      await addCallEvents(w.db, 'acme', 77, [
        { ...ev('old', 'call.hangup', '2026-11-01 12:00:10', null), detail: { eventId: 'old' } },
      ]);

      expect(await callDtmfDigits(w.db, 'acme', 77)).toEqual(['2', '1', '#']);
      expect(await callDtmfDigits(w.db, 'acme', 78)).toEqual(['9']);
      expect(await callDtmfDigits(w.db, 'acme', 79)).toEqual([]);
    });

    it('keeps the recorded order of key presses within the same second', async () => {
      await addCallEvents(w.db, 'acme', 80, [ev('z-first', 'call.dtmf', '2026-11-01 12:00:05', '4')]);
      await addCallEvents(w.db, 'acme', 80, [ev('a-second', 'call.dtmf', '2026-11-01 12:00:05', '5')]);
      expect(await callDtmfDigits(w.db, 'acme', 80)).toEqual(['4', '5']);
    });
  });
});
