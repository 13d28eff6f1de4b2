// Vendor limits shared by every worker: three real worker processes (`callsync worker
// --vendor-queues-only`, which skip bundling workflows; the test process runs the workflows and a
// fourth CRM worker) write callback tasks to the HubSpot test server. Each process alone would allow
// itself the whole per-10-second limit, but every request holds a place in the same sliding window
// in PostgreSQL (vendor_rate_windows) until its answer, so the limit holds for all together.
import { join } from 'node:path';
import { callbackWorkflow, callbackWorkflowId, missedCallSignal } from '../../contracts';
import { stopChild } from '../../lib/child-process';
import { eventually } from '../support/eventually';
import { maxInWindow } from '../support/sliding-window';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { startSyncHarness, type SyncHarness } from './sync-harness';
import { spawnWorker, type WorkerProcess } from './worker-process';

// The lowest limit callsync accepts: 30 callbacks in six waves take more requests than one window allows.
const LIMIT_PER_10S = 10;
const CALLBACKS = 30;

describe('HubSpot limit shared by three worker processes', () => {
  let fake: FakeHubSpot;
  let h: SyncHarness;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    fake = await startFakeHubSpot();
    h = await startSyncHarness({
      label: 'shared-limit',
      cdrs: 10,
      config: {
        crm: {
          destination: {
            type: 'hubspot',
            accessToken: fake.token,
            basePath: fake.url,
            requestsPer10Seconds: LIMIT_PER_10S,
          },
        },
      },
    });
    const args = [join(__dirname, '../../cli/main.ts'), 'worker', '--vendor-queues-only'];
    workers.push(...(await Promise.all([1, 2, 3].map(() => spawnWorker(h.configFile, 120_000, args)))));
  }, 240_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => stopChild(w.child)));
    await h?.close();
    await fake?.close();
  }, 60_000);

  it('never exceeds the per-10-second limit in any window, all workers together', async () => {
    const started = Date.now();
    for (let i = 0; i < CALLBACKS; i++) {
      // In waves longer than a batch waits (crm.batchWait), so batching cannot fold the whole load
      // into one window's worth of requests: the limit has to hold it back.
      if (i > 0 && i % 5 === 0) await new Promise((r) => setTimeout(r, 1500));
      const number = `+4420794601${String(i).padStart(2, '0')}`;
      await h.client.workflow.signalWithStart(callbackWorkflow, {
        workflowId: callbackWorkflowId('acme', number),
        taskQueue: h.taskQueue,
        args: [{ account: 'acme', number }],
        signal: missedCallSignal,
        signalArgs: [{ callId: 900 + i, at: new Date().toISOString(), calledUserId: null, queueId: null }],
      });
    }
    await eventually(
      async () => (fake.objects('tasks').length >= CALLBACKS ? true : undefined),
      'all callback tasks in HubSpot',
      120_000,
    );
    expect(fake.objects('tasks')).toHaveLength(CALLBACKS);
    const times = fake.requests.filter((r) => r.at >= started).map((r) => r.at);
    // The load is larger than one window allows, so the limit had to hold it back.
    expect(times.length).toBeGreaterThan(LIMIT_PER_10S);
    // Stamped when the test server's event loop gets to each request, which may be late on a loaded
    // machine; every stamp still comes before the request's answer, and a place frees a window after
    // the answer, so not one request over (a limit each process kept alone would let 3 to 4 times it through).
    expect(maxInWindow(times, 10_000)).toBeLessThanOrEqual(LIMIT_PER_10S);
    expect(fake.requests.filter((r) => r.status === 429)).toHaveLength(0);
    for (const w of workers) expect(w.child.exitCode).toBeNull();
  }, 180_000);
});
