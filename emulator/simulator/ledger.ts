// The simulator's ground truth: per call it played, per SMS and per voice message, what happened and when
// each record was written, so an oracle can check a sync against the world rather than against the API.
// Times are simulated epoch seconds (the emulator clock's time when advance_clock is on).
import type { CallPlan, CallScenario } from './plan';

/** One call the simulator played (its own traffic, POST /_emulator/simulator/calls or POST /calls). */
export interface LedgerCall {
  call_id: number;
  customer_id: number;
  scenario: CallScenario;
  /** Placed through POST /calls (click-to-call, auto-dial) and driven by the simulator. */
  from_api: boolean;
  direction: 'in' | 'out';
  /** The outside party's number (caller of inbound, callee of outbound), E.164; null when not E.164. */
  external: string | null;
  /** The CDR's user: who answered (or was rung last) for inbound, the caller for outbound. */
  user_id: number;
  start: number;
  /** Hangup (the CDR's calldate plus duration). */
  end: number;
  /** Someone (or voicemail: no) answered. */
  connected: boolean;
  /** Inbound and nobody answered (voicemail calls included: see `voicemail`). */
  missed: boolean;
  voicemail: boolean;
  /** Agents' legs that rang and were reported missed (call.missed, LOCAL_USER) on a queue or ring-group call. */
  legs_missed: number;
  /** The talk time was drawn from long_call_s. */
  long: boolean;
  recorded: boolean;
  cdr_id: number | null;
  cdr_written_at: number | null;
  recording_id: number | null;
  recording_at: number | null;
  /** When the recording's .mp3 stops answering 404; null while unknown, or for ever when audio_lost. */
  audio_ready_at: number | null;
  audio_lost: boolean;
  /** When the transcript, summary and sentiment were written on the recording. */
  transcript_at: number | null;
  /** The call's last event (call.hangup or call.failed) was handed to the webhook delivery. */
  hangup_sent: boolean;
  /** Some write of the call (event, CDR, recording, transcript) has not happened yet. */
  pending: boolean;
}

/** One inbound SMS the simulator sent. */
export interface LedgerSms {
  sms_id: number;
  customer_id: number;
  from: string;
  to: string;
  user_id: number;
  at: number;
}

/** One voice message left on a call. */
export interface LedgerVoicemail {
  voicemessage_id: number;
  call_id: number;
  customer_id: number;
  written_at: number;
  /** When its .mp3 stops answering 404. */
  audio_ready_at: number;
}

/** The whole ledger (GET /_emulator/simulator/ledger). */
export interface Ledger {
  calls: LedgerCall[];
  sms: LedgerSms[];
  voicemails: LedgerVoicemail[];
  /** Calls whose entry is not complete yet. */
  pending: number;
}

interface CallState {
  entry: Omit<LedgerCall, 'pending'>;
  transcriptExpected: boolean;
}

const E164 = /^\+\d{6,15}$/;

/** The facts of a call that its plan decides (recomputed when a hangup cuts the plan short). */
function planFacts(plan: CallPlan) {
  const external = plan.destination === 'in' ? plan.src.number : plan.dst.number;
  return {
    scenario: plan.scenario,
    direction: plan.destination,
    external: E164.test(external) ? external : null,
    user_id: plan.user.id,
    start: plan.start,
    end: plan.start + plan.cdr.duration,
    connected: plan.connectedAt !== null,
    missed: plan.destination === 'in' && plan.connectedAt === null,
    voicemail: plan.cdr.disposition === 'VM',
    legs_missed: plan.steps.filter((s) => s.leg === true).length,
    recorded: plan.recorded,
  };
}

/** The ground truth of one simulator, in the order things happened. */
export class SimulatorLedger {
  private readonly calls = new Map<number, CallState>();
  private readonly sms: LedgerSms[] = [];
  private readonly voicemails: LedgerVoicemail[] = [];

  /** A call starts playing. */
  started(plan: CallPlan, fromApi: boolean, long: boolean): void {
    this.calls.set(plan.callId, {
      entry: {
        call_id: plan.callId,
        customer_id: plan.customerId,
        from_api: fromApi,
        ...planFacts(plan),
        long,
        cdr_id: null,
        cdr_written_at: null,
        recording_id: null,
        recording_at: null,
        audio_ready_at: null,
        audio_lost: false,
        transcript_at: null,
        hangup_sent: false,
      },
      transcriptExpected: false,
    });
  }

  /** The call hung up with this (possibly cut) plan. */
  ended(plan: CallPlan): void {
    const c = this.calls.get(plan.callId);
    if (c) {
      const long = c.entry.long && plan.connectedAt !== null;
      Object.assign(c.entry, planFacts(plan), { long });
    }
  }

  hangupSent(callId: number): void {
    this.patch(callId, { hangup_sent: true });
  }

  cdrWritten(callId: number, cdrId: number, at: number): void {
    this.patch(callId, { cdr_id: cdrId, cdr_written_at: at });
  }

  /** The recording is listed; its audio is ready at `audioReadyAt` (null: lost). */
  recordingWritten(
    callId: number,
    r: { id: number; at: number; audioReadyAt: number | null; transcriptExpected: boolean },
  ): void {
    const c = this.calls.get(callId);
    if (!c) return;
    Object.assign(c.entry, {
      recording_id: r.id,
      recording_at: r.at,
      audio_ready_at: r.audioReadyAt,
      audio_lost: r.audioReadyAt === null,
    });
    c.transcriptExpected = r.transcriptExpected;
  }

  transcriptWritten(callId: number, at: number): void {
    this.patch(callId, { transcript_at: at });
  }

  voicemailWritten(v: LedgerVoicemail): void {
    this.voicemails.push(v);
  }

  smsSent(s: LedgerSms): void {
    this.sms.push(s);
  }

  /** One call's entry. */
  call(callId: number): LedgerCall | undefined {
    const c = this.calls.get(callId);
    return c ? { ...c.entry, pending: this.isPending(c) } : undefined;
  }

  /** Calls whose entry is not complete yet. */
  pendingCount(): number {
    let n = 0;
    for (const c of this.calls.values()) if (this.isPending(c)) n++;
    return n;
  }

  /** Everything recorded so far, calls in the order they started. */
  snapshot(): Ledger {
    const calls = [...this.calls.values()].map((c) => ({ ...c.entry, pending: this.isPending(c) }));
    return {
      calls,
      sms: this.sms.map((s) => ({ ...s })),
      voicemails: this.voicemails.map((v) => ({ ...v })),
      pending: calls.filter((c) => c.pending).length,
    };
  }

  clear(): void {
    this.calls.clear();
    this.sms.length = 0;
    this.voicemails.length = 0;
  }

  private patch(callId: number, fields: Partial<LedgerCall>): void {
    const c = this.calls.get(callId);
    if (c) Object.assign(c.entry, fields);
  }

  private isPending(c: CallState): boolean {
    const e = c.entry;
    return (
      !e.hangup_sent ||
      e.cdr_id === null ||
      (e.recorded && e.recording_id === null) ||
      (c.transcriptExpected && e.transcript_at === null)
    );
  }
}
