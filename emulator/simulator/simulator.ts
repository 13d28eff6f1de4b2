// The call simulator: call traffic at a configurable rate and mix, in real time on the emulator clock.
// Each call is planned in full (plan.ts), then its steps fire with setTimeout, `speed` times faster than
// the simulated times (speed 60: a 3-minute call lasts 3 s). Every step updates the live call in the
// store and emits its webhook event; at the end the CDR (and recording, voice message) is written before
// call.hangup / call.failed is sent, so a receiver that reads GET /cdrs on hangup finds it (spec Rule 3).
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { hashSeed, Rng } from '../data/prng';
import { buildTranscriptPool, buildVoicemailPool, type TranscriptEntry } from '../data/transcripts';
import type { ChangeEvent, EmulatorStore, Row } from '../store';
import { callEventBody, SMS_TEXTS, smsEventBody, type SimEvent } from './events';
import {
  CALL_SCENARIOS,
  DEFAULT_MIX,
  externalParty,
  planCall,
  TRAFFIC_KINDS,
  type CallPlan,
  type PlannedStep,
  type TrafficKind,
} from './plan';
import { aiPatch, cdrRow, liveCallRow, LIVE_STATE_CODES, monitorRow, smsRow, voicemessageRow } from './rows';
import { worldFromStore, type SimWorld } from './world';

/** Where events go (the webhook delivery). */
export type EventSink = (customerId: number, event: SimEvent) => void;

const mixSchema = z.partialRecord(z.enum(TRAFFIC_KINDS), z.number().min(0));

/** Body of POST /_emulator/simulator/start (and the simulator's settings). */
export const simulatorConfigBody = z.strictObject({
  /** New calls (and SMS) per real minute. */
  rate_per_minute: z.number().min(0).max(60_000).optional(),
  /** Simulated seconds per real second. */
  speed: z.number().min(0.01).max(100_000).optional(),
  seed: z.number().int().optional(),
  /** Relative weights per traffic kind; kinds left out get 0. */
  mix: mixSchema.optional(),
  /** Simulated seconds between a recording's creation and its transcript, summary and sentiment. */
  transcript_delay_s: z.number().min(0).max(86_400).optional(),
  /** Share of connected calls that are recorded. */
  recorded_share: z.number().min(0).max(1).optional(),
  customer_id: z.number().int().optional(),
  /** Move the emulator clock forward with simulated time. */
  advance_clock: z.boolean().optional(),
  /** Play calls created through POST /calls (click-to-call, callbacks) while running. */
  drive_api_calls: z.boolean().optional(),
  /** Share of API-placed calls that connect (the others fail busy). */
  api_answer_rate: z.number().min(0).max(1).optional(),
  /** No new traffic while this many calls are live. */
  max_active: z.number().int().min(1).max(1_000_000).optional(),
});
export type SimulatorConfigInput = z.infer<typeof simulatorConfigBody>;

export interface SimulatorConfig {
  rate_per_minute: number;
  speed: number;
  seed: number;
  mix: Record<TrafficKind, number>;
  transcript_delay_s: number;
  recorded_share: number;
  customer_id: number | null;
  advance_clock: boolean;
  drive_api_calls: boolean;
  api_answer_rate: number;
  max_active: number;
}

/** Body of POST /_emulator/simulator/calls. */
export const placeCallBody = z.strictObject({
  scenario: z.enum(CALL_SCENARIOS, { error: `must be one of ${CALL_SCENARIOS.join(', ')}` }),
  /** The external number (caller of inbound calls, callee of outbound ones), E.164. */
  caller: z
    .string()
    .regex(/^\+\d{6,15}$/, 'must be an E.164 number')
    .optional(),
  callee_user_id: z.number().int().optional(),
  recorded: z.boolean().optional(),
  talk_s: z.number().int().min(1).max(7200).optional(),
  customer_id: z.number().int().optional(),
});
export type PlaceCallInput = z.infer<typeof placeCallBody>;

/** Body of POST /_emulator/simulator/sms. */
export const sendSmsBody = z.strictObject({
  from: z
    .string()
    .regex(/^\+\d{6,15}$/, 'must be an E.164 number')
    .optional(),
  user_id: z.number().int().optional(),
  text: z.string().min(1).max(1600).optional(),
  customer_id: z.number().int().optional(),
});
export type SendSmsInput = z.infer<typeof sendSmsBody>;

