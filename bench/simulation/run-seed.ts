// One seed of the simulation: a simulated call-centre day on a fresh stack (stack.ts), with the
// platform as messy as real ones (late CDRs and audio, pages newest first and capped, webhooks
// duplicated, reordered, dropped and redelivered hours late, faults), the receiver down for hours
// and the worker and receiver restarted mid-call; then the traffic stops, the faults stop, and the
// oracle checks every promise until they all hold or the deadline passes.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DAY_S, planDays, type PlannedCall, type PlannedDisruption, type PlannedSms } from './day-plan';
import type { LedgerCall } from './facts';
import type { DayClock } from './gather';
import { gatherFacts, PlatformAudio } from './gather';
import { judgeDay, type BrokenPromise } from './oracle';
import { platformNumbers, startSeedStack, type SeedStack, type SharedServices } from './stack';
import { storyOf } from './story';

export interface SeedOptions {
  seed: number;
  days: number;
  /** Calls a simulated day brings (callers calling again included). */
  callsPerDay: number;
  /** Real seconds a simulated day lasts. */
  dayRealSeconds: number;
  /** Longest the seed may take, setup and convergence included (real seconds). */
  deadlineSeconds: number;
  /** Keep the seed's directory (log, archive, config) even when it passes. */
  keep: boolean;
}

