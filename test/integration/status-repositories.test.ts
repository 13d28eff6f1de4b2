// The status aggregates (connectors/postgres/repositories/stream-status.ts) and the audio archive's
// window (archive.maxAge) and progress, on a real PostgreSQL; and collectStatus, which reads them.
import { collectStatus } from '../../cli/commands/status';
import { parseTestConfig } from '../support/test-config';
import {
  addQuarantined,
  audioArchiveProgress,
  finishSyncRun,
  listAudioBacklog,
  markAudioArchived,
  setCheckpoint,
  startSyncRun,
  streamAggregates,
  upsertPage,
} from '../../connectors/postgres';
import { encodeCursor } from '../../sync/cursor';
import { fixture } from '../unit/warehouse-fixtures';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

describe('status repositories', () => {
  let w: MigratedWarehouse;
  const now = Date.parse('2026-11-23T12:00:00Z');

  beforeAll(async () => {
    w = await createMigratedWarehouse('status');
    await upsertPage(w.pool, {
      stream: 'recordings',
      account: 'acme',
      records: [
        fixture('recordings', { id: 1, created_at: '2026-11-23 11:00:00' }), // an hour old
        fixture('recordings', { id: 2, created_at: '2026-11-20 11:00:00' }), // three days
        fixture('recordings', { id: 3, created_at: '2026-06-01 11:00:00' }), // months
      ],
    });
    await upsertPage(w.pool, {
      stream: 'voicemessages',
      account: 'acme',
      records: [
        fixture('voicemessages', { id: 11, origtime: '2026-11-23 10:00:00' }),
        fixture('voicemessages', { id: 12, origtime: String(Date.parse('2026-05-01T00:00:00Z') / 1000) }),
        fixture('voicemessages', { id: 13, origtime: 'not a time' }),
      ],
    });
    await upsertPage(w.pool, {
      stream: 'cdrs',
      account: 'acme',
      records: [fixture('cdrs', { id: 21 }), fixture('cdrs', { id: 22 })],
    });
    const run = await startSyncRun(w.db, { account: 'acme', stream: 'cdrs', kind: 'incremental' });
    await finishSyncRun(w.db, run, { status: 'succeeded', records: 2, errors: 0 });
    const failed = await startSyncRun(w.db, { account: 'acme', stream: 'recordings', kind: 'incremental' });
    await finishSyncRun(w.db, failed, { status: 'failed', records: 0, errors: 1 });
    await setCheckpoint(
      w.db,
      { account: 'acme', stream: 'cdrs' },
      encodeCursor({ since: null, until: null, page: 1, max: '2026-11-23 11:30:00', afterId: 0 }),
    );
    await addQuarantined(w.db, [{ account: 'acme', stream: 'cdrs', recordId: '99', reason: 'bad', raw: {} }]);
  });
  afterAll(async () => {
    await w.dispose();
  });

  it('aggregate runs, checkpoints, quarantine and rows per account and stream', async () => {
    const rows = await streamAggregates(w.db, ['acme', 'other'], ['cdrs', 'recordings']);
    expect(rows.map((r) => `${r.account}/${r.stream}`)).toEqual([
      'acme/cdrs',
      'acme/recordings',
      'other/cdrs',
      'other/recordings',
    ]);
    expect(rows[0]).toMatchObject({ records: 2, quarantined: 1 });
    expect(rows[0]!.lastSuccess).toBeInstanceOf(Date);
    expect(rows[0]!.cursor).toContain('2026-11-23 11:30:00');
    // A failed run is no success.
    expect(rows[1]).toMatchObject({ records: 3, quarantined: 0, lastSuccess: null, cursor: null });
    expect(rows[2]).toMatchObject({ records: 0, quarantined: 0, lastSuccess: null });
  });

  it('limit the audio backlog to calls recorded since a time, and count archive progress', async () => {
    const since = new Date(now - 7 * 86_400_000);
    expect(await listAudioBacklog(w.db, 'recordings', 'acme')).toEqual([1, 2, 3]);
    expect(await listAudioBacklog(w.db, 'recordings', 'acme', { since })).toEqual([1, 2]);
    // A voice message's origtime as text or epoch seconds; one that is neither is left out.
    expect(await listAudioBacklog(w.db, 'voicemessages', 'acme', { since })).toEqual([11]);
    expect(
      await listAudioBacklog(w.db, 'voicemessages', 'acme', { since: new Date('2026-04-01T00:00:00Z') }),
    ).toEqual([11, 12]);

    await markAudioArchived(w.db, 'recordings', 'acme', 1, { uri: 'file:///a/1.mp3', bytes: 4096 });
    expect(await audioArchiveProgress(w.db, 'recordings', 'acme', since)).toEqual({
      archived: 1,
      pending: 1,
      lost: 0,
      bytes: 4096,
    });
    expect(await audioArchiveProgress(w.db, 'recordings', 'acme')).toEqual({
      archived: 1,
      pending: 2,
      lost: 0,
      bytes: 4096,
    });
  });

  it('collectStatus shows how far the data is behind besides the last run, and audio progress', async () => {
    const config = parseTestConfig({
      accounts: [
        {
          name: 'acme',
          platform: {
            baseUrl: 'http://127.0.0.1:1/v1.1/voipstudio',
            credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
          },
        },
      ],
      sync: { streams: ['cdrs', 'recordings'] },
      archive: { maxAge: '7d' },
    });
    const rows = await collectStatus(config, w, undefined, now);
    const cdrs = rows.find((r) => r.stream === 'cdrs')!;
    expect(cdrs.dataLagSeconds).toBe(30 * 60);
    expect(cdrs.lagSeconds).not.toBeNull();
    const recordings = rows.find((r) => r.stream === 'recordings')!;
    expect(recordings.audio).toEqual({ archived: 1, pending: 1, lost: 0, bytes: 4096 });
    expect(cdrs.audio).toBeUndefined();
  });
});
