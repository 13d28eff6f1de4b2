// What a simulated call leaves behind once it hangs up: its CDR, recording (with a transcript later) and
// voice message. By default they are written at hangup, before the live call leaves /calls (spec Rule 3);
// with real platforms' timing on they come later, the audio may be late or lost, and the CDR keeps its
// call's true start as calldate. Every write goes into the ledger.
import type { Rng } from '../data/prng';
import type { EmulatorStore, Row } from '../store';
import type { AudioReadiness, AudioTable } from './audio-readiness';
import type { CallTiming } from './call-timing';
import type { CallerMemory } from './caller-memory';
import type { SimulatorLedger } from './ledger';
import type { CallPlan } from './plan';
import { aiPatch, cdrRow, monitorRow, voicemessageRow } from './rows';
import type { SimulatorConfig } from './simulator-config';

/** The longest a timer can wait (Node's limit, about 24.8 days). */
const MAX_TIMER_MS = 2_147_000_000;

/** A call that has just hung up, as far as its records need it. */
export interface EndedCall {
  plan: CallPlan;
  store: EmulatorStore;
  timing: CallTiming;
}

/** What the simulator lends its record writer. */
export interface RecordsHost {
  config(): SimulatorConfig;
  /** The current store (a write planned on a replaced store is dropped). */
  store(): EmulatorStore;
  memory: CallerMemory;
  audio: AudioReadiness;
  ledger: SimulatorLedger;
  /** Runs a store write that the simulator's own change listener ignores. */
  write<T>(fn: () => T): T;
  /** Moves the emulator clock forward to an epoch second (when the simulator advances it). */
  advanceClockTo(store: EmulatorStore, epochSecond: number): void;
  transcribed(): void;
  failed(err: unknown, what: string): void;
}

