// Screen-pop: when an inbound call starts ringing, the receiver starts this workflow at once (not
// through the relay's batches); it finds the caller in the CRM and puts a link to them on the live
// call. One workflow per call: a redelivered call.ringing finds it started and does nothing more.
import { workflowRef } from './workflow-ref';

export interface ScreenPopInput {
  account: string;
  callId: number;
  /** The caller's number as the event gave it (src). */
  caller: string | null;
}

/** What the screen-pop did. */
export interface ScreenPopResult {
  /** contact: linked to the caller's page; create: linked to "create contact"; gone: the call ended first. */
  outcome: 'contact' | 'create' | 'gone' | 'skipped';
  crmId?: string;
  /** Where the contact came from (memory, cache, crm). */
  source?: string;
  reason?: string;
}

/** The call's screen-pop workflow id (call ids are not personal data). */
export function screenPopWorkflowId(account: string, callId: number): string {
  return `screenpop-${account}-${callId}`;
}

export type ScreenPopWorkflow = (input: ScreenPopInput) => Promise<ScreenPopResult>;

export const screenPopWorkflow = workflowRef<ScreenPopWorkflow>('screenPop');
