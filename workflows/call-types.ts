// What travels from the webhook relay into a call's workflow: ids, times, numbers; never secrets.
import type { CallFacts, LogCallResult, MissedCallEvent } from '../activities/call-activities';
import type { CallEvent } from '../connectors/platform/schemas/events';

/** Signal name of one call event. */
export const CALL_EVENT_SIGNAL = 'callEvent';

/**
 * Signal name of several events of one call, in arrival order: the relay hands over a call's
 * backlog in one signal, since each signal costs Temporal far more than an event's few hundred bytes.
 */
export const CALL_EVENTS_SIGNAL = 'callEvents';

/** Event name the CDR sync sends a call's workflow when it finds the call's CDR (the call has ended). */
export const CDR_SEEN_EVENT = 'callsync.cdr_seen';

/** Workflow id of a call's lifecycle workflow. */
export function callWorkflowId(account: string, callId: number): string {
  return `call-${account}-${callId}`;
}

export interface CallLifecycleInput {
  account: string;
  callId: number;
  /** Started by the CDR sync for a call no webhook announced. */
  fromCdr?: boolean;
  /** The state a previous run handed over when it continued as new. */
  carried?: CallLifecycleCarried;
  /** History events of one run before it continues as new (tests set it low). */
  historyLimit?: number;
}

/** Everything a call's workflow knows, handed from run to run by continue-as-new. */
export interface CallLifecycleCarried {
  /** Ids of the events received (each event is taken once). */
  seen: string[];
  /** Events received and not yet on the timeline. */
  unsaved: CallEventSignal[];
  /** The missed-call event, when one came. */
  missed: MissedCallEvent | null;
  /** Whether the missed-call event was acted on, and whether that opened a callback. */
  missedChecked: boolean;
  callbackOpened: boolean;
  ended: boolean;
  /** Where the call's follow-up stands. */
  phase: 'live' | 'cdr' | 'log' | 'recording' | 'done';
  /** Workflow times (ms): end of the live wait, of the CDR wait, of the recording wait. */
  callDeadline: number;
  cdrDeadline: number | null;
  horizon: number | null;
  /** The current backoff of the CDR or recording poll, in ms. */
  delay: number;
  cdr: CallFacts | null;
  /** The CRM call log written (its CRM id and what it holds). */
  log: LogCallResult | null;
  continuedRuns: number;
}

/** One call event as the workflow sees it. */
export interface CallEventSignal {
  eventId: string;
  name: string;
  time: string | null;
  state: string | null;
  context: string | null;
  destination: string | null;
  src: string | null;
  dst: string | null;
  srcId: number | null;
  dstId: number | null;
  srcName: string | null;
  dstName: string | null;
  duration: number | null;
  tCause: string | null;
  connectedAt: string | null;
  /**
   * Keys pressed (0-9 * # A-D) of a DTMF event; null for other events. Signals recorded before DTMF
   * events were relayed lack it, which is harmless: the workflow only passes it on to the timeline.
   */
  digits: string | null;
  /**
   * The event's body as delivered, every field of it (live deployments send more than the spec
   * shows, and the timeline keeps it all). Absent from callsync's own notes and from signals recorded
   * before bodies travelled.
   */
  body?: Record<string, unknown>;
}

/** The signal payload of a validated event of a call: its fields, its keys (DTMF) and its whole body. */
export function toCallEventSignal(
  e: CallEvent,
  digits: string | null,
  body: Record<string, unknown>,
): CallEventSignal {
  return { ...eventSignal(e, digits), body };
}

function eventSignal(e: CallEvent, digits: string | null): CallEventSignal {
  return {
    eventId: e.id,
    name: e.event_name,
    time: e.event_time ?? null,
    state: e.state ?? null,
    context: e.context ?? null,
    destination: e.destination ?? null,
    src: e.src ?? null,
    dst: e.dst ?? null,
    srcId: e.src_id ?? null,
    dstId: e.dst_id ?? null,
    srcName: e.src_name ?? null,
    dstName: e.dst_name ?? null,
    duration: e.duration ?? null,
    tCause: e.t_cause ?? null,
    connectedAt: e.connected_at ?? null,
    digits,
  };
}
