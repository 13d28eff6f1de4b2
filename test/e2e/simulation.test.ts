// The call-centre simulation (bench/simulation/, `npm run simulate` for many seeds) for three fixed
// seeds: each a short simulated day on the real stack, as late, duplicated, reordered and lossy as
// real platforms are, with the receiver down for hours and the worker and receiver restarted
// mid-call. Every promise the oracle checks must hold at the end of every seed; a failing seed
// prints its first broken promise with the call's story.
import { runSeed, type SeedResult } from '../../bench/simulation/run-seed';
import { startSharedServices, type SharedServices } from '../../bench/simulation/stack';

// Each seed: about half a minute on a quiet machine; its own deadline fails it first, with its story.
jest.setTimeout(900_000);

const SEEDS = [1, 2, 3];

describe('call-centre simulation', () => {
  let shared: SharedServices;
  const results = new Map<number, SeedResult>();

  beforeAll(async () => {
    shared = await startSharedServices((m) => process.stderr.write(`[simulation] ${m}\n`), {
      bundlePath: process.env.CALLSYNC_TEST_WORKFLOW_BUNDLE,
    });
  }, 300_000);

  afterAll(async () => {
    await shared?.close();
  });

  it.each(SEEDS)('seed %i keeps every promise', async (seed) => {
    const r = await runSeed(
      shared,
      { seed, days: 1, callsPerDay: 50, dayRealSeconds: 20, deadlineSeconds: 240, keep: false },
      (m) => process.stderr.write(`[simulation] ${m}\n`),
    );
    results.set(seed, r);
    // On failure the first broken promise and its story say where to look.
    expect({
      seed,
      broken: r.broken.map((b) => `${b.promise}: ${b.detail}`),
      story: r.story ?? null,
    }).toEqual({
      seed,
      broken: [],
      story: null,
    });
    // The day really was a day: calls, missed callers, recordings, callbacks.
    expect(r.calls).toBeGreaterThan(30);
    expect(r.missed).toBeGreaterThan(2);
    expect(r.recordings).toBeGreaterThan(2);
    expect(r.callbacks).toBeGreaterThan(0);
  });

  it('made the world as messy as real platforms are', () => {
    expect([...results.keys()].sort()).toEqual(SEEDS);
    const total: Record<string, number> = {};
    for (const r of results.values())
      for (const [k, n] of Object.entries(r.happened)) total[k] = (total[k] ?? 0) + n;
    const behaviours = [
      'outages',
      'worker_restarts',
      'receiver_restarts',
      'platform_500',
      'platform_503',
      'platform_429',
      'webhook_duplicate',
      'webhook_reordered',
      'webhook_dropped',
      'webhook_redelivered',
      'missed_legs',
      'long_calls',
      'late_cdrs',
      'late_audio',
      'lost_audio',
      'api_calls',
      'crm_faults',
    ];
    // Each by name, so a behaviour that never happened is named.
    expect(behaviours.filter((b) => !((total[b] ?? 0) > 0))).toEqual([]);
    expect((total.webhook_late ?? 0) + (total.webhook_late_copy ?? 0)).toBeGreaterThan(0);
  });
});
