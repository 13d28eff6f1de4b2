// A chaos run: the stack (bench/chaos/stack.ts) under a CDR backfill, periodic incremental syncs
// and simulated calls at a steady rate, while workers are killed, a receiver, PostgreSQL and
// Temporal are restarted, and the platform, the webhooks and the CRM misbehave; then every fault
// is checked to have happened and everything is checked to have arrived exactly once.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { backfillWorkflow, backfillWorkflowId, syncStreamWorkflow } from '../../contracts';
import { DEFAULT_NOW } from '../../emulator';
import { checkEverything, findSecrets, type CheckResult, type PlacedCall } from './checks';
import {
  configureDelivery,
  control,
  countDeliveryAndCrmFaults,
  deliveriesIdle,
  deliveryLog,
  faultsOff,
  faultsOn,
  type FaultCounts,
} from './faults';
import { ACCOUNT, startChaosStack, type ChaosStack } from './stack';

export interface ChaosOptions {
  cdrs: number;
  /** Calls the simulator places, at `rate` per second. */
  calls: number;
  rate: number;
  seed: number;
  /** The whole run must end within this (it fails loudly otherwise). */
  deadlineSeconds: number;
  /** Keep the scratch directory (logs, databases) for a look afterwards. */
  keep: boolean;
}

export interface ChaosReport {
  /** The run's one-line result. */
  line: {
    bench: 'chaos';
    cdrs: number;
    calls: number;
    kills: number;
    restarts: number;
    faults: number;
    missing: number;
    duplicates: number;
    extra_crm_logs: number;
    lost_webhooks: number;
    secrets_in_logs: number;
    seconds: number;
  };
  faults: FaultCounts;
  detail: CheckResult['detail'];
  secretsFound: string[];
  /** Injected faults or chaos steps that never happened (an empty list when all did). */
  notHappened: string[];
}

const SCENARIOS = [
  'inbound_answered',
  'inbound_missed',
  'inbound_queue_answered',
  'outbound_answered',
  'inbound_queue_missed',
  'inbound_answered',
  'inbound_voicemail',
  'outbound_failed',
  'hold_unhold',
  'blind_transfer',
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** What the scenario runs in the background, and the switch that stops it before the stack closes. */
interface Background {
  abort: AbortController;
  tasks: Promise<unknown>[];
}

/** Waits for a workflow's result, across a restart of Temporal (the wait is only a client call). */
async function resultOf(
  stack: ChaosStack,
  bg: Background,
  workflowId: string,
  until: number,
): Promise<unknown> {
  for (;;) {
    try {
      return await stack.client.connection.withAbortSignal(bg.abort.signal, () =>
        stack.client.workflow.getHandle(workflowId).result(),
      );
    } catch (err) {
      if (err instanceof WorkflowFailedError || Date.now() > until || bg.abort.signal.aborted) throw err;
      await sleep(1000);
    }
  }
}

/** Starts a workflow, retrying while Temporal restarts; an already started one is fine. */
async function startWorkflow(bg: Background, start: () => Promise<unknown>, until: number): Promise<void> {
  for (;;) {
    try {
      await start();
      return;
    } catch (err) {
      if ((err as Error).name === 'WorkflowExecutionAlreadyStartedError') return;
      if (Date.now() > until || bg.abort.signal.aborted) throw err;
      await sleep(1000);
    }
  }
}

export async function runChaos(opts: ChaosOptions, say: (m: string) => void): Promise<ChaosReport> {
  const started = Date.now();
  let last = 'setting up';
  const log = (m: string) => {
    last = m;
    say(`${Math.round((Date.now() - started) / 1000)}s ${m}`);
  };
  const deadline = started + opts.deadlineSeconds * 1000;
  const scratch = mkdtempSync(join(tmpdir(), 'callsync-chaos-'));
  log(`scratch ${scratch}`);
  let stack: ChaosStack | undefined;
  let setup: Promise<ChaosStack> | undefined;
  const bg: Background = { abort: new AbortController(), tasks: [] };
  // Background waits end before the stack (and the client's connection) closes.
  const stopBackground = async () => {
    bg.abort.abort();
    await Promise.allSettled(bg.tasks);
  };
  let timer: NodeJS.Timeout | undefined;
  let clean = false;
  const overdue = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new Error(`chaos run passed its deadline of ${opts.deadlineSeconds} s; last step: ${last}`)),
      opts.deadlineSeconds * 1000,
    );
  });
  try {
    setup = startChaosStack({ cdrs: opts.cdrs, seed: opts.seed, scratch, log });
    stack = await Promise.race([setup, overdue]);
    const report = await Promise.race([scenario(stack, bg, opts, deadline, log), overdue]);
    await stopBackground();
    log('stopping every process');
    const s = stack;
    stack = undefined;
    setup = undefined;
    await s.close();
    report.secretsFound = findSecrets([...s.logFiles(), ...s.otherFiles()], s.secrets());
    report.line.secrets_in_logs = report.secretsFound.length;
    // The search itself is checked: the config file holds the platform password, the CRM token,
    // the webhook secret, the keys and the database password, and each must be found there.
    const control = findSecrets([s.configFile], s.secrets()).length;
    if (control < 6)
      report.notHappened.push(`secret search found ${control} of 6 secrets in the config file`);
    report.line.seconds = Math.round((Date.now() - started) / 100) / 10;
    const l = report.line;
    clean =
      report.notHappened.length === 0 &&
      l.missing + l.duplicates + l.extra_crm_logs + l.lost_webhooks + l.secrets_in_logs === 0;
    return report;
  } finally {
    clearTimeout(timer);
    await stopBackground();
    if (stack) await stack.close();
    // Past the deadline during setup: what the setup still starts is stopped once it has.
    else if (setup) await setup.then((s) => s.close()).catch(() => undefined);
    // A run that found a problem keeps its logs and databases for inspection.
    if (!opts.keep && clean) rmSync(scratch, { recursive: true, force: true });
    else if (!opts.keep) say(`kept ${scratch} (logs, databases) for inspection`);
  }
}

