// The call simulator: call traffic at a configurable rate and mix, in real time on the emulator clock
// (simulator-clock.ts). Each call is planned in full (plan.ts), then played step by step, `speed`
// times faster than the simulated times (call-player.ts); at the end the CDR (and recording, voice
// message) is written before call.hangup / call.failed is sent, so a receiver that reads GET /cdrs on
// hangup finds it (spec Rule 3). Switched on, real platforms' timing replaces that: the CDR, recording
// and audio come later (timers at the same speed), long calls talk for hours. Calls created through
// POST /calls are played too, and SMS arrive. Everything played goes into the ledger (the ground truth).
import { randomUUID } from 'node:crypto';
import { hashSeed, Rng } from '../data/prng';
import type { ChangeEvent, EmulatorStore, Row } from '../store';
import { AudioReadiness } from './audio-readiness';
import { CallPlayer } from './call-player';
import { CallRecords } from './call-records';
import { drawTiming } from './call-timing';
import { CallerMemory } from './caller-memory';
import { SMS_TEXTS, smsEventBody, type SimEvent } from './events';
import { SimulatorLedger, type Ledger } from './ledger';
import { externalParty, planCall, type CallPlan, type TrafficKind } from './plan';
import { LIVE_STATE_CODES, smsRow } from './rows';
import {
  applyConfig,
  cloneConfig,
  DEFAULT_SIMULATOR_CONFIG,
  zeroCounts,
  type PlaceCallInput,
  type SendSmsInput,
  type SimulatorConfig,
  type SimulatorConfigInput,
} from './simulator-config';
import { SimulatorClock } from './simulator-clock';
import { worldFromStore, type SimWorld } from './world';

/** Where events go (the webhook delivery). */
export type EventSink = (customerId: number, event: SimEvent) => void;

/** The simulator of one emulator; survives store replacement (its calls do not). */
export class CallSimulator {
  private config: SimulatorConfig = cloneConfig(DEFAULT_SIMULATOR_CONFIG);
  private running = false;
  private rng = new Rng(hashSeed(1, 'simulator'));
  private placed = 0;
  private arrivalTimer: NodeJS.Timeout | undefined;
  private readonly clock = new SimulatorClock(
    () => this.getStore(),
    () => this.config,
    () => this.running,
  );
  private worlds = new Map<number, SimWorld>();
  private readonly memory = new CallerMemory(
    () => this.config.seed,
    (id) => this.worlds.get(id),
  );
  private unsubscribe: (() => void) | undefined;
  private ownWrite = false;
  private readonly groundTruth = new SimulatorLedger();
  private readonly records: CallRecords;
  private readonly player: CallPlayer;
  private stats = {
    started: zeroCounts(),
    ended: zeroCounts(),
    events: 0,
    api_calls: 0,
    transcripts: 0,
    errors: 0,
  };

  constructor(
    private readonly getStore: () => EmulatorStore,
    private readonly sink: EventSink,
    private readonly onError: (err: unknown, what: string) => void = () => undefined,
    /** Where late and lost audio is kept (the server's, so its .mp3 routes answer 404 meanwhile). */
    audio: AudioReadiness = new AudioReadiness(),
  ) {
    this.records = new CallRecords({
      config: () => this.config,
      store: () => this.getStore(),
      memory: this.memory,
      audio,
      ledger: this.groundTruth,
      write: (fn) => this.write(fn),
      advanceClockTo: (store, s) => this.clock.advanceTo(store, s),
      transcribed: () => {
        this.stats.transcripts++;
      },
      failed: (err, what) => {
        this.stats.errors++;
        this.onError(err, what);
      },
    });
    this.player = new CallPlayer({
      config: () => this.config,
      store: () => this.getStore(),
      memory: this.memory,
      ledger: this.groundTruth,
      records: this.records,
      stats: this.stats,
      write: (fn) => this.write(fn),
      advanceClockTo: (store, s) => this.clock.advanceTo(store, s),
      emit: (customerId, event) => this.emit(customerId, event),
      failed: (err, what) => {
        this.stats.errors++;
        this.onError(err, what);
      },
    });
    this.attach(getStore());
  }

