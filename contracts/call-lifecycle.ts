// The call lifecycle workflow as the relay, the CDR sync and tests see it: its input, signals, query
// and id. One workflow per call, keyed by the platform's call (live) id.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { CallSummary } from '../connectors/crm/call-log';
import type { CallEventSignal } from './call-event-signal';
import { workflowRef } from './workflow-ref';

export interface CallLifecycleInput {
  account: string;
  callId: number;
  /** Started by the CDR sync for a call no webhook announced. */
  fromCdr?: boolean;
  /** The state a previous run handed over when it continued as new. */
  carried?: CallLifecycleCarried;
  /** History events of one run before it continues as new (tests set it low). */
  historyLimit?: number;
  /**
   * This run retries the follow-up that failed as call_failures row `retryOf` (dashboard or
   * `callsync retry`): it starts again from the CDR, and writes how it ended on that row.
   */
  retryOf?: string;
}

/** What a missed-call event says about the call (the fields a callback needs). */
export type MissedCallEvent = Pick<
  CallEventSignal,
  'time' | 'src' | 'dst' | 'destination' | 'dstId' | 'context' | 'startTime'
>;

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
  /**
   * Someone answered the call (a `call.connected` event came): a missed leg of it (a ring group's,
   * a queue agent's) opens no callback. Absent in state carried from runs before it was kept.
   */
  connected?: boolean;
  /** The call's start time as its events give it (`start_time`), when one did. */
  startTime?: string | null;
  /** Where the call's follow-up stands. */
  phase: 'live' | 'cdr' | 'log' | 'recording' | 'done';
  /** Workflow times (ms): end of the live wait, of the CDR wait, of the recording wait. */
  callDeadline: number;
  cdrDeadline: number | null;
  horizon: number | null;
  /** The current backoff of the CDR or recording poll, in ms. */
  delay: number;
  /** When the recording is next checked (workflow time, ms); absent in runs from before it existed. */
  nextCheckAt?: number | null;
  /** A recording-seen note arrived since the last check. */
  recordingNudged?: boolean;
  cdr: CallFacts | null;
  /** The CRM call log written (its CRM id and what it holds). */
  log: LogCallResult | null;
  continuedRuns: number;
}

/** What the workflow needs to know about an ended call (no record bodies). */
export interface CallFacts extends CallSummary {
  cdrId: number;
  /** When the call started (the CDR's calldate, ISO 8601); absent in facts read before it was kept. */
  startedAt?: string | null;
  userId: number | null;
  /** Queue id when the call went through a queue. */
  queueId: number | null;
}

/** The call's CRM log as written so far. */
export interface LogCallResult {
  crmId: string;
  recording: boolean;
  transcript: boolean;
  /** False when nothing new was there to write. */
  written: boolean;
}

/** Where a call's follow-up stands (the `callState` query). */
export interface CallState {
  events: number;
  ended: boolean;
  cdr: CallFacts | null;
  log: LogCallResult | null;
  /** The callback was opened from the missed-call event (before the CDR). */
  callbackOpened: boolean;
  /** Runs this call's workflow has continued as new. */
  continuedRuns: number;
}

/** One call event. */
export const callEventSignal = defineSignal<[CallEventSignal]>('callEvent');

/**
 * Several events of one call, in arrival order: the relay hands over a call's backlog in one signal,
 * since each signal costs Temporal far more than an event's few hundred bytes.
 */
export const callEventsSignal = defineSignal<[CallEventSignal[]]>('callEvents');

/** Where the call's follow-up stands. */
export const callStateQuery = defineQuery<CallState>('callState');

/** Workflow id of a call's lifecycle workflow. */
export function callWorkflowId(account: string, callId: number): string {
  return `call-${account}-${callId}`;
}

/** The signature of `workflows/call-lifecycle.ts`. */
export type CallLifecycleWorkflow = (input: CallLifecycleInput) => Promise<CallState>;

/** Start or signal-with-start a call's lifecycle through this. */
export const callLifecycleWorkflow = workflowRef<CallLifecycleWorkflow>('callLifecycle');
