// What travels from the webhook relay into a call's workflow: ids, times, numbers; never secrets.
import type { CallEventInput } from '../connectors/postgres/repositories/call-events';
import type { CallEvent } from '../connectors/platform/schemas/events';

/** Event name the CDR sync sends a call's workflow when it finds the call's CDR (the call has ended). */
export const CDR_SEEN_EVENT = 'callsync.cdr_seen';

/**
 * Event name that tells a call's workflow its recording or transcript may have arrived (the
 * recordings sync saw it, or callsync's transcription wrote it): the workflow checks at once instead
 * of at its next scheduled check.
 */
export const RECORDING_SEEN_EVENT = 'callsync.recording_seen';

/** One of callsync's own notes to a call's workflow: a name and an id, no event fields. */
export function callsyncNote(eventId: string, name: string, state: string | null = null): CallEventSignal {
  return {
    eventId,
    name,
    time: null,
    state,
    context: null,
    destination: null,
    src: null,
    dst: null,
    srcId: null,
    dstId: null,
    srcName: null,
    dstName: null,
    duration: null,
    tCause: null,
    connectedAt: null,
    startTime: null,
    digits: null,
  };
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
   * When the call started (`start_time`, `YYYY-MM-DD HH:MM:SS` UTC): what orders a caller's calls
   * (which one is later). Absent from signals recorded before it travelled.
   */
  startTime?: string | null;
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
    startTime: e.start_time ?? null,
    digits,
  };
}

/** A call's events as rows of its timeline (`call_events`), each with the whole signal as detail. */
export function timelineEvents(events: readonly CallEventSignal[]): CallEventInput[] {
  return events.map((e) => ({
    eventId: e.eventId,
    name: e.name,
    time: e.time,
    state: e.state,
    context: e.context,
    detail: e,
  }));
}