  /** Re-attaches to a new store (POST /_emulator/seed): calls in progress are abandoned, the ledger emptied. */
  storeReplaced(store: EmulatorStore): void {
    this.player.abandon();
    this.worlds.clear();
    this.memory.clear();
    this.groundTruth.clear();
    this.attach(store);
  }

  /** The ground truth of what the simulator played (calls, SMS, voice messages); see ledger.ts. */
  ledger(): Ledger {
    return this.groundTruth.snapshot();
  }

  /** Empties the ledger (calls still playing stay out of it). */
  clearLedger(): void {
    this.groundTruth.clear();
  }

  /** Changes settings (running or not). */
  configure(input: SimulatorConfigInput): SimulatorConfig {
    const next = applyConfig(this.config, input, this.getStore().customers);
    if (input.seed !== undefined) {
      this.rng = new Rng(hashSeed(next.seed, 'simulator'));
      this.placed = 0;
    }
    this.config = next;
    this.clock.anchorNow();
    return this.getConfig();
  }

  getConfig(): SimulatorConfig {
    return cloneConfig(this.config);
  }

  /** Starts generating traffic. */
  start(input: SimulatorConfigInput = {}): void {
    this.configure(input);
    this.stop();
    this.running = true;
    this.clock.anchorNow();
    if (this.config.advance_clock) this.clock.startTicking();
    this.scheduleArrival();
  }

  /** Stops new traffic; calls in progress play to their end. */
  stop(): void {
    this.running = false;
    if (this.arrivalTimer) clearTimeout(this.arrivalTimer);
    this.clock.stopTicking();
    this.arrivalTimer = undefined;
  }

  /** Stops everything, calls in progress included (server close). */
  close(): void {
    this.stop();
    this.player.abandon();
    this.records.close();
    this.unsubscribe?.();
  }

  /** Running state, settings and counters. */
  status(): Record<string, unknown> {
    return {
      running: this.running,
      config: this.getConfig(),
      active: this.player.size,
      active_call_ids: this.player.ids(),
      calls_started: { ...this.stats.started },
      calls_ended: { ...this.stats.ended },
      events: this.stats.events,
      api_calls: this.stats.api_calls,
      transcripts: this.stats.transcripts,
      errors: this.stats.errors,
      scheduled_writes: this.records.scheduled,
      ledger_pending: this.groundTruth.pendingCount(),
    };
  }

  /** Places one call of a scenario now; returns its plan (call_id = plan.callId). */
  placeCall(input: PlaceCallInput): CallPlan {
    const store = this.getStore();
    const customerId = this.customerId(input.customer_id);
    const world = this.world(store, customerId);
    const callId = this.nextLiveId(store);
    const { rng, real } = this.callRngs();
    const timing = drawTiming(this.config, real, input.talk_s !== undefined);
    const talk = input.talk_s ?? timing.longTalk;
    const plan = planCall(rng, world, input.scenario, {
      callId,
      start: this.clock.startSecond(store),
      recordedShare: this.config.recorded_share,
      recentMissed: this.memory.missed(customerId),
      ...(input.caller !== undefined ? { external: input.caller } : {}),
      ...(input.callee_user_id !== undefined ? { userId: input.callee_user_id } : {}),
      ...(input.recorded !== undefined ? { recorded: input.recorded } : {}),
      ...(talk !== undefined ? { talk } : {}),
      legs: { rng: real, share: this.config.missed_leg_share },
    });
    this.player.play(store, plan, rng, false, timing);
    return plan;
  }

