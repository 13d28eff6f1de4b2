// Recordings archived to Cloud Storage (the real fake-gcs-server) by the recordings sync on Temporal:
// every file under account/day/id with its MD5 in the warehouse, equal to what GCS holds; audio the
// platform answers 410 or 404 for is recorded as lost with its reason and not asked for again.
import { Storage } from '@google-cloud/storage';
import { syncStreamWorkflow } from '../../contracts';
import { audioArchiveProgress } from '../../connectors/postgres';
import { testServiceAccountJson } from '../support/crucible';
import { startFakeGcs, type RunningFakeGcs } from '../support/fake-gcs';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(180_000);

describe('audio archive on Cloud Storage, and lost audio', () => {
  let gcs: RunningFakeGcs;
  let h: SyncHarness;
  let storage: Storage;

  beforeAll(async () => {
    gcs = await startFakeGcs();
    storage = new Storage({ apiEndpoint: gcs.endpoint, projectId: 'callsync-test' });
    await storage.createBucket('callsync-audio');
    h = await startSyncHarness({
      label: 'audio_gcs',
      cdrs: 300,
      config: {
        archive: {
          // Gone audio counts as lost at the first 404/410 here (the grace has its own test).
          missingAudioGrace: '0s',
          gcs: {
            bucket: 'callsync-audio',
            prefix: 'archive/',
            apiEndpoint: gcs.endpoint,
            credentials: { serviceAccountJson: testServiceAccountJson(), selfSignedJwt: true },
          },
        },
      },
    });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await gcs?.stop();
  });

  const control = async (path: string, body?: unknown) =>
    (await (
      await fetch(`${h.emulator.origin}/_emulator/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    ).json()) as Record<string, unknown>;
  const mp3Requests = async () =>
    ((await control('stats')) as { by_route: Record<string, number> }).by_route['GET /monitors/{id}.mp3'] ??
    0;
  const recordings = () =>
    h.deps.warehouse.db
      .selectFrom('recordings')
      .select([
        'id',
        'created_at',
        'audio_uri',
        'audio_bytes',
        'audio_md5',
        'audio_lost_at',
        'audio_lost_reason',
      ])
      .where('account', '=', 'acme')
      .orderBy('id')
      .execute();

  it('archives every recording once with its checksum, and records gone audio as lost', async () => {
    // (Faults that hit the same request combine into one answer, so one kind per run: 404 is in
    // test/unit/audio-gone.test.ts.)
    await control('faults', { route: 'GET /monitors/{id}.mp3', status: 410, times: 3 });
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-audio-gcs-1',
      args: [{ account: 'acme', stream: 'recordings' }],
    });
    const rows = await recordings();
    expect(rows.length).toBeGreaterThan(20);
    const lost = rows.filter((r) => r.audio_lost_at !== null);
    const archived = rows.filter((r) => r.audio_uri !== null);
    expect(lost.length).toBe(3);
    for (const r of lost) expect(r.audio_lost_reason).toMatch(/^the platform answered 410 for the \.mp3/);
    expect(archived.length).toBe(rows.length - 3);

    const bucket = storage.bucket('callsync-audio');
    const [files] = await bucket.getFiles({ prefix: 'archive/recordings/acme/' });
    expect(files.length).toBe(archived.length); // one object per archived recording, none twice
    for (const row of archived.slice(0, 5)) {
      const day = row.created_at!.toISOString().slice(0, 10).replaceAll('-', '/');
      expect(row.audio_uri).toBe(`gs://callsync-audio/archive/recordings/acme/${day}/${row.id}.mp3`);
      const [meta] = await bucket.file(`archive/recordings/acme/${day}/${row.id}.mp3`).getMetadata();
      expect(Buffer.from(meta.md5Hash!, 'base64').toString('hex')).toBe(row.audio_md5);
      expect(Number(meta.size)).toBe(Number(row.audio_bytes));
    }
    expect(await audioArchiveProgress(h.deps.warehouse.db, 'recordings', 'acme')).toMatchObject({
      archived: archived.length,
      pending: 0,
      lost: 3,
    });
  });

  it('does not ask the platform again for lost audio on the next runs', async () => {
    const before = await recordings();
    const requestsBefore = await mp3Requests();
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-audio-gcs-2',
      args: [{ account: 'acme', stream: 'recordings' }],
    });
    expect(await mp3Requests()).toBe(requestsBefore);
    const after = await recordings();
    expect(after.filter((r) => r.audio_lost_at !== null)).toEqual(
      before.filter((r) => r.audio_lost_at !== null),
    );
  });
});