export const DEFAULT_SIMULATOR_CONFIG: SimulatorConfig = {
  rate_per_minute: 6,
  speed: 60,
  seed: 1,
  mix: { ...DEFAULT_MIX },
  transcript_delay_s: 120,
  recorded_share: 0.6,
  customer_id: null,
  advance_clock: true,
  drive_api_calls: true,
  api_answer_rate: 0.7,
  max_active: 500,
};

interface ActiveCall {
  plan: CallPlan;
  store: EmulatorStore;
  timers: NodeJS.Timeout[];
  /** Real time of the call's start (ms). */
  realStart: number;
  /** Index of the next step to play. */
  next: number;
  /** The live row was created by POST /calls (it exists before the first step). */
  fromApi: boolean;
}

function counts(): Record<string, number> {
  return Object.fromEntries(TRAFFIC_KINDS.map((k) => [k, 0]));
}

/** The simulator of one emulator; survives store replacement (its calls do not). */
export class CallSimulator {
  private config: SimulatorConfig = { ...DEFAULT_SIMULATOR_CONFIG, mix: { ...DEFAULT_MIX } };
  private running = false;
  private rng = new Rng(hashSeed(1, 'simulator'));
  private placed = 0;
  private readonly active = new Map<number, ActiveCall>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private arrivalTimer: NodeJS.Timeout | undefined;
  private clockTimer: NodeJS.Timeout | undefined;
  private clockAnchor = { real: 0, sim: 0 };
  private worlds = new Map<number, SimWorld>();
  private aiPools = new Map<number, TranscriptEntry[]>();
  private vmPools = new Map<number, string[]>();
  private recentMissed = new Map<number, string[]>();
  private unsubscribe: (() => void) | undefined;
  private ownWrite = false;
  private stats = { started: counts(), ended: counts(), events: 0, api_calls: 0, transcripts: 0, errors: 0 };

  constructor(
    private readonly getStore: () => EmulatorStore,
    private readonly sink: EventSink,
    private readonly onError: (err: unknown, what: string) => void = () => undefined,
  ) {
    this.attach(getStore());
  }

  /** Re-attaches to a new store (POST /_emulator/seed): calls in progress are abandoned. */
  storeReplaced(store: EmulatorStore): void {
    for (const call of this.active.values()) for (const t of call.timers) clearTimeout(t);
    this.active.clear();
    this.worlds.clear();
    this.aiPools.clear();
    this.vmPools.clear();
    this.recentMissed.clear();
    this.attach(store);
  }

  /** Changes settings (running or not). */
  configure(input: SimulatorConfigInput): SimulatorConfig {
    const c = this.config;
    const next: SimulatorConfig = {
      ...c,
      ...(input.rate_per_minute !== undefined ? { rate_per_minute: input.rate_per_minute } : {}),
      ...(input.speed !== undefined ? { speed: input.speed } : {}),
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
      ...(input.transcript_delay_s !== undefined ? { transcript_delay_s: input.transcript_delay_s } : {}),
      ...(input.recorded_share !== undefined ? { recorded_share: input.recorded_share } : {}),
      ...(input.customer_id !== undefined ? { customer_id: input.customer_id } : {}),
      ...(input.advance_clock !== undefined ? { advance_clock: input.advance_clock } : {}),
      ...(input.drive_api_calls !== undefined ? { drive_api_calls: input.drive_api_calls } : {}),
      ...(input.api_answer_rate !== undefined ? { api_answer_rate: input.api_answer_rate } : {}),
      ...(input.max_active !== undefined ? { max_active: input.max_active } : {}),
    };
    if (input.mix !== undefined) {
      const mix = counts() as Record<TrafficKind, number>;
      for (const [k, w] of Object.entries(input.mix)) mix[k as TrafficKind] = w ?? 0;
      if (Object.values(mix).every((w) => w === 0)) throw new Error('mix: give at least one positive weight');
      next.mix = mix;
    }
    if (next.customer_id !== null && !this.getStore().customers.some((x) => x.id === next.customer_id))
      throw new Error('customer_id: no such customer');
    if (input.seed !== undefined) {
      this.rng = new Rng(hashSeed(next.seed, 'simulator'));
      this.placed = 0;
    }
    this.config = next;
    this.anchorClock();
    return this.getConfig();
  }

