// The callback workflow as call lifecycles and tests see it: one open callback per caller number
// per account, opened by a missed call and closed by a connected one.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import { workflowRef } from './workflow-ref';

export interface CallbackInput {
  account: string;
  /** The caller's number, as the platform reports it. */
  number: string;
}

/** One missed call of a callback. */
export interface MissedCallNote {
  callId: number;
  at: string;
  calledUserId: number | null;
  queueId: number | null;
}

/** Where a callback stands (the `callbackState` query). */
export interface CallbackState {
  number: string;
  status: 'open' | 'closed';
  missed: MissedCallNote[];
  dialAttempts: { at: string; outcome: string }[];
  closedByCallId: number | null;
}

/** Another call from this number was missed. */
export const missedCallSignal = defineSignal<[MissedCallNote]>('missedCall');

/** A call with this number connected: the callback is done. */
export const callConnectedSignal = defineSignal<[{ callId: number }]>('callConnected');

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
 * signalled under it until they end (activities/call-activities.ts).
 */
export function legacyCallbackWorkflowId(account: string, number: string): string {
  return `callback-${account}-${number}`;
}

/** The signature of `workflows/callback.ts`. */
export type CallbackWorkflow = (input: CallbackInput) => Promise<CallbackState>;

/** Start or signal-with-start a callback through this. */
export const callbackWorkflow = workflowRef<CallbackWorkflow>('callback');