export interface SeedResult {
  seed: number;
  ok: boolean;
  seconds: number;
  calls: number;
  sms: number;
  missed: number;
  recordings: number;
  callbacks: number;
  /** Every promise still broken at the end (empty when the seed passed). */
  broken: BrokenPromise[];
  /** How often each real-world behaviour happened (a behaviour that never happened tested nothing). */
  happened: Record<string, number>;
  /** The first broken promise's story. */
  story?: string;
  dir: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The emulator's real-world settings for this seed (all of them off in every other test). */
async function makeTheWorldReal(stack: SeedStack, seed: number, speed: number): Promise<void> {
  const real = (simS: number) => Math.round((simS * 1000) / speed);
  await stack.control('POST', '/api', { default_order: 'desc', page_cap: 250 });
  await stack.control('POST', '/webhooks/settings', {
    timeout_ms: 5_000,
    // The platform retries over minutes (simulated), so an outage of hours outlasts its retries.
    retries: 3,
    backoff_ms: [real(5 * 60), real(10 * 60), real(20 * 60)],
    // After an outage the platform sends what it could not deliver again, hours later.
    redeliver_after_ms: real(4 * 3600),
  });
  await stack.control('POST', '/webhooks/faults', {
    duplicate_probability: 0.05,
    reorder_probability: 0.1,
    drop_probability: 0.03,
    late_probability: 0.03,
    late_delay_ms: [real(3600), real(4 * 3600)],
    seed,
  });
  for (const fault of [
    { route: '*', status: 500, probability: 0.01 },
    { route: '*', status: 503, probability: 0.01 },
    { route: '*', status: 429, retry_after_s: 1, probability: 0.01 },
    { route: '*', reset: true, probability: 0.005 },
  ])
    await stack.control('POST', '/faults', fault);
  stack.hubspot.randomFaults({ rate429: 0.01, rate5xx: 0.01, retryAfterSeconds: 1, seed });
}

/** How often each platform fault was applied (read before they are deleted, which forgets them). */
async function platformFaultCounts(stack: SeedStack): Promise<Record<string, number>> {
  const { faults } = (await stack.control('GET', '/faults')) as {
    faults: { applied: number; status?: number; reset?: boolean }[];
  };
  const out: Record<string, number> = {};
  for (const f of faults) {
    const name = f.reset ? 'platform_reset' : `platform_${f.status}`;
    out[name] = (out[name] ?? 0) + f.applied;
  }
  return out;
}

/** What the platform's world did: from the ledger and the webhook delivery log. */
async function worldCounts(stack: SeedStack, calls: readonly LedgerCall[]): Promise<Record<string, number>> {
  const { data } = (await stack.control('GET', '/webhooks/deliveries')) as {
    data: { fault: string | null }[];
  };
  const faults: Record<string, number> = {};
  for (const d of data) if (d.fault) faults[`webhook_${d.fault}`] = (faults[`webhook_${d.fault}`] ?? 0) + 1;
  const count = (p: (c: LedgerCall) => boolean) => calls.filter(p).length;
  return {
    ...faults,
    missed_legs: count((c) => c.legs_missed > 0 && c.connected),
    long_calls: count((c) => c.long || c.end - c.start > 2 * 3600),
    late_cdrs: count((c) => c.cdr_written_at !== null && c.cdr_written_at > c.end),
    late_audio: count(
      (c) => c.audio_ready_at !== null && c.recording_at !== null && c.audio_ready_at > c.recording_at,
    ),
    lost_audio: count((c) => c.audio_lost),
    api_calls: count((c) => c.from_api),
    crm_faults: stack.hubspot.requests.filter((r) => r.status === 429 || r.status >= 500).length,
  };
}

/** Everything back to normal: what is left must now converge. */
async function faultsOff(stack: SeedStack): Promise<void> {
  await stack.control('DELETE', '/faults');
  await stack.control('DELETE', '/webhooks/faults');
  stack.hubspot.randomFaults(null);
}

export async function runSeed(
  shared: SharedServices,
  opts: SeedOptions,
  say: (m: string) => void,
): Promise<SeedResult> {
  const started = Date.now();
  const speed = DAY_S / opts.dayRealSeconds;
  const log = (m: string) => say(`seed ${opts.seed} ${Math.round((Date.now() - started) / 1000)}s ${m}`);
  // The platform's clock starts now; its history ends two days before (history is not today's calls).
  const start = new Date(Math.floor(Date.now() / 1000) * 1000);
  const stack = await startSeedStack(
    shared,
    {
      seed: opts.seed,
      speed,
      start: new Date(start.getTime() - 2 * 86_400_000),
      historyCdrs: 1500,
      autoDial: opts.seed % 2 === 1,
      createUnknownContacts: opts.seed % 3 !== 0,
      // The policy gives up after eight simulated hours; audio may be missing for two.
      expireAfterMs: Math.round((8 * 3600 * 1000) / speed),
      audioGraceMs: Math.round((2 * 3600 * 1000) / speed) + 5_000,
      historyIntervalMs: Math.max(2_000, Math.round((20 * 60 * 1000) / speed)),
    },
    log,
  );
  let keepDir = opts.keep;
  try {
    // Let the first syncs read the history before the day starts.
    const known = platformNumbers(stack.emulator);
    const plan = planDays({
      seed: opts.seed,
      days: opts.days,
      callsPerDay: opts.callsPerDay,
      knownNumbers: known.slice(0, 60),
      unknownNumbers: Array.from(
        { length: 12 },
        (_, i) => `+4479460${String(opts.seed % 1000).padStart(3, '0')}${String(i).padStart(2, '0')}`,
      ),
    });
    await makeTheWorldReal(stack, opts.seed, speed);
    stack.emulator.store.clock.set(start);
    await stack.control('POST', '/simulator/start', {
      rate_per_minute: 0,
      speed,
      seed: opts.seed,
      advance_clock: true,
      drive_api_calls: true,
      api_answer_rate: 0.7,
      transcript_delay_s: 600,
      recorded_share: 0.6,
      cdr_delay_s: [30, 900],
      recording_delay_s: [60, 1200],
      audio_delay_s: [0, 1800],
      audio_lost_share: 0.08,
      missed_leg_share: 0.5,
    });
    const clock: DayClock = { speed, realAt: Date.now(), platformAt: start.getTime() };
    log(`day of ${plan.traffic.length} calls and messages at ${Math.round(speed)}x`);
    const happened: Record<string, number> = {};
    await playDay(stack, clock, plan.traffic, plan.disruptions, log, happened);

    log('traffic over; waiting for the last calls to end');
    await waitForCallsToEnd(stack, started + opts.deadlineSeconds * 1000);
    Object.assign(happened, await platformFaultCounts(stack));
    await faultsOff(stack);
    await stack.control('POST', '/webhooks/deliveries/wait', { timeout_ms: 60_000 });

    const audio = new PlatformAudio(stack);
    const deadline = started + opts.deadlineSeconds * 1000;
    let broken: BrokenPromise[] = [];
    let facts;
    for (let round = 1; ; round++) {
      facts = await gatherFacts(stack, clock, audio, stack.crmContacts);
      broken = judgeDay(facts);
      if (broken.length === 0 || broken[0]!.final || Date.now() > deadline) break;
      if (round % 10 === 0)
        log(`converging: ${broken.length} promises not kept yet, first: ${broken[0]!.detail}`);
      await sleep(2000);
    }
    const calls = facts.ledger.calls;
    const result: SeedResult = {
      seed: opts.seed,
      ok: broken.length === 0,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      calls: calls.length,
      sms: facts.ledger.sms.length,
      missed: calls.filter((c) => !c.connected && c.direction === 'in').length,
      recordings: calls.filter((c) => c.recording_id !== null).length,
      callbacks: facts.crm.tasks.length,
      broken,
      happened: { ...happened, ...(await worldCounts(stack, calls)) },
      dir: stack.dir,
    };
    if (!result.ok) {
      keepDir = true;
      writeFileSync(join(stack.dir, 'broken.json'), JSON.stringify(broken, null, 2));
      result.story = await storyOf(stack, clock, broken[0]!).catch(
        (e: unknown) => `(story failed: ${String(e)})`,
      );
    }
    return result;
  } finally {
    await stack.close();
    if (!keepDir) rmSync(stack.dir, { recursive: true, force: true });
  }
}

/** Places the day's traffic at its times and disturbs the stack at its times. */
async function playDay(
  stack: SeedStack,
  clock: DayClock,
  traffic: readonly (PlannedCall | PlannedSms)[],
  disruptions: readonly PlannedDisruption[],
  log: (m: string) => void,
  happened: Record<string, number>,
): Promise<void> {
  const bump = (k: string) => (happened[k] = (happened[k] ?? 0) + 1);
  const realOf = (at: number) => clock.realAt + (at * 1000) / clock.speed;
  const background: Promise<void>[] = [];
  const events = [...traffic, ...disruptions].sort((a, b) => a.at - b.at);
  for (const e of events) {
    const wait = realOf(e.at) - Date.now();
    if (wait > 0) await sleep(wait);
    if (e.kind === 'call') {
      await stack.control('POST', '/simulator/calls', {
        scenario: e.scenario,
        caller: e.number,
        ...(e.talkS !== undefined ? { talk_s: e.talkS } : {}),
      });
    } else if (e.kind === 'sms') {
      await stack.control('POST', '/simulator/sms', { from: e.number });
    } else if (e.kind === 'outage') {
      log(`receiver down for ${Math.round((e.durationS ?? 0) / 3600)} simulated hours`);
      await stack.stopReceiver();
      bump('outages');
      const back = realOf(e.at + (e.durationS ?? 0));
      background.push(
        sleep(Math.max(0, back - Date.now())).then(async () => {
          await stack.startReceiver();
          log('receiver back');
        }),
      );
    } else if (e.kind === 'worker_restart') {
      log('restarting the worker mid-call');
      bump('worker_restarts');
      background.push(stack.stopWorker().then(() => stack.startWorker()));
    } else {
      log('restarting the receiver mid-call');
      background.push(
        (async () => {
          if (!stack.receiverRunning()) return;
          bump('receiver_restarts');
          await stack.stopReceiver();
          await stack.startReceiver();
        })(),
      );
    }
  }
  await Promise.all(background);
}

/** Waits until the simulator plays no call and every call's last write has happened. */
export async function waitForCallsToEnd(stack: SeedStack, deadline: number): Promise<void> {
  for (;;) {
    const status = (await stack.control('GET', '/simulator')) as { active: number };
    const ledger = (await stack.control('GET', '/simulator/ledger')) as { pending: number };
    if (status.active === 0 && ledger.pending === 0) return;
    if (Date.now() > deadline)
      throw new Error(`calls still playing at the deadline (${status.active} active)`);
    await sleep(500);
  }
}