  getConfig(): SimulatorConfig {
    return { ...this.config, mix: { ...this.config.mix } };
  }

  /** Starts generating traffic. */
  start(input: SimulatorConfigInput = {}): void {
    this.configure(input);
    this.stop();
    this.running = true;
    this.anchorClock();
    if (this.config.advance_clock) {
      this.clockTimer = setInterval(() => this.tickClock(), 250);
      this.clockTimer.unref();
    }
    this.scheduleArrival();
  }

  /** Stops new traffic; calls in progress play to their end. */
  stop(): void {
    this.running = false;
    if (this.arrivalTimer) clearTimeout(this.arrivalTimer);
    if (this.clockTimer) clearInterval(this.clockTimer);
    this.arrivalTimer = undefined;
    this.clockTimer = undefined;
  }

  /** Stops everything, calls in progress included (server close). */
  close(): void {
    this.stop();
    for (const call of this.active.values()) for (const t of call.timers) clearTimeout(t);
    for (const t of this.timers) clearTimeout(t);
    this.active.clear();
    this.timers.clear();
    this.unsubscribe?.();
  }

  /** Running state, settings and counters. */
  status(): Record<string, unknown> {
    return {
      running: this.running,
      config: this.getConfig(),
      active: this.active.size,
      active_call_ids: [...this.active.keys()],
      calls_started: { ...this.stats.started },
      calls_ended: { ...this.stats.ended },
      events: this.stats.events,
      api_calls: this.stats.api_calls,
      transcripts: this.stats.transcripts,
      errors: this.stats.errors,
    };
  }

  /** Places one call of a scenario now; returns its plan (call_id = plan.callId). */
  placeCall(input: PlaceCallInput): CallPlan {
    const store = this.getStore();
    const customerId = this.customerId(input.customer_id);
    const world = this.world(store, customerId);
    const callId = this.nextLiveId(store);
    const rng = this.callRng();
    const plan = planCall(rng, world, input.scenario, {
      callId,
      start: this.startSecond(store),
      recordedShare: this.config.recorded_share,
      recentMissed: this.recentMissed.get(customerId) ?? [],
      ...(input.caller !== undefined ? { external: input.caller } : {}),
      ...(input.callee_user_id !== undefined ? { userId: input.callee_user_id } : {}),
      ...(input.recorded !== undefined ? { recorded: input.recorded } : {}),
      ...(input.talk_s !== undefined ? { talk: input.talk_s } : {}),
    });
    this.play(store, plan, rng, false);
    return plan;
  }

  /** An inbound SMS now: an sms row and sms.received. Returns the event. */
  sendSms(input: SendSmsInput = {}): SimEvent {
    const store = this.getStore();
    const customerId = this.customerId(input.customer_id);
    const world = this.world(store, customerId);
    const rng = this.callRng();
    const user = world.users.find((u) => u.id === input.user_id) ?? rng.pick(world.users);
    const from = input.from ?? rng.pick(rng.pick(world.contacts).numbers);
    const text = input.text ?? rng.pick(SMS_TEXTS);
    const to = user.cli || world.mainNumber;
    const party = externalParty(world, from);
    const t = this.startSecond(store);
    this.write(() =>
      store.tables.sms.insert(
        customerId,
        smsRow(t, {
          from,
          fromRef: party.ref,
          fromName: party.name,
          to,
          userId: user.id,
          userName: user.name,
          text,
        }),
      ),
    );
    const event = smsEventBody(randomUUID(), t, { customerId, userId: user.id, from, to, text });
    this.stats.started.sms_inbound = (this.stats.started.sms_inbound ?? 0) + 1;
    this.stats.ended.sms_inbound = (this.stats.ended.sms_inbound ?? 0) + 1;
    this.emit(customerId, event);
    return event;
  }

  // --- traffic -------------------------------------------------------------------------------------