/** Writes the records of ended calls, now or on timers at the simulator's speed. */
export class CallRecords {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly host: RecordsHost) {}

  /** Writes scheduled and not yet done. */
  get scheduled(): number {
    return this.timers.size;
  }

  /** Drops every scheduled write (server close). */
  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /**
   * The call has hung up: the live call leaves /calls (before its last event goes) and its records are
   * written now, before the live call is removed, or, with delays, later.
   */
  hangup(call: EndedCall, rng: Rng): void {
    const { plan, store, timing } = call;
    const hangupAt = plan.start + plan.cdr.duration;
    // Labels an agent or integration put on the live call (PATCH /calls/{id}) stay on its record.
    const liveLabels = store.tables.calls.get(plan.callId)?.row.labels;
    const removeLive = (): void => {
      if (store.tables.calls.get(plan.callId)) store.tables.calls.remove(plan.callId);
    };
    const cdrAt = hangupAt + timing.cdrDelay;
    const recordingAt = hangupAt + timing.recordingDelay;
    if (cdrAt === hangupAt && recordingAt === hangupAt) {
      this.host.write(() => {
        this.writeRecords(call, rng, liveLabels, hangupAt);
        removeLive();
      });
      return;
    }
    this.host.write(removeLive);
    this.later(store, hangupAt, cdrAt, `CDR of call ${plan.callId}`, () => {
      const cdr = this.writeRecords(call, rng, liveLabels, cdrAt, recordingAt === cdrAt);
      if (plan.recorded && recordingAt > cdrAt)
        this.later(store, cdrAt, recordingAt, `recording of call ${plan.callId}`, () =>
          this.writeRecording(call, rng, cdr, recordingAt),
        );
    });
  }

  /** The CDR, voice message and contacts' last call at `at`; the recording too unless it comes later. */
  private writeRecords(
    call: EndedCall,
    rng: Rng,
    liveLabels: unknown,
    at: number,
    withRecording = true,
  ): Row {
    const { plan, store, timing } = call;
    const { ledger, memory } = this.host;
    const customerId = plan.customerId;
    const cdrs = store.tables.cdrs;
    let floor: string | undefined;
    if (!timing.trueCalldate) {
      const total = cdrs.count(customerId);
      const lastCdr =
        total > 0 ? cdrs.query(customerId, { page: total, limit: 1, filter: [] }).data[0] : undefined;
      floor = typeof lastCdr?.calldate === 'string' ? lastCdr.calldate : undefined;
    }
    const cdr = cdrs.insert(
      customerId,
      cdrRow(plan, rng, floor),
      timing.trueCalldate ? { keyMayGoBack: true } : {},
    );
    const cdrId = Number(cdr.id);
    ledger.cdrWritten(plan.callId, cdrId, at);
    if (Array.isArray(liveLabels) && liveLabels.length > 0) cdrs.update(cdrId, { labels: liveLabels });
    if (plan.recorded && withRecording) this.writeRecording(call, rng, cdr, at);
    if (plan.cdr.disposition === 'VM') {
      const pool = memory.vmPool(plan);
      const vm = store.tables.voicemessages.insert(
        customerId,
        voicemessageRow(plan, cdrId, pool.length > 0 ? rng.pick(pool) : null),
      );
      const ready = at + timing.audioDelay;
      if (timing.audioDelay > 0) this.audioLater(store, 'voicemessages', Number(vm.id), at, ready);
      ledger.voicemailWritten({
        voicemessage_id: Number(vm.id),
        call_id: plan.callId,
        customer_id: customerId,
        written_at: at,
        audio_ready_at: ready,
      });
    }
    for (const party of [plan.src, plan.dst]) {
      if (party.contactId !== null)
        store.tables.contacts.update(party.contactId, { last_call_at: cdr.calldate });
    }
    return cdr;
  }

  /** The recording is listed at `at`; its audio may be late or lost; its transcript comes later. */
  private writeRecording(call: EndedCall, rng: Rng, cdr: Row, at: number): void {
    const { plan, store, timing } = call;
    const hangupAt = plan.start + plan.cdr.duration;
    const mon = store.tables.monitors.insert(
      plan.customerId,
      at === hangupAt ? monitorRow(plan, cdr, rng) : monitorRow(plan, cdr, rng, at),
    );
    const id = Number(mon.id);
    let ready: number | null = at;
    if (timing.audioLost) {
      ready = null;
      this.host.audio.set('monitors', id, null);
    } else if (timing.audioDelay > 0) {
      ready = at + timing.audioDelay;
      this.audioLater(store, 'monitors', id, at, ready);
    }
    const transcriptExpected = this.scheduleTranscript(store, id, plan, rng, at);
    this.host.ledger.recordingWritten(plan.callId, { id, at, audioReadyAt: ready, transcriptExpected });
  }

  /** Audio of a row answers 404 until `ready` (emulator clock); the clock is moved there when it comes. */
  private audioLater(store: EmulatorStore, table: AudioTable, id: number, at: number, ready: number): void {
    this.host.audio.set(table, id, ready * 1000);
    this.later(store, at, ready, `audio of ${table} ${id}`, () => undefined);
  }

  /**
   * Runs `fn` (a store write) `to - from` simulated seconds from now, at speed, with the emulator clock
   * moved to `to` first; nothing runs once the store has been replaced.
   */
  private later(store: EmulatorStore, from: number, to: number, what: string, fn: () => void): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (store !== this.host.store()) return;
        this.host.advanceClockTo(store, to);
        try {
          this.host.write(fn);
        } catch (err) {
          this.host.failed(err, what);
        }
      },
      Math.min(((to - from) * 1000) / this.host.config().speed, MAX_TIMER_MS),
    );
    this.timers.add(timer);
  }

  /** The transcript comes transcript_delay_s after the recording is listed; false when none will. */
  private scheduleTranscript(
    store: EmulatorStore,
    monitorId: number,
    plan: CallPlan,
    rng: Rng,
    listedAt: number,
  ): boolean {
    const pool = this.host.memory.aiPool(plan);
    if (pool.length === 0) return false;
    const ai = rng.pick(pool);
    const delay = this.host.config().transcript_delay_s;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (store !== this.host.store()) return;
        const at = listedAt + this.host.config().transcript_delay_s;
        this.host.advanceClockTo(store, at);
        try {
          this.host.write(() => store.tables.monitors.update(monitorId, aiPatch(ai)));
          this.host.transcribed();
          this.host.ledger.transcriptWritten(plan.callId, at);
        } catch (err) {
          this.host.failed(err, `transcript of monitor ${monitorId}`);
        }
      },
      (delay * 1000) / this.host.config().speed,
    );
    this.timers.add(timer);
    return true;
  }
}
