// Transcripts for recordings without one, on the real stack (emulator, Temporal, PostgreSQL) with the
// official Speech-to-Text and Natural Language clients pointed at the local Google: each recording is
// transcribed once (a failed poll resumes the same operation), PATCHed to the platform with speakers
// and sentiment, reaches the warehouse through the sync, and the monthly cap holds.
import { collectTranscriptionUsage } from '../../cli/commands/status-transcription';
import { syncStreamWorkflow, transcribeRecordingsWorkflow } from '../../contracts';
import { DEFAULT_NOW } from '../../emulator';
import { formatEpoch } from '../../emulator/data/calendar';
import { startFakeGoogleApps, type FakeGoogleApps } from '../fakes/google/apps-server';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(240_000);

describe('transcription with Google Speech-to-Text', () => {
  let google: FakeGoogleApps;
  let h: SyncHarness;

  beforeAll(async () => {
    google = await startFakeGoogleApps();
    h = await startSyncHarness({
      label: 'transcription-google',
      cdrs: 20,
      config: {
        transcription: {
          google: {
            credentials: { serviceAccountJson: google.serviceAccount.json, selfSignedJwt: true },
            languages: ['en-GB', 'de-DE'],
            speakers: { min: 2, max: 3 },
            monthlyCapMinutes: 1,
            maxAge: '400d',
            speechEndpoint: google.url,
            languageEndpoint: google.url,
          },
        },
      },
    });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    await google?.close();
  });

  const sync = (n: number) =>
    h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `transcription-sync-recordings-${n}`,
      args: [{ account: 'acme', stream: 'recordings' }],
    });
  const sweep = (n: number) =>
    h.client.workflow.execute(transcribeRecordingsWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `transcription-sweep-${n}`,
      args: [{ account: 'acme' }],
    });

  it('transcribes each recording without a transcript once, within the cap, and writes it back', async () => {
    const customer = h.emulator.admin.customer_id;
    const monitors = h.emulator.store.tables.monitors;
    // Seeded recordings keep their platform transcripts; five new ones have none.
    for (const m of monitors.query(customer, { page: 1, limit: 5000, filter: [] }).data) {
      if (!m.transcript) monitors.update(Number(m.id), { transcript: 'Agent: seeded' });
    }
    const createdAt = formatEpoch(Math.floor(DEFAULT_NOW.getTime() / 1000) - 3600);
    const add = (duration: number) =>
      Number(
        monitors.insert(customer, { created_at: createdAt, token: 'tok', duration, transcript: null }).id,
      );
    // 19 s of MP3 is 792 frames of 24 ms (19.008 s), counted as 20 s: three fit the 1-minute cap.
    const short = [add(19), add(19), add(19), add(19)];
    const long = add(90);
    await sync(1);

    // The first polls of the operations fail: the activity's retry resumes the same operations.
    google.failNext('GET', '/v1p1beta1/operations/', 500, 2);
    const first = await sweep(1);
    expect(first).toEqual({ transcribed: 3, capped: 1, skipped: 1, failed: 0, already: 0 });

    const started = google.speech.started();
    expect(started).toHaveLength(3);
    const config = started[0]!.request.config as Record<string, unknown>;
    expect(config).toMatchObject({
      languageCode: 'en-GB',
      alternativeLanguageCodes: ['de-DE'],
      sampleRateHertz: 48000,
      diarizationConfig: { enableSpeakerDiarization: true, minSpeakerCount: 2, maxSpeakerCount: 3 },
    });
    expect([8, 'MP3']).toContain(config.encoding);

    // Two run at once, so which short one the cap leaves out depends on which reserved first.
    const transcribed = short.filter((id) => monitors.get(id)!.row.transcript);
    const capped = short.filter((id) => !transcribed.includes(id));
    expect(transcribed).toHaveLength(3);
    const done = transcribed.map((id) => monitors.get(id)!.row);
    for (const m of done) {
      expect(m.transcript).toBe(
        'Speaker 1: thank you for calling how can I help\nSpeaker 2: great thanks I would like a quote please',
      );
      const speakers = JSON.parse(String(m.transcript_speakers)) as { speaker: string; start: number }[];
      expect(speakers.map((s) => s.speaker)).toEqual(['speaker 1', 'speaker 2']);
      expect(speakers[1]!.start).toBe(4);
      expect(m.sentiment).toBe('positive');
      expect(Number(m.cx_score)).toBeGreaterThan(50);
      expect(m.metadata).toMatchObject({ source: 'callsync', language: 'en-GB', speakers: 2 });
    }
    expect(capped).toHaveLength(1);
    expect(monitors.get(long)!.row.transcript).toBeNull();
    expect(google.language.analysed()).toHaveLength(3);

    // Again: nothing is transcribed twice, the capped one stays capped, the long one is not fetched again.
    const second = await sweep(2);
    expect(second).toEqual({ transcribed: 0, capped: 1, skipped: 0, failed: 0, already: 0 });
    expect(google.speech.started()).toHaveLength(3);

    const jobs = await h.deps.warehouse.db
      .selectFrom('transcription_jobs')
      .select(['recording_id', 'status', 'reason', 'audio_seconds'])
      .orderBy('recording_id')
      .execute();
    expect(jobs.map((j) => [Number(j.recording_id), j.status])).toEqual([
      ...transcribed.map((id) => [id, 'done']),
      [long, 'skipped'],
    ]);
    expect(jobs[3]!.reason).toMatch(/90 s: Speech-to-Text takes at most 60 s inline/);

    const usage = await collectTranscriptionUsage(h.deps.warehouse.db, h.config);
    expect(usage).toEqual([
      expect.objectContaining({
        account: 'acme',
        minutes: 1,
        capMinutes: 1,
        byStatus: { done: 3, skipped: 1 },
      }),
    ]);

    // The transcripts reach the warehouse through the recordings sync, like the platform's own.
    await sync(2);
    const rows = await h.deps.warehouse.db
      .selectFrom('recordings')
      .select(['id', 'transcript', 'sentiment'])
      .where('account', '=', 'acme')
      .where('id', 'in', transcribed)
      .execute();
    expect(rows).toHaveLength(3);
    for (const r of rows)
      expect(r).toMatchObject({ sentiment: 'positive', transcript: expect.stringMatching(/^Speaker 1:/) });
  });
});