  private scheduleArrival(): void {
    if (!this.running || this.config.rate_per_minute <= 0) return;
    const meanMs = 60_000 / this.config.rate_per_minute;
    const wait = -Math.log(1 - this.rng.next()) * meanMs;
    this.arrivalTimer = setTimeout(
      () => {
        this.arrivalTimer = undefined;
        this.arrive();
        this.scheduleArrival();
      },
      Math.min(wait, 2_147_000_000),
    );
  }

  private arrive(): void {
    if (this.active.size >= this.config.max_active) return;
    const kinds = (Object.entries(this.config.mix) as [TrafficKind, number][]).filter(([, w]) => w > 0);
    if (kinds.length === 0) return;
    const kind = this.rng.weighted(kinds);
    try {
      if (kind === 'sms_inbound') this.sendSms();
      else this.placeCall({ scenario: kind });
    } catch (err) {
      this.stats.errors++;
      this.onError(err, `simulated ${kind}`);
    }
  }

  /** Plays a planned call: one timer per step. */
  private play(store: EmulatorStore, plan: CallPlan, rng: Rng, fromApi: boolean): void {
    const call: ActiveCall = { plan, store, timers: [], realStart: Date.now(), next: 0, fromApi };
    this.active.set(plan.callId, call);
    this.stats.started[plan.scenario] = (this.stats.started[plan.scenario] ?? 0) + 1;
    const speed = this.config.speed;
    plan.steps.forEach((step, i) => {
      const timer = setTimeout(() => this.playStep(call, i, rng), (step.at * 1000) / speed);
      call.timers.push(timer);
    });
  }

  private playStep(call: ActiveCall, i: number, rng: Rng): void {
    if (this.active.get(call.plan.callId) !== call || call.store !== this.getStore()) return;
    const { plan, store } = call;
    const step = plan.steps[i] as PlannedStep;
    call.next = i + 1;
    const customerId = plan.customerId;
    this.advanceClockTo(store, plan.start + step.at);
    const last = i === plan.steps.length - 1;
    try {
      if (last) this.finish(call, rng);
      else {
        const live = liveCallRow(plan, step, 'sim.callsync.local');
        this.write(() => {
          if (store.tables.calls.get(plan.callId)) store.tables.calls.update(plan.callId, live);
          else store.tables.calls.insert(customerId, live);
        });
      }
    } catch (err) {
      this.stats.errors++;
      this.onError(err, `call ${plan.callId} ${step.name}`);
    }
    if (step.name === 'call.missed' && plan.missedNumber !== null)
      this.rememberMissed(customerId, plan.missedNumber);
    if (step.name === 'call.connected' && plan.destination === 'in')
      this.forgetMissed(customerId, plan.src.number);
    this.emit(customerId, callEventBody(plan, step, randomUUID()));
  }

  /** The call ends: CDR, recording, voice message written; live call removed (before the event goes). */
  private finish(call: ActiveCall, rng: Rng): void {
    const { plan, store } = call;
    this.active.delete(plan.callId);
    for (const t of call.timers) clearTimeout(t);
    this.stats.ended[plan.scenario] = (this.stats.ended[plan.scenario] ?? 0) + 1;
    const customerId = plan.customerId;
    const cdrs = store.tables.cdrs;
    const total = cdrs.count(customerId);
    const lastCdr =
      total > 0 ? cdrs.query(customerId, { page: total, limit: 1, filter: [] }).data[0] : undefined;
    const floor = typeof lastCdr?.calldate === 'string' ? lastCdr.calldate : undefined;
    this.write(() => {
      const cdr = cdrs.insert(customerId, cdrRow(plan, rng, floor));
      const cdrId = Number(cdr.id);
      if (plan.recorded) {
        const mon = store.tables.monitors.insert(customerId, monitorRow(plan, cdrId, rng));
        this.scheduleTranscript(store, Number(mon.id), plan, rng);
      }
      if (plan.cdr.disposition === 'VM') {
        const pool = this.vmPool(plan);
        store.tables.voicemessages.insert(
          customerId,
          voicemessageRow(plan, cdrId, pool.length > 0 ? rng.pick(pool) : null),
        );
      }
      for (const party of [plan.src, plan.dst]) {
        if (party.contactId !== null)
          store.tables.contacts.update(party.contactId, { last_call_at: cdr.calldate });
      }
      if (store.tables.calls.get(plan.callId)) store.tables.calls.remove(plan.callId);
    });
  }

