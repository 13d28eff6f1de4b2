// The audio archive of the recordings sync, as the world is: audio that 404s for a while after
// hangup, a stream whose pages fail while audio waits to be archived, and a backlog larger than one
// run of the workflow can hold in its history. Real emulator, Temporal, PostgreSQL and worker.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { WorkflowFailedError } from '@temporalio/client';
import { sql } from 'kysely';
import { syncStreamWorkflow, type SyncStreamInput } from '../../contracts';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(240_000);

const MP3_ROUTE = 'GET /monitors/{id}.mp3';

async function md5Of(stream: NodeJS.ReadableStream): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

describe('audio archive when audio comes late, pages fail, and the backlog is large', () => {
  let h: SyncHarness;
  let runs = 0;

  beforeAll(async () => {
    // The default archive.missingAudioGrace: 24 h after the first 404.
    h = await startSyncHarness({ label: 'audio-archive', cdrs: 2500 });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
  });

  const control = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
    (await (
      await fetch(`${h.emulator.origin}/_emulator/${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    ).json()) as Record<string, unknown>;
  const mp3Requests = async () =>
    ((await control('GET', 'stats')) as { by_route: Record<string, number> }).by_route[MP3_ROUTE] ?? 0;
  const audioRows = () =>
    h.deps.warehouse.db
      .selectFrom('recordings')
      .selectAll()
      .where('account', '=', 'acme')
      .orderBy('id')
      .execute();
  /** Rows whose audio is archived (the archive reaches the last ten days of recordings, see the harness). */
  const archivedIds = async () =>
    (await audioRows()).filter((r) => r.audio_archived_at !== null).map((r) => r.id);
  const syncRecordings = (extra: Partial<SyncStreamInput> = {}) =>
    h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `sync-audio-archive-${++runs}`,
      args: [{ account: 'acme', stream: 'recordings', ...extra }],
    });
  /** The run a run continued as new into; undefined for a run that completed. */
  const continuedInto = async (workflowId: string, runId: string): Promise<string | undefined> => {
    const events = (await h.client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
    const last = events.at(-1);
    const next = last?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
    if (!next) expect(last?.workflowExecutionCompletedEventAttributes).toBeTruthy();
    return next ?? undefined;
  };
  /** Rows whose archive never happened (a run terminated before it got there): no file, no row state. */
  const unarchive = async (ids: number[]) => {
    for (const r of (await audioRows()).filter((row) => ids.includes(row.id))) {
      if (r.audio_uri) await unlink(fileURLToPath(r.audio_uri));
    }
    await h.deps.warehouse.db
      .updateTable('recordings')
      .set({ audio_uri: null, audio_bytes: null, audio_md5: null, audio_archived_at: null })
      .where('account', '=', 'acme')
      .where('id', 'in', ids)
      .execute();
  };

  it('archives a backlog larger than one run across continue-as-new runs, each file once', async () => {
    // The first sync of the stream: every recording of the archive's window is waiting.
    const before = await mp3Requests();
    const workflowId = `sync-audio-archive-${++runs}`;
    const handle = await h.client.workflow.start(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId,
      // Three files an activity, two activities a run.
      args: [{ account: 'acme', stream: 'recordings', archiveBatch: 3, archiveCallsPerRun: 2 }],
    });
    const result = await handle.result();
    const archived = await archivedIds();
    expect(archived.length).toBeGreaterThan(12);
    // The chain of runs: each continued as new into the next, the last one completed.
    const chain: string[] = [];
    for (let runId: string | undefined = handle.firstExecutionRunId; runId !== undefined;) {
      chain.push(runId);
      runId = await continuedInto(workflowId, runId);
    }
    expect(chain.length).toBeGreaterThanOrEqual(Math.ceil(archived.length / 6));
    // Totals carried from run to run; each file downloaded once (no run started again from the top).
    expect(result.audioArchived).toBe(archived.length);
    expect((await mp3Requests()) - before).toBe(archived.length);
  });

  it('archives the backlog when reading the stream fails, and the run still fails', async () => {
    const pending = (await archivedIds()).slice(0, 6);
    await unarchive(pending);
    // The platform refuses the recordings list (a permission taken away): the page fails for good.
    await control('POST', 'faults', { route: 'GET /monitors', status: 403 });
    const failed = syncRecordings();
    await expect(failed).rejects.toBeInstanceOf(WorkflowFailedError);
    await control('DELETE', 'faults');
    expect(await archivedIds()).toEqual(expect.arrayContaining(pending));
    const { rows } = await sql<{ status: string; error: string }>`
      select status, error from sync_runs where stream = 'recordings' order by id desc limit 1`.execute(
      h.deps.warehouse.db,
    );
    expect(rows[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/403/) });
  });

  it('archives audio that 404s on the first run and exists on a later run, with its checksum', async () => {
    const late = (await archivedIds()).slice(0, 8);
    await unarchive(late);
    await control('POST', 'faults', { route: MP3_ROUTE, status: 404 });
    const first = await syncRecordings();
    expect(first.audioArchived).toBe(0);
    const waiting = (await audioRows()).filter((r) => late.includes(r.id));
    for (const r of waiting) expect(r).toMatchObject({ audio_uri: null, audio_lost_at: null });

    // The platform has the audio now.
    await control('DELETE', 'faults');
    const second = await syncRecordings();
    expect(await archivedIds()).toEqual(expect.arrayContaining(late));
    expect(second.audioArchived).toBe(late.length);
    const rows = (await audioRows()).filter((r) => late.includes(r.id));
    for (const r of rows) expect(r).toMatchObject({ audio_lost_at: null, audio_missing_since: null });
    expect(waiting.every((r) => r.audio_missing_since instanceof Date)).toBe(true);
    for (const r of rows.slice(0, 3)) {
      const source = await h.deps.platform('acme').history.monitors.mp3(r.id);
      const expected = await md5Of(source.body);
      expect(r.audio_md5).toBe(expected);
      expect(await md5Of(createReadStream(fileURLToPath(r.audio_uri!)))).toBe(expected);
    }
  });

  it('marks audio that keeps 404ing past archive.missingAudioGrace as lost, with the reason', async () => {
    const [gone, late] = await archivedIds();
    await unarchive([gone!, late!]);
    await control('POST', 'faults', { route: MP3_ROUTE, status: 404 });
    await syncRecordings();
    // A day goes by for one of them: its first 404 was 25 hours ago.
    await h.deps.warehouse.db
      .updateTable('recordings')
      .set({ audio_missing_since: sql<Date>`now() - interval '25 hours'` })
      .where('account', '=', 'acme')
      .where('id', '=', gone!)
      .execute();
    await syncRecordings();
    await control('DELETE', 'faults');
    const byId = new Map((await audioRows()).map((r) => [r.id, r]));
    expect(byId.get(gone!)!.audio_lost_at).toBeInstanceOf(Date);
    expect(byId.get(gone!)!.audio_lost_reason).toMatch(
      /^the platform answered 404 for the \.mp3: .*\(first answered \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, past archive\.missingAudioGrace\)$/,
    );
    expect(byId.get(late!)).toMatchObject({ audio_lost_at: null, audio_uri: null });
    expect(byId.get(late!)!.audio_missing_since).toBeInstanceOf(Date);
  });
});
