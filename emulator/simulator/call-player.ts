// Plays planned calls in real time for the call simulator: one timer per step, `speed` times faster
// than the simulated times. Each step updates the live call in the store and emits its webhook
// event; the last one ends the call and call-records.ts writes its records. DELETE /calls of a
// simulated call ends it early.
import { randomUUID } from 'node:crypto';
import { hashSeed, Rng } from '../data/prng';
import type { EmulatorStore } from '../store';
import type { CallRecords } from './call-records';
import type { CallTiming } from './call-timing';
import type { CallerMemory } from './caller-memory';
import { callEventBody, type SimEvent } from './events';
import { hungUpPlan } from './hung-up-plan';
import type { SimulatorLedger } from './ledger';
import type { CallPlan, PlannedStep } from './plan';
import { liveCallRow } from './rows';
import type { SimulatorConfig } from './simulator-config';

/** A call being played. */
export interface ActiveCall {
  plan: CallPlan;
  store: EmulatorStore;
  timers: NodeJS.Timeout[];
  /** Real time of the call's start (ms). */
  realStart: number;
  /** Index of the next step to play. */
  next: number;
  /** The live row was created by POST /calls (it exists before the first step). */
  fromApi: boolean;
  timing: CallTiming;
  /** Simulated seconds per real second this call plays at. */
  speed: number;
}

/** What the simulator lends its call player. */
export interface PlayerHost {
  config(): SimulatorConfig;
  /** The current store (a step of a call on a replaced store is dropped). */
  store(): EmulatorStore;
  memory: CallerMemory;
  ledger: SimulatorLedger;
  records: CallRecords;
  /** Calls started and ended, by scenario. */
  stats: { started: Record<string, number>; ended: Record<string, number> };
  /** Runs a store write that the simulator's own change listener ignores. */
  write<T>(fn: () => T): T;
  /** Moves the emulator clock forward to an epoch second (when the simulator advances it). */
  advanceClockTo(store: EmulatorStore, epochSecond: number): void;
  emit(customerId: number, event: SimEvent): void;
  failed(err: unknown, what: string): void;
}

/** The calls in progress of one simulator. */
export class CallPlayer {
  private readonly active = new Map<number, ActiveCall>();

  constructor(private readonly host: PlayerHost) {}

  /** Calls in progress. */
  get size(): number {
    return this.active.size;
  }

  /** Ids of the calls in progress. */
  ids(): number[] {
    return [...this.active.keys()];
  }

  has(callId: number): boolean {
    return this.active.has(callId);
  }

  /** Drops every call in progress, their steps unplayed. */
  abandon(): void {
    for (const call of this.active.values()) for (const t of call.timers) clearTimeout(t);
    this.active.clear();
  }

  /** Plays a planned call: one timer per step, at `speed` (the simulator's unless given). */
  play(
    store: EmulatorStore,
    plan: CallPlan,
    rng: Rng,
    fromApi: boolean,
    timing: CallTiming,
    speed = this.host.config().speed,
  ): void {
    const call: ActiveCall = {
      plan,
      store,
      timers: [],
      realStart: Date.now(),
      next: 0,
      fromApi,
      timing,
      speed,
    };
    this.active.set(plan.callId, call);
    this.host.ledger.started(plan, fromApi, timing.longTalk !== undefined);
    this.host.stats.started[plan.scenario] = (this.host.stats.started[plan.scenario] ?? 0) + 1;
    plan.steps.forEach((step, i) => {
      const timer = setTimeout(() => this.playStep(call, i, rng), (step.at * 1000) / speed);
      call.timers.push(timer);
    });
  }

  private playStep(call: ActiveCall, i: number, rng: Rng): void {
    if (this.active.get(call.plan.callId) !== call || call.store !== this.host.store()) return;
    const { plan, store } = call;
    const step = plan.steps[i] as PlannedStep;
    call.next = i + 1;
    const customerId = plan.customerId;
    this.host.advanceClockTo(store, plan.start + step.at);
    const last = i === plan.steps.length - 1;
    try {
      if (last) this.finish(call, rng);
      else {
        const live = liveCallRow(plan, step, 'sim.callsync.local');
        this.host.write(() => {
          if (store.tables.calls.get(plan.callId)) store.tables.calls.update(plan.callId, live);
          else store.tables.calls.insert(customerId, live);
        });
      }
    } catch (err) {
      this.host.failed(err, `call ${plan.callId} ${step.name}`);
    }
    // A missed leg is not a missed call: the caller is remembered once the call itself is missed.
    if (step.name === 'call.missed' && plan.missedNumber !== null && step.leg !== true)
      this.host.memory.rememberMissed(customerId, plan.missedNumber);
    if (step.name === 'call.connected' && plan.destination === 'in')
      this.host.memory.forgetMissed(customerId, plan.src.number);
    this.host.emit(customerId, callEventBody(plan, step, randomUUID()));
    if (last) this.host.ledger.hangupSent(plan.callId);
  }

  /** The call ends: its records are written (call-records.ts) and the live call leaves /calls. */
  private finish(call: ActiveCall, rng: Rng): void {
    const { plan } = call;
    this.active.delete(plan.callId);
    for (const t of call.timers) clearTimeout(t);
    this.host.stats.ended[plan.scenario] = (this.host.stats.ended[plan.scenario] ?? 0) + 1;
    this.host.ledger.ended(plan);
    this.host.records.hangup(call, rng);
  }

  /** DELETE /calls/{id} of a simulated call: it ends now (call.hangup, CDR as far as it got). */
  hangupNow(id: number): void {
    const call = this.active.get(id);
    if (!call) return;
    for (const t of call.timers) clearTimeout(t);
    const { plan } = call;
    const at = Math.max(1, Math.floor(((Date.now() - call.realStart) * call.speed) / 1000));
    const { ended, step } = hungUpPlan(plan, call.next, at);
    call.plan = ended;
    const rng = new Rng(hashSeed(this.host.config().seed, `hangup-${id}`));
    try {
      this.finish(call, rng);
    } catch (err) {
      this.host.failed(err, `hangup of call ${id}`);
    }
    this.host.emit(plan.customerId, callEventBody(ended, step, randomUUID()));
    this.host.ledger.hangupSent(id);
  }
}