  private scheduleTranscript(store: EmulatorStore, monitorId: number, plan: CallPlan, rng: Rng): void {
    const pool = this.aiPool(plan);
    if (pool.length === 0) return;
    const ai = rng.pick(pool);
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (store !== this.getStore()) return;
        this.advanceClockTo(store, plan.start + plan.cdr.duration + this.config.transcript_delay_s);
        try {
          this.write(() => store.tables.monitors.update(monitorId, aiPatch(ai)));
          this.stats.transcripts++;
        } catch (err) {
          this.stats.errors++;
          this.onError(err, `transcript of monitor ${monitorId}`);
        }
      },
      (this.config.transcript_delay_s * 1000) / this.config.speed,
    );
    this.timers.add(timer);
  }

  // --- calls placed through the API (POST /calls) -------------------------------------------------------

  private attach(store: EmulatorStore): void {
    this.unsubscribe?.();
    this.unsubscribe = store.onChange((e) => this.onStoreChange(store, e));
  }

  private onStoreChange(store: EmulatorStore, e: ChangeEvent): void {
    if (this.ownWrite || e.table !== 'calls' || !this.running || !this.config.drive_api_calls) return;
    const id = Number(e.row.id);
    if (e.op === 'insert' && !this.active.has(id)) {
      // Not inside the store's own write: play it from the next turn of the event loop.
      const row = e.row;
      setImmediate(() => this.adoptApiCall(store, row));
    } else if (e.op === 'remove' && this.active.has(id)) {
      setImmediate(() => this.hangupNow(id));
    }
  }

  /** A call created through POST /calls: plays it as an outbound call from its user to its number. */
  private adoptApiCall(store: EmulatorStore, row: Row): void {
    if (store !== this.getStore() || this.active.has(Number(row.id))) return;
    const found = store.tables.calls.get(row.id);
    if (!found) return;
    try {
      const world = this.world(store, found.customerId);
      const rng = this.callRng();
      const answered = rng.chance(this.config.api_answer_rate);
      const userId = Number(row.src_id);
      const plan = planCall(rng, world, answered ? 'outbound_answered' : 'outbound_failed', {
        callId: Number(row.id),
        start: typeof row.start_time === 'number' ? row.start_time : this.startSecond(store),
        external: typeof row.dst === 'string' ? row.dst : '',
        recordedShare: this.config.recorded_share,
        ...(Number.isInteger(userId) ? { userId } : {}),
      });
      this.stats.api_calls++;
      this.play(store, plan, rng, true);
    } catch (err) {
      this.stats.errors++;
      this.onError(err, `call ${String(row.id)} placed through the API`);
    }
  }

  /** DELETE /calls/{id} of a simulated call: it ends now (call.hangup, CDR as far as it got). */
  private hangupNow(id: number): void {
    const call = this.active.get(id);
    if (!call) return;
    for (const t of call.timers) clearTimeout(t);
    const { plan } = call;
    const at = Math.max(1, Math.floor(((Date.now() - call.realStart) * this.config.speed) / 1000));
    const connected = plan.connectedAt !== null && at >= plan.connectedAt;
    const cut = plan.steps.slice(0, call.next);
    const lastDst = cut.at(-1)?.dst ?? plan.dst;
    const tCause = connected ? 'Normal Clearing' : 'Originator cancel';
    const step: PlannedStep = {
      at,
      name: 'call.hangup',
      state: 'HANGUP',
      context: 'LOCAL_USER',
      dst: lastDst,
      tCause,
      terminatedBy: 'caller',
    };
    const ended: CallPlan = {
      ...plan,
      steps: [...cut, step],
      connectedAt: connected ? plan.connectedAt : null,
      recorded: plan.recorded && connected,
      cdr: {
        ...plan.cdr,
        disposition: connected ? 'CONNECTED' : cut.some((s) => s.state === 'RINGING') ? 'RINGING' : 'INITIAL',
        duration: at,
        billsec: connected ? at - (plan.connectedAt as number) : 0,
        tCause,
      },
    };
    call.plan = ended;
    const rng = new Rng(hashSeed(this.config.seed, `hangup-${id}`));
    try {
      this.finish(call, rng);
    } catch (err) {
      this.stats.errors++;
      this.onError(err, `hangup of call ${id}`);
    }
    this.emit(plan.customerId, callEventBody(ended, step, randomUUID()));
  }

  // --- helpers --------------------------------------------------------------------------------------

  private emit(customerId: number, event: SimEvent): void {
    this.stats.events++;
    try {
      this.sink(customerId, event);
    } catch (err) {
      this.onError(err, `event ${event.event_name}`);
    }
  }

  private write<T>(fn: () => T): T {
    const was = this.ownWrite;
    this.ownWrite = true;
    try {
      return fn();
    } finally {
      this.ownWrite = was;
    }
  }

  private customerId(given: number | undefined): number {
    const store = this.getStore();
    const id = given ?? this.config.customer_id ?? store.admin.customer_id;
    if (!store.customers.some((c) => c.id === id)) throw new Error('customer_id: no such customer');
    return id;
  }

  private world(store: EmulatorStore, customerId: number): SimWorld {
    let w = this.worlds.get(customerId);
    if (!w) {
      w = worldFromStore(store, customerId, this.config.seed);
      this.worlds.set(customerId, w);
    }
    return w;
  }

  /** Each call draws from its own generator (seed, placement number): runs repeat call by call. */
  private callRng(): Rng {
    return new Rng(hashSeed(this.config.seed, `call-${++this.placed}`));
  }

  private nextLiveId(store: EmulatorStore): number {
    const s = store as EmulatorStore & { nextLiveId?: () => number };
    if (typeof s.nextLiveId === 'function') return s.nextLiveId();
    const calls = store.tables.calls as unknown as { lastId?: number };
    return (calls.lastId ?? 0) + 1;
  }

  private aiPool(plan: CallPlan): TranscriptEntry[] {
    let pool = this.aiPools.get(plan.user.id);
    if (!pool) {
      const world = this.worlds.get(plan.customerId);
      const rng = new Rng(hashSeed(this.config.seed, `ai-${plan.user.id}`));
      pool = buildTranscriptPool(rng, plan.user.name, world?.company ?? '', world?.language ?? 'en-GB', 6);
      this.aiPools.set(plan.user.id, pool);
    }
    return pool;
  }

  private vmPool(plan: CallPlan): string[] {
    let pool = this.vmPools.get(plan.user.id);
    if (!pool) {
      const world = this.worlds.get(plan.customerId);
      const rng = new Rng(hashSeed(this.config.seed, `vm-${plan.user.id}`));
      pool = buildVoicemailPool(rng, plan.user.name, world?.language ?? 'en-GB', 4);
      this.vmPools.set(plan.user.id, pool);
    }
    return pool;
  }

  private rememberMissed(customerId: number, number: string): void {
    const list = this.recentMissed.get(customerId) ?? [];
    if (!list.includes(number)) list.push(number);
    if (list.length > 50) list.shift();
    this.recentMissed.set(customerId, list);
  }

  private forgetMissed(customerId: number, number: string): void {
    const list = this.recentMissed.get(customerId);
    const i = list?.indexOf(number) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
  }

  /** The start of a call placed now: the emulator clock (epoch seconds). */
  private startSecond(store: EmulatorStore): number {
    if (this.running && this.config.advance_clock) this.tickClock();
    return Math.floor(store.clock.now().getTime() / 1000);
  }

  private anchorClock(): void {
    this.clockAnchor = { real: Date.now(), sim: this.getStore().clock.now().getTime() };
  }

  /** While running with advance_clock, the emulator clock moves `speed` times real time. */
  private tickClock(): void {
    const clock = this.getStore().clock;
    const target = this.clockAnchor.sim + (Date.now() - this.clockAnchor.real) * this.config.speed;
    if (target > clock.now().getTime()) clock.set(new Date(target));
  }

  /** Never moves the clock back. */
  private advanceClockTo(store: EmulatorStore, epochSecond: number): void {
    if (!this.config.advance_clock) return;
    const ms = epochSecond * 1000;
    if (ms > store.clock.now().getTime()) store.clock.set(new Date(ms));
  }
}

export { LIVE_STATE_CODES };