  /** An inbound SMS now: an sms row and sms.received. Returns the event. */
  sendSms(input: SendSmsInput = {}): SimEvent {
    const store = this.getStore();
    const customerId = this.customerId(input.customer_id);
    const world = this.world(store, customerId);
    const { rng } = this.callRngs();
    const user = world.users.find((u) => u.id === input.user_id) ?? rng.pick(world.users);
    const from = input.from ?? rng.pick(rng.pick(world.contacts).numbers);
    const text = input.text ?? rng.pick(SMS_TEXTS);
    const to = user.cli || world.mainNumber;
    const party = externalParty(world, from);
    const t = this.clock.startSecond(store);
    const row = this.write(() =>
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
    this.groundTruth.smsSent({
      sms_id: Number(row.id),
      customer_id: customerId,
      from,
      to,
      user_id: user.id,
      at: t,
    });
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
    if (this.player.size >= this.config.max_active) return;
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

  // --- calls placed through the API (POST /calls) -------------------------------------------------------

  private attach(store: EmulatorStore): void {
    this.unsubscribe?.();
    this.unsubscribe = store.onChange((e) => this.onStoreChange(store, e));
  }

  /**
   * The speed a call placed through POST /calls plays at. The real platform rings, connects and ends a
   * call the CTI connector or the CLI places whether or not anyone simulates traffic, so
   * `drive_api_calls: true` plays them at the simulator's speed while traffic runs and in real time
   * while it is stopped; `'always'` at the simulator's speed even while stopped; false never.
   */
  private apiCallSpeed(): number {
    return this.running || this.config.drive_api_calls === 'always' ? this.config.speed : 1;
  }

  private onStoreChange(store: EmulatorStore, e: ChangeEvent): void {
    if (this.ownWrite || e.table !== 'calls' || this.config.drive_api_calls === false) return;
    const id = Number(e.row.id);
    if (e.op === 'insert' && !this.player.has(id)) {
      // Not inside the store's own write: play it from the next turn of the event loop.
      const row = e.row;
      setImmediate(() => this.adoptApiCall(store, row));
    } else if (e.op === 'remove' && this.player.has(id)) {
      setImmediate(() => this.player.hangupNow(id));
    }
  }

  /** A call created through POST /calls: plays it as an outbound call from its user to its number. */
  private adoptApiCall(store: EmulatorStore, row: Row): void {
    if (store !== this.getStore() || this.player.has(Number(row.id))) return;
    const found = store.tables.calls.get(row.id);
    if (!found) return;
    try {
      const world = this.world(store, found.customerId);
      const { rng, real } = this.callRngs();
      const timing = drawTiming(this.config, real, false);
      const answered = rng.chance(this.config.api_answer_rate);
      const userId = Number(row.src_id);
      const plan = planCall(rng, world, answered ? 'outbound_answered' : 'outbound_failed', {
        callId: Number(row.id),
        start: typeof row.start_time === 'number' ? row.start_time : this.clock.startSecond(store),
        external: typeof row.dst === 'string' ? row.dst : '',
        recordedShare: this.config.recorded_share,
        ...(Number.isInteger(userId) ? { userId } : {}),
        ...(timing.longTalk !== undefined ? { talk: timing.longTalk } : {}),
      });
      this.stats.api_calls++;
      this.player.play(store, plan, rng, true, timing, this.apiCallSpeed());
    } catch (err) {
      this.stats.errors++;
      this.onError(err, `call ${String(row.id)} placed through the API`);
    }
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

  /**
   * Each call draws from its own generators (seed, placement number): runs repeat call by call. `rng`
   * plans the call and its records; `real` draws its real-world timing and missed legs, apart, so these
   * leave every other draw of a seeded run as it was.
   */
  private callRngs(): { rng: Rng; real: Rng } {
    const n = ++this.placed;
    return {
      rng: new Rng(hashSeed(this.config.seed, `call-${n}`)),
      real: new Rng(hashSeed(this.config.seed, `call-real-${n}`)),
    };
  }

  private nextLiveId(store: EmulatorStore): number {
    const s = store as EmulatorStore & { nextLiveId?: () => number };
    if (typeof s.nextLiveId === 'function') return s.nextLiveId();
    const calls = store.tables.calls as unknown as { lastId?: number };
    return (calls.lastId ?? 0) + 1;
  }
}

export { LIVE_STATE_CODES };
