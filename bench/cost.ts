// What callsync costs on Temporal Cloud, in Actions: a fixed mix of one account's traffic (connected
// calls with recordings and transcripts, missed calls whose callbacks the caller's next call closes,
// voicemails, SMS) on the call-centre simulation's real stack, then an idle period with no traffic.
// Afterwards every workflow history is read and counted by the rules in bench/cost/action-rules.ts.
// Prints ONE JSON line on stdout; progress goes to stderr. See docs/benchmarks.md, "Cost in Actions".
//
//   npm run bench:cost -- [--connected 10] [--missed 5] [--sms 3] [--voicemail 2] [--idle-hours 2]
//                         [--speed 100] [--settle-seconds 120]
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { callerKey } from '../lib/caller-key';
import { callWorkflowId } from '../contracts/call-lifecycle';
import { callbackWorkflowId } from '../contracts/callback';
import { smsReceivedWorkflowId } from '../contracts/conversations';
import { screenPopWorkflowId } from '../contracts/screen-pop';
import { workflowIdKey } from '../lib/encryption-keys';
import {
  ACTION_RULES,
  add,
  countHistory,
  mergeCounts,
  sumActions,
  type ActionCounts,
  type RuleId,
} from './cost/action-rules';
import { installHeartbeatMeter } from './cost/heartbeats';
import { waitForCallsToEnd } from './simulation/run-seed';
import { chains, readRuns, type Chain } from './cost/histories';
import { planMix, playMix, type PlacedCall } from './cost/mix';
import { eventMs, projectCallback, projectCallWorkflow } from './cost/projection';
import {
  platformNumbers,
  startSeedStack,
  startSharedServices,
  ACCOUNT,
  type SeedStack,
} from './simulation/stack';

const { values: args } = parseArgs({
  options: {
    connected: { type: 'string', default: '10' },
    missed: { type: 'string', default: '5' },
    sms: { type: 'string', default: '3' },
    voicemail: { type: 'string', default: '2' },
    'idle-hours': { type: 'string', default: '2' },
    speed: { type: 'string', default: '100' },
    'settle-seconds': { type: 'string', default: '120' },
  },
});
const counts = {
  connected: Number(args.connected),
  missed: Number(args.missed),
  sms: Number(args.sms),
  voicemail: Number(args.voicemail),
};
const idleHours = Number(args['idle-hours']);
const speed = Number(args.speed);
const settleSeconds = Number(args['settle-seconds']);
/** One simulated hour, in real ms. */
const HOUR = 3_600_000 / speed;

const began = Date.now();
const say = (m: string): void => {
  process.stderr.write(`[cost ${Math.round((Date.now() - began) / 1000)}s] ${m}\n`);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number): number => Math.round(n * 10) / 10;
const wholeSeconds = (ms: number): number => Math.round(ms / 1000) * 1000;

/** Actions, events and workflow tasks of a set of chains (projections of open ones included). */
interface Tally {
  actions: ActionCounts;
  projected: number;
  events: number;
  workflowTasks: number;
  byType: Record<string, number>;
}

const emptyTally = (): Tally => ({ actions: {}, projected: 0, events: 0, workflowTasks: 0, byType: {} });

/** Waits until no workflow of `types` is open, or the deadline; returns how many are still open. */
async function settle(stack: SeedStack, types: readonly string[], deadline: number): Promise<number> {
  const query = `ExecutionStatus = "Running" AND WorkflowType IN (${types.map((t) => `"${t}"`).join(', ')})`;
  for (;;) {
    let open = 0;
    for await (const _ of stack.client.workflow.list({ query })) open++;
    if (open === 0 || Date.now() > deadline) return open;
    await sleep(2000);
  }
}

async function main(): Promise<void> {
  const meter = await installHeartbeatMeter();
  const shared = await startSharedServices(say);
  const start = new Date(Math.floor(Date.now() / 1000) * 1000);
  const stack = await startSeedStack(
    shared,
    {
      seed: 29,
      speed,
      start: new Date(start.getTime() - 2 * 86_400_000),
      historyCdrs: 50,
      autoDial: false,
      createUnknownContacts: true,
      // A callback the caller's next call does not close expires two simulated hours after the miss.
      expireAfterMs: Math.round(2 * HOUR),
      audioGraceMs: Math.round(HOUR),
      // The product's default intervals (sync.historyInterval 5 min, sync.settingsInterval 1 h),
      // compressed like the day, in whole seconds: a Schedule's interval is whole seconds (2.5 s
      // ran every 2 s). The default speed, 100, makes them 3 s and 36 s.
      historyIntervalMs: wholeSeconds(Math.max(2_000, HOUR / 12)),
      settingsIntervalMs: wholeSeconds(HOUR),
    },
    say,
  );
  try {
    await report(stack, meter, start);
  } finally {
    await stack.close();
    rmSync(stack.dir, { recursive: true, force: true });
    await shared.close();
  }
}

