// Recordings longer than Speech-to-Text takes inline (60 s), on the real stack with the real
// fake-gcs-server: a recording archived to Cloud Storage is recognised from the archive's object; one
// not archived is staged under transcription/<account>/<id>.mp3 and the staged object is deleted
// afterwards (a 10.8 MB one streamed, not held); an archived object that is gone is staged
// from the platform instead; the local Speech-to-Text answers NOT_FOUND for a missing gs:// object.
import { Storage } from '@google-cloud/storage';
import { syncStreamWorkflow, transcribeRecordingsWorkflow } from '../../contracts';
import {
  GoogleSpeech,
  googleTranscriptionConfigSchema,
  type GoogleTranscriptionConfig,
} from '../../connectors/google-speech';
import { DEFAULT_NOW } from '../../emulator';
import { formatEpoch } from '../../emulator/data/calendar';
import { startFakeGoogleApps, type FakeGoogleApps } from '../fakes/google/apps-server';
import { startFakeGcs, type RunningFakeGcs } from '../support/fake-gcs';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(240_000);

describe('transcription of long recordings through Cloud Storage', () => {
  let google: FakeGoogleApps;
  let gcs: RunningFakeGcs;
  let storage: Storage;
  let h: SyncHarness;

  beforeAll(async () => {
    google = await startFakeGoogleApps();
    gcs = await startFakeGcs();
    google.speech.gcsEndpoint = gcs.endpoint;
    storage = new Storage({ apiEndpoint: gcs.endpoint, projectId: 'callsync-test' });
    await storage.createBucket('callsync-audio');
    await storage.createBucket('callsync-staging');
    const credentials = { serviceAccountJson: google.serviceAccount.json, selfSignedJwt: true };
    h = await startSyncHarness({
      label: 'transcription-long',
      cdrs: 20,
      config: {
        archive: {
          gcs: { bucket: 'callsync-audio', prefix: 'archive/', apiEndpoint: gcs.endpoint, credentials },
        },
        transcription: {
          google: {
            credentials,
            languages: ['en-GB'],
            monthlyCapMinutes: 60,
            maxAge: '400d',
            speechEndpoint: google.url,
            languageEndpoint: google.url,
            stagingBucket: 'callsync-staging',
            storageEndpoint: gcs.endpoint,
          },
        },
      },
    });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    await gcs?.stop();
    await google?.close();
  });

  const sweep = (n: number) =>
    h.client.workflow.execute(transcribeRecordingsWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `transcription-long-sweep-${n}`,
      args: [{ account: 'acme' }],
    });
  const mp3Downloads = async () =>
    (
      (await (await fetch(`${h.emulator.origin}/_emulator/stats`)).json()) as {
        by_route: Record<string, number>;
      }
    ).by_route['GET /monitors/{id}.mp3'] ?? 0;
  const audioUri = async (id: number) =>
    (
      await h.deps.warehouse.db
        .selectFrom('recordings')
        .select('audio_uri')
        .where('account', '=', 'acme')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).audio_uri;

  it('recognises archived audio in place, stages the rest, and cleans up', async () => {
    const customer = h.emulator.admin.customer_id;
    const monitors = h.emulator.store.tables.monitors;
    for (const m of monitors.query(customer, { page: 1, limit: 5000, filter: [] }).data) {
      if (!m.transcript) monitors.update(Number(m.id), { transcript: 'Agent: seeded' });
    }
    const createdAt = formatEpoch(Math.floor(DEFAULT_NOW.getTime() / 1000) - 3600);
    const add = (duration: number) =>
      Number(
        monitors.insert(customer, { created_at: createdAt, token: 'tok', duration, transcript: null }).id,
      );
    const [archived, staged, missing] = [add(90), add(90), add(90)];
    // 45 min at 32 kbit/s is 10.8 MB: over the inline size too, so it is streamed, not held.
    const big = add(2700);
    // The recordings sync archives all three to the GCS archive.
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'transcription-long-sync',
      args: [{ account: 'acme', stream: 'recordings' }],
    });
    const archivedUri = await audioUri(archived);
    expect(archivedUri).toMatch(/^gs:\/\/callsync-audio\/archive\//);
    // One is treated as not archived (yet), and one's archived object is gone.
    await h.deps.warehouse.db
      .updateTable('recordings')
      .set({ audio_uri: null, audio_bytes: null, audio_md5: null, audio_archived_at: null })
      .where('account', '=', 'acme')
      .where('id', 'in', [staged, big])
      .execute();
    const missingUri = (await audioUri(missing))!;
    await storage.bucket('callsync-audio').file(missingUri.replace('gs://callsync-audio/', '')).delete();

    const downloadsBefore = await mp3Downloads();
    // Failed polls: the retried activity resumes the same operation and still removes the staged copy.
    google.failNext('GET', '/v1p1beta1/operations/', 500, 2);
    const first = await sweep(1);
    expect(first).toEqual({ transcribed: 4, capped: 0, skipped: 0, failed: 0, already: 0 });

    const started = google.speech.started();
    expect(started.map((s) => (s.request.audio as { uri?: string }).uri).sort()).toEqual(
      [
        archivedUri,
        `gs://callsync-staging/transcription/acme/${staged}.mp3`,
        `gs://callsync-staging/transcription/acme/${big}.mp3`,
        `gs://callsync-staging/transcription/acme/${missing}.mp3`,
      ].sort(),
    );
    for (const s of started) {
      const expected = (s.request.audio as { uri: string }).uri.endsWith(`/${big}.mp3`) ? 2700 : 90;
      expect(s.audioSeconds).toBeGreaterThan(expected - 1);
      expect(s.audioSeconds).toBeLessThan(expected + 1);
      expect((s.request.audio as { content?: unknown }).content).toBeFalsy();
    }
    for (const id of [archived, staged, big, missing]) {
      expect(monitors.get(id)!.row.transcript).toMatch(/^Speaker 1: thank you for calling/);
      expect(monitors.get(id)!.row.sentiment).toBe('positive');
    }

    const jobs = await h.deps.warehouse.db
      .selectFrom('transcription_jobs')
      .select(['recording_id', 'status', 'reason', 'audio_seconds'])
      .orderBy('recording_id')
      .execute();
    const byId = new Map(jobs.map((j) => [Number(j.recording_id), j]));
    expect(byId.get(archived)).toMatchObject({ status: 'done' });
    expect(byId.get(staged)).toMatchObject({ status: 'done' });
    // Counted against the cap with its real length, not the 60 s inline limit.
    expect(Number(byId.get(staged)!.audio_seconds)).toBeGreaterThan(89);
    expect(byId.get(big)).toMatchObject({ status: 'done' });
    expect(Number(byId.get(big)!.audio_seconds)).toBeGreaterThan(2699);
    expect(Number(byId.get(big)!.audio_seconds)).toBeLessThan(2701);
    expect(byId.get(missing)).toMatchObject({ status: 'done' });

    // The staged copy is gone; the archive keeps its object.
    const [stagedFiles] = await storage.bucket('callsync-staging').getFiles();
    expect(stagedFiles.map((f) => f.name)).toEqual([]);
    const [archivedExists] = await storage
      .bucket('callsync-audio')
      .file(archivedUri!.replace('gs://callsync-audio/', ''))
      .exists();
    expect(archivedExists).toBe(true);

    // The archive's object was read in place: only the three others were downloaded.
    expect(await mp3Downloads()).toBe(downloadsBefore + 3);

    // Nothing is recognised twice.
    const second = await sweep(2);
    expect(second).toEqual({ transcribed: 0, capped: 0, skipped: 0, failed: 0, already: 0 });
    expect(google.speech.started()).toHaveLength(4);
  });
});

