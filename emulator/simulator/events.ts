// Webhook event bodies of a planned call (spec Events, "Call event body"), in the order of the call-state
// table, and the SMS received event. Also the pure generators the benchmarks use.
import { formatEpoch } from '../data/calendar';
import { hashSeed, Rng } from '../data/prng';
import { createStore } from '../store';
import type { CallPlan, CallScenario, PlannedStep, TrafficKind } from './plan';
import { CALL_SCENARIOS, DEFAULT_MIX, planCall } from './plan';
import { worldFromStore, type SimWorld } from './world';

/** A webhook event body as the emulator sends it. */
export type SimEvent = Record<string, unknown> & { id: string; event_name: string; event_time: string };

/** The body of one call event at one step of a call. `id` is the event's unique id. */
export function callEventBody(plan: CallPlan, step: PlannedStep, id: string): SimEvent {
  const connected = plan.connectedAt !== null && step.at >= plan.connectedAt;
  const final = step.name === 'call.hangup' || step.name === 'call.failed' || step.name === 'call.missed';
  const body: SimEvent = {
    id,
    event_time: formatEpoch(plan.start + step.at),
    event_name: step.name,
    call_id: plan.callId,
    state: step.state,
    connected_at: connected ? formatEpoch(plan.start + (plan.connectedAt as number)) : null,
    start_time: formatEpoch(plan.start),
    context: step.context,
    destination: plan.destination,
    duration: step.at,
    t_cause: step.tCause ?? (final ? plan.cdr.tCause : null),
    clid: plan.src.clid,
    src: plan.src.number,
    src_id: plan.src.id,
    src_name: plan.src.name,
    src_hash: plan.srcHash,
    dst: step.dst.number,
    dst_id: step.dst.id,
    dst_name: step.dst.name,
    info: step.info ?? '',
    terminated_by: step.terminatedBy ?? null,
  };
  if (step.digit !== undefined) body.digit = step.digit;
  return body;
}

/** The body of an SMS received event. */
export function smsEventBody(
  id: string,
  time: number,
  sms: { customerId: number; userId: number | null; from: string; to: string; text: string },
): SimEvent {
  return {
    id,
    event_time: formatEpoch(time),
    event_name: 'sms.received',
    customer_id: sms.customerId,
    user_id: sms.userId,
    from_no: sms.from,
    to_no: sms.to,
    text: sms.text,
  };
}

/** Inbound SMS texts. */
export const SMS_TEXTS = [
  'Hi, can you call me back when you have a minute?',
  'Thanks for the quote, we would like to go ahead.',
  'Is my order shipped yet?',
  'Running 10 minutes late for our call.',
  'Please send the invoice to accounts@ as discussed.',
  'STOP',
];

/** A deterministic UUID-shaped id: random part from the generator, a sequence number at the end. */
export function sequentialId(rng: Rng, n: number): string {
  return `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-a${rng.hex(3)}-${n.toString(16).padStart(12, '0')}`;
}

/** Parameters of generateCallEvents. */
export interface GenerateParams {
  world: SimWorld;
  seed?: number;
  callId?: number;
  /** Epoch seconds of the call's start. */
  start?: number;
  external?: string;
  userId?: number;
  /** Event ids; default sequentialId from the seed. */
  nextId?: () => string;
}

/** The events of one call of a scenario, in order, with its plan (pure: same params, same events). */
export function generateCallEvents(
  scenario: CallScenario,
  params: GenerateParams,
): { plan: CallPlan; events: SimEvent[] } {
  const rng = new Rng(hashSeed(params.seed ?? 1, `call-${scenario}-${params.callId ?? 1}`));
  let n = 0;
  const nextId = params.nextId ?? (() => sequentialId(rng, ++n));
  const plan = planCall(rng, params.world, scenario, {
    callId: params.callId ?? 1,
    start: params.start ?? 1_790_000_000,
    ...(params.external !== undefined ? { external: params.external } : {}),
    ...(params.userId !== undefined ? { userId: params.userId } : {}),
  });
  return { plan, events: plan.steps.map((s) => callEventBody(plan, s, nextId())) };
}

const worlds = new Map<number, SimWorld>();

/** The world of the emulator's seeded data for a seed (its first customer), built once per seed. */
export function seededWorld(seed: number): SimWorld {
  let w = worlds.get(seed);
  if (!w) {
    const store = createStore({ seed, cdrs: 0 });
    w = worldFromStore(store, store.admin.customer_id, seed);
    worlds.set(seed, w);
  }
  return w;
}

/**
 * `n` realistic webhook events with unique ids (for benchmarks): whole calls of the default mix, their
 * events interleaved as concurrent calls would send them, and some sms.received. Deterministic per seed.
 */
export function realisticEvents(n: number, seed = 1): SimEvent[] {
  const world = seededWorld(seed);
  const rng = new Rng(hashSeed(seed, 'realistic-events'));
  const kinds = Object.entries(DEFAULT_MIX) as [TrafficKind, number][];
  let seq = 0;
  const nextId = (): string => sequentialId(rng, ++seq);
  const timed: { t: number; k: number; e: SimEvent }[] = [];
  let start = 1_790_000_000;
  let callId = 900_000_000;
  let k = 0;
  while (timed.length < n) {
    start += rng.int(1, 6);
    const kind = rng.weighted(kinds);
    if (kind === 'sms_inbound') {
      const from = rng.pick(rng.pick(world.contacts).numbers);
      const user = rng.pick(world.users);
      const text = rng.pick(SMS_TEXTS);
      const e = smsEventBody(nextId(), start, {
        customerId: world.customerId,
        userId: user.id,
        from,
        to: user.cli || world.mainNumber,
        text,
      });
      timed.push({ t: start, k: k++, e });
      continue;
    }
    const plan = planCall(rng, world, kind, { callId: ++callId, start });
    for (const s of plan.steps) timed.push({ t: start + s.at, k: k++, e: callEventBody(plan, s, nextId()) });
  }
  timed.sort((a, b) => a.t - b.t || a.k - b.k);
  return timed.slice(0, n).map((x) => x.e);
}

export { CALL_SCENARIOS };