async function report(
  stack: SeedStack,
  meter: Awaited<ReturnType<typeof installHeartbeatMeter>>,
  start: Date,
): Promise<void> {
  stack.emulator.store.clock.set(start);
  await stack.control('POST', '/simulator/start', {
    rate_per_minute: 0,
    speed,
    seed: 29,
    advance_clock: true,
    drive_api_calls: true,
    transcript_delay_s: 600,
  });
  const plan = planMix(counts, platformNumbers(stack.emulator));
  const trafficStart = Date.now();
  const hbTraffic = await meter.read();
  say(`playing ${plan.length} calls and messages over ${Math.ceil(plan.at(-1)!.at / 3600)} simulated hours`);
  const placed = await playMix(stack, plan, speed, say);
  await waitForCallsToEnd(stack, Date.now() + 10 * 60_000);
  // The syncs read what the last calls left (CDRs, recordings, transcripts) before the idle period.
  await sleep(2 * wholeSeconds(Math.max(2_000, HOUR / 12)));
  const idleStart = Date.now();
  const hbIdleStart = await meter.read();
  say(`idle for ${idleHours} simulated hours`);
  await sleep(idleHours * HOUR);
  const idleEnd = Date.now();
  const hbIdleEnd = await meter.read();
  const followTypes = ['callLifecycle', 'callback', 'screenPop', 'smsReceived'];
  const stillOpen = await settle(stack, followTypes, Date.now() + settleSeconds * 1000);
  say(`${stillOpen} call, callback and SMS workflows still open (their remaining schedule is projected)`);
  const end = Date.now();
  const runs = await readRuns(stack.client, say);
  say(`read ${runs.length} histories`);

  // Which workflows follow which call or SMS of the mix.
  const idKey = workflowIdKey(stack.config.temporal);
  const owner = new Map<string, { kind: PlacedCall['kind'] | 'sms' }>();
  for (const c of placed.calls) {
    owner.set(callWorkflowId(ACCOUNT, c.callId), c);
    owner.set(screenPopWorkflowId(ACCOUNT, c.callId), c);
    if (c.kind === 'missed' || c.kind === 'voicemail')
      owner.set(callbackWorkflowId(ACCOUNT, callerKey(idKey, ACCOUNT, c.number)), c);
  }
  for (const s of placed.sms) owner.set(smsReceivedWorkflowId(ACCOUNT, s.eventId), { kind: 'sms' });

  const horizonMs = stack.config.calls.recordingHorizon;
  const unprojected: Record<string, number> = {};
  const tallyOf = (cs: readonly Chain[]): Tally => {
    const t = emptyTally();
    for (const c of cs) {
      const actions: ActionCounts = {};
      for (const r of c.runs) {
        mergeCounts(actions, r.count.actions);
        t.events += r.count.events;
        t.workflowTasks += r.count.workflowTasks;
      }
      if (c.open) {
        const projected =
          c.type === 'callLifecycle'
            ? projectCallWorkflow(c, horizonMs, end)
            : c.type === 'callback'
              ? projectCallback()
              : null;
        if (projected) {
          t.projected += sumActions(projected);
          mergeCounts(actions, projected);
        } else {
          unprojected[c.type] = (unprojected[c.type] ?? 0) + 1;
          say(`open at the end, counted so far only: ${c.type} ${c.workflowId}`);
        }
      }
      mergeCounts(t.actions, actions);
      t.byType[c.type] = (t.byType[c.type] ?? 0) + sumActions(actions);
    }
    return t;
  };
  const all = chains(runs);
  const ownedBy = (kinds: readonly string[]) =>
    all.filter((c) => kinds.includes(owner.get(c.workflowId)?.kind ?? ''));
  const background = all.filter((c) => !owner.has(c.workflowId));
  const connected = tallyOf(ownedBy(['connected', 'callback_reached']));
  const missed = tallyOf(ownedBy(['missed']));
  const voicemail = tallyOf(ownedBy(['voicemail']));
  const sms = tallyOf(ownedBy(['sms']));
  // The background (the account's sync loop, and schedules' workflows) by what happened when: the
  // events of each window, wherever their runs began (a loop runs through both windows).
  const windowTally = (from: number, to: number): Tally => {
    const t = emptyTally();
    for (const c of background)
      for (const r of c.runs) {
        const inWindow = r.events.filter((e) => {
          const at = eventMs(e.eventTime);
          return at >= from && at < to;
        });
        if (inWindow.length === 0) continue;
        const count = countHistory(inWindow);
        mergeCounts(t.actions, count.actions);
        t.events += count.events;
        t.workflowTasks += count.workflowTasks;
        t.byType[c.type] = (t.byType[c.type] ?? 0) + count.total;
      }
    return t;
  };
  const mixBackground = windowTally(trafficStart, idleStart);
  const idle = windowTally(idleStart, idleEnd);

  const heartbeats = { mix: hbIdleStart - hbTraffic, idle: hbIdleEnd - hbIdleStart };
  const calls = { connected: 0, missed: 0, voicemail: 0 };
  for (const c of placed.calls) calls[c.kind === 'callback_reached' ? 'connected' : c.kind]++;
  const mixCalls = calls.connected + calls.missed + calls.voicemail;

  const combine = (...ts: Tally[]): Tally => {
    const out = emptyTally();
    for (const t of ts) {
      mergeCounts(out.actions, t.actions);
      out.projected += t.projected;
      out.events += t.events;
      out.workflowTasks += t.workflowTasks;
      for (const [k, v] of Object.entries(t.byType)) out.byType[k] = (out.byType[k] ?? 0) + v;
    }
    return out;
  };
  const callTally = combine(connected, missed, voicemail);
  const mix = combine(callTally, sms, mixBackground);
  add(mix.actions, 'activity_heartbeat', heartbeats.mix);
  add(idle.actions, 'activity_heartbeat', heartbeats.idle);
  const per = (t: Tally, n: number): number => (n > 0 ? round(sumActions(t.actions) / n) : 0);
  const idleActions = sumActions(idle.actions);
  // The idle account-day: what the idle period's background did (the sync loop's turns, any
  // schedule's executions), and the heartbeats that reached the server, scaled to 24 hours.
  const idleDay = (idleActions * 24) / idleHours;
  const byRule = (a: ActionCounts) =>
    Object.fromEntries(
      (Object.keys(ACTION_RULES) as RuleId[]).filter((r) => a[r] !== undefined).map((r) => [r, a[r]]),
    );

  const result = {
    bench: 'cost',
    actions_per_connected_call: per(connected, calls.connected),
    actions_per_missed_call: per(missed, calls.missed),
    actions_per_voicemail: per(voicemail, calls.voicemail),
    actions_per_sms: per(sms, placed.sms.length),
    actions_per_idle_account_day: round(idleDay),
    actions_per_idle_account_month: Math.round(idleDay * 30),
    history_events_per_call: round(callTally.events / mixCalls),
    workflow_tasks_per_call: round(callTally.workflowTasks / mixCalls),
    mix_calls: mixCalls,
    mix_connected: calls.connected,
    mix_missed: calls.missed,
    mix_voicemail: calls.voicemail,
    mix_sms: placed.sms.length,
    mix_actions: sumActions(mix.actions),
    mix_history_events: mix.events,
    mix_workflow_tasks: mix.workflowTasks,
    mix_heartbeat_actions: heartbeats.mix,
    projected_actions: {
      mix: mix.projected,
      per_connected_call: round(connected.projected / Math.max(1, calls.connected)),
      per_missed_call: round(missed.projected / Math.max(1, calls.missed)),
      per_voicemail: round(voicemail.projected / Math.max(1, calls.voicemail)),
    },
    open_unprojected: unprojected,
    idle: {
      hours_measured: idleHours,
      actions: idleActions,
      heartbeat_actions: heartbeats.idle,
      history_events: idle.events,
      workflow_tasks: idle.workflowTasks,
    },
    breakdown: {
      mix: { by_rule: byRule(mix.actions), by_workflow_type: mix.byType },
      per_kind: {
        connected: byRule(connected.actions),
        missed: byRule(missed.actions),
        voicemail: byRule(voicemail.actions),
        sms: byRule(sms.actions),
      },
      idle: { by_rule: byRule(idle.actions), by_workflow_type: idle.byType },
    },
    speed,
    seconds: Math.round((Date.now() - began) / 1000),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    say(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