/** The last lines of a process's log, shortened, for a message. */
function logTail(file: string): string {
  try {
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-3);
    return lines.map((l) => l.slice(0, 400)).join(' | ');
  } catch {
    return '(log not readable)';
  }
}

async function scenario(
  stack: ChaosStack,
  bg: Background,
  opts: ChaosOptions,
  deadline: number,
  log: (m: string) => void,
): Promise<ChaosReport> {
  // The platform's webhook points at the balancer in front of both receivers.
  await control(stack, 'POST', '/webhooks', {
    name: 'callsync',
    categories: ['call_state_change'],
    url: `${stack.balancer.origin}/webhooks/${ACCOUNT}/${stack.webhookSecret}`,
  });
  await configureDelivery(stack, opts.seed);
  await control(stack, 'PATCH', '/simulator', { speed: 60, transcript_delay_s: 120, advance_clock: false });
  const faultIds = await faultsOn(stack, opts.seed);

  // The backfill of the whole history, and incremental syncs one after the other (a Schedule's job
  // in production), which also reconcile the calls whose webhooks were dropped.
  const backfillArgs = {
    account: ACCOUNT,
    stream: 'cdrs',
    from: day(DEFAULT_NOW.getTime() - 400 * 86_400_000),
    to: day(DEFAULT_NOW.getTime() + 2 * 86_400_000),
  };
  const backfillId = backfillWorkflowId(ACCOUNT, 'cdrs', backfillArgs.from, backfillArgs.to);
  await startWorkflow(
    bg,
    () =>
      stack.client.workflow.start(backfillWorkflow, {
        taskQueue: stack.config.temporal.taskQueue,
        workflowId: backfillId,
        args: [backfillArgs],
      }),
    deadline,
  );
  log(`backfill of ${opts.cdrs} CDRs started`);
  let backfillDone = false;
  let backfillError: unknown;
  const backfill = resultOf(stack, bg, backfillId, deadline).then(
    () => {
      backfillDone = true;
      log('backfill done');
    },
    (err: unknown) => (backfillError = err),
  );
  let syncing = true;
  let syncsAfterQuiet = 0;
  let quiet = false;
  const syncs = (async () => {
    for (let n = 1; syncing && !bg.abort.signal.aborted; n++) {
      const id = `chaos-sync-cdrs-${n}`;
      const wasQuiet = quiet;
      try {
        await startWorkflow(
          bg,
          () =>
            stack.client.workflow.start(syncStreamWorkflow, {
              taskQueue: stack.config.temporal.taskQueue,
              workflowId: id,
              args: [{ account: ACCOUNT, stream: 'cdrs' }],
            }),
          deadline,
        );
        await resultOf(stack, bg, id, deadline);
        if (wasQuiet) syncsAfterQuiet++;
      } catch (err) {
        // A sync that fails is a finding, not the end of the run: the checks show what it left.
        log(`sync ${id} failed: ${String(err)}`);
        if (Date.now() > deadline || bg.abort.signal.aborted) return;
      }
      await sleep(5000);
    }
  })();

  // Calls at a steady rate, from a pool of callers small enough that callers call again: at least
  // `calls`, and on until the last kill or restart is over, so that every one hits live traffic.
  const customer = stack.emulator.admin.customer_id;
  const numbers = stack.emulator.store.tables.contacts
    .query(customer, { page: 1, limit: 500, filter: [] })
    .data.map((c) => c.tel)
    .filter((t): t is string => typeof t === 'string' && /^\+\d{9,}$/.test(t))
    .slice(0, Math.max(3, Math.ceil(opts.calls / 4)));
  const placed: PlacedCall[] = [];
  let chaosOver = false;
  let lastEnd = Date.now();
  const placing = (async () => {
    const t0 = Date.now();
    for (let i = 0; (i < opts.calls || !chaosOver) && !bg.abort.signal.aborted; i++) {
      const p = (await control(stack, 'POST', '/simulator/calls', {
        scenario: SCENARIOS[i % SCENARIOS.length],
        caller: numbers[(i * 7) % numbers.length],
        recorded: i % 2 === 0,
      })) as PlacedCall & { ends_in_ms: number };
      placed.push({ call_id: p.call_id, scenario: p.scenario });
      lastEnd = Math.max(lastEnd, Date.now() + p.ends_in_ms);
      const due = t0 + ((i + 1) * 1000) / opts.rate;
      if (due > Date.now()) await sleep(due - Date.now());
    }
    log(`placed ${placed.length} calls`);
  })();
  bg.tasks.push(backfill, syncs, placing);

  // The chaos itself, spread over the time the calls take; each step waits for the one before.
  const windowMs = (opts.calls / opts.rate) * 1000;
  const t0 = Date.now();
  const at = async (fraction: number) => {
    const due = t0 + fraction * windowMs;
    if (due > Date.now()) await sleep(due - Date.now());
  };
  const kills: (NodeJS.Signals | null)[] = [];
  const killAndRestart = async (slot: 'a' | 'b') => {
    const signal = await stack.killWorker(slot);
    kills.push(signal);
    log(`worker ${slot} killed (${signal}); restarting it`);
    await sleep(1000);
    await stack.startWorker(slot);
  };
  let restarts = 0;
  await at(0.1);
  await killAndRestart('a');
  await at(0.25);
  log('restarting receiver b');
  await stack.restartReceiver('b');
  restarts++;
  await at(0.35);
  await killAndRestart('b');
  await at(0.5);
  log('restarting PostgreSQL');
  await stack.restartPostgres();
  restarts++;
  await at(0.6);
  await killAndRestart('a');
  await at(0.75);
  log('restarting the Temporal server');
  await stack.restartTemporal();
  restarts++;
  chaosOver = true;
  await placing;
  await sleep(Math.max(0, lastEnd - Date.now()) + 2000);

  // Faults off: what is left must now converge to exactly once.
  const platformFaults = await faultsOff(stack, faultIds);
  log(
    `faults off; waiting for deliveries, the backfill and the syncs (${Math.round((deadline - Date.now()) / 1000)} s left)`,
  );
  await deliveriesIdle(stack, 60_000);
  quiet = true;
  await backfill;
  if (backfillError)
    throw new Error(`the backfill failed: ${(backfillError as Error).message}`, { cause: backfillError });
  let check: CheckResult;
  let deliveries: Awaited<ReturnType<typeof deliveryLog>>;
  let rounds = 0;
  for (;;) {
    deliveries = await deliveryLog(stack);
    check = await checkEverything(stack, placed, deliveries);
    const clean =
      check.missing + check.duplicates + check.extra_crm_logs + check.lost_webhooks === 0 &&
      backfillDone &&
      syncsAfterQuiet >= 1;
    if (clean) break;
    if (++rounds % 6 === 0) log(`converging: ${JSON.stringify(check.detail)}`);
    if (Date.now() > deadline - 30_000) {
      log(`not converged before the deadline: ${JSON.stringify(check.detail)}`);
      break;
    }
    await sleep(5000);
  }
  syncing = false;
  await syncs;

  const faults = { ...platformFaults, ...countDeliveryAndCrmFaults(stack, deliveries) };
  const notHappened = Object.entries(faults)
    .filter(([, n]) => n === 0)
    .map(([name]) => name);
  if (kills.length !== 3 || kills.some((s) => s !== 'SIGKILL'))
    notHappened.push(`worker kills: ${kills.join(',')}`);
  if (new Set(stack.postgresPids).size !== 2)
    notHappened.push(`PostgreSQL restart: pids ${stack.postgresPids.join(',')}`);
  if (new Set(stack.temporalPids).size !== 2)
    notHappened.push(`Temporal restart: pids ${stack.temporalPids.join(',')}`);
  if (stack.receivers.b.length !== 2) notHappened.push('receiver restart');
  // A callsync process that ended by itself crashed: a finding, whatever the numbers say.
  for (const p of [...stack.workers.a, ...stack.workers.b, ...stack.receivers.a, ...stack.receivers.b]) {
    const dead = p.child.exitCode !== null || p.child.signalCode !== null;
    if (dead && !p.endedByHarness)
      notHappened.push(`${p.name} ended by itself (see ${p.logFile}); its last lines: ${logTail(p.logFile)}`);
  }
  return {
    line: {
      bench: 'chaos',
      cdrs: opts.cdrs,
      calls: placed.length,
      kills: kills.filter((s) => s === 'SIGKILL').length,
      restarts,
      faults: Object.values(faults).reduce((a, b) => a + b, 0),
      missing: check.missing,
      duplicates: check.duplicates,
      extra_crm_logs: check.extra_crm_logs,
      lost_webhooks: check.lost_webhooks,
      secrets_in_logs: 0,
      seconds: 0,
    },
    faults,
    detail: check.detail,
    secretsFound: [],
    notHappened,
  };
}