describe('the local Speech-to-Text with audio.uri', () => {
  let google: FakeGoogleApps;
  let gcs: RunningFakeGcs;

  beforeAll(async () => {
    google = await startFakeGoogleApps();
    gcs = await startFakeGcs();
    google.speech.gcsEndpoint = gcs.endpoint;
    await new Storage({ apiEndpoint: gcs.endpoint, projectId: 'callsync-test' }).createBucket('stt');
  }, 60_000);

  afterAll(async () => {
    await gcs?.stop();
    await google?.close();
  });

  it("answers Google's NOT_FOUND for an object that does not exist", async () => {
    const speech = new GoogleSpeech(
      googleTranscriptionConfigSchema.parse({
        credentials: { serviceAccountJson: google.serviceAccount.json, selfSignedJwt: true },
        monthlyCapMinutes: 1,
        speechEndpoint: google.url,
        languageEndpoint: google.url,
      }) as GoogleTranscriptionConfig,
    );
    try {
      await expect(
        speech.start({ uri: 'gs://stt/transcription/acme/404.mp3' }, { sampleRateHertz: 48000, seconds: 90 }),
      ).rejects.toMatchObject({ code: 5, message: expect.stringMatching(/not found/i) });
    } finally {
      await speech.close();
    }
  });
});
