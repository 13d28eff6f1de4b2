// The callback workflow as call lifecycles and tests see it: one open callback per caller number
// per account, opened by a missed call nobody answered and closed by a later call that reached the
// caller. "Later" is by the calls' start times (the platform's calldate / start_time), ties broken by
// call id.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import { workflowRef } from './workflow-ref';

export interface CallbackInput {
  account: string;
  /** The caller's number, as the platform reports it. */
  number: string;
  /**
   * Missed calls that came after the previous run of this callback had closed or expired: this run
   * starts with them (continue-as-new), as if they had been signalled.
   */
  pending?: MissedCallNote[];
}

/** One missed call of a callback. */
export interface MissedCallNote {
  callId: number;
  /** When the call was missed (ISO 8601). */
  at: string;
  /**
   * When the call started (ISO 8601, the platform's start_time or calldate): what orders it among the
   * caller's calls. Null or absent when not known (old notes, events without start_time).
   */
  startedAt?: string | null;
  calledUserId: number | null;
  queueId: number | null;
}

/**
 * Where a callback stands: `open` while nobody has reached the caller, `closed` by the call that
 * reached them (`closedByCallId`), `expired` when the policy gave up (callbacks.expireAfter).
 */
export type CallbackStatus = 'open' | 'closed' | 'expired';

/** Where a callback stands (the `callbackState` query). */
export interface CallbackState {
  number: string;
  status: CallbackStatus;
  missed: MissedCallNote[];
  dialAttempts: { at: string; outcome: string }[];
  closedByCallId: number | null;
}

/** A call that reached the caller: its id and when it started (ISO 8601). */
export interface CallerReach {
  callId: number;
  startedAt: string;
}

/** A connected call with this number: its id, and when it started (absent in signals sent before). */
export interface CallConnectedNote {
  callId: number;
  startedAt?: string | null;
}

/** Another call from this number was missed. */
export const missedCallSignal = defineSignal<[MissedCallNote]>('missedCall');

/**
 * A call with this number connected: the callback closes when that call started after every missed
 * call it holds; a missed call it holds that turns out to have connected is no longer missed.
 */
export const callConnectedSignal = defineSignal<[CallConnectedNote]>('callConnected');

/** Where the callback stands. */
export const callbackStateQuery = defineQuery<CallbackState>('callbackState');

/**
 * Workflow id of a caller's callback: one open callback per number per account. `callerKey` is the
 * keyed hash of the number (lib/caller-key.ts), so ids (visible to anyone who can list workflows,
 * unencrypted) carry no phone number.
 */
export function callbackWorkflowId(account: string, callerKey: string): string {
  return `callback-${account}-${callerKey}`;
}

/**
 * The id callbacks had before ids were hashed (the number in clear); such callbacks still running are
 * signalled under it until they end (activities/callback-activities.ts).
 */
export function legacyCallbackWorkflowId(account: string, number: string): string {
  return `callback-${account}-${number}`;
}

/** The signature of `workflows/callback.ts`. */
export type CallbackWorkflow = (input: CallbackInput) => Promise<CallbackState>;

/** Start or signal-with-start a callback through this. */
export const callbackWorkflow = workflowRef<CallbackWorkflow>('callback');

/** A call's place in a caller's history: its start time (ms) and id. */
export interface CallOrderKey {
  at: number;
  callId: number;
}

/**
 * Where a missed call stands among the caller's calls: its start. A note without one (from before
 * notes carried it, or of an event without `start_time`) counts as older than any call that reached
 * the caller, which is how every missed call was treated before.
 */
export function missedCallOrder(m: MissedCallNote): CallOrderKey {
  const started = m.startedAt ? Date.parse(m.startedAt) : NaN;
  return { at: Number.isNaN(started) ? -Infinity : started, callId: m.callId };
}

/** Whether call `a` came before call `b`: by start time, ties broken by call id. */
export function callBefore(a: CallOrderKey, b: CallOrderKey): boolean {
  return a.at < b.at || (a.at === b.at && a.callId < b.callId);
}
