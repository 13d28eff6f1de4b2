// Messages on the CRM contact: the workflow a received SMS starts at
// once (from the receiver), and the scheduled pass per account that logs what the streams brought.
import type { SmsReceivedEvent } from '../connectors/platform/schemas/events';
import { workflowRef } from './workflow-ref';

export interface SmsReceivedInput {
  account: string;
  event: Pick<SmsReceivedEvent, 'id' | 'event_time' | 'from_no' | 'to_no' | 'text' | 'user_id'>;
}

/** What the received SMS became. */
export interface SmsReceivedResult {
  smsId: number;
  /** The CRM object it is logged as; null when the CRM has no contact for the sender. */
  crmId: string | null;
}

/** The scheduled pass: what it logged. */
export interface ConversationsPassResult {
  sms: number;
  voicemail: number;
  /** Messages whose counterpart is no CRM contact (looked at again next pass). */
  noContact: number;
}

/** Workflow id of a received SMS's workflow: one per event, so a redelivery starts nothing. */
export function smsReceivedWorkflowId(account: string, eventId: string): string {
  return `sms-${account}-${eventId}`;
}

/** Schedule id (and workflow id of scheduled runs) of an account's conversations pass. */
export function conversationsScheduleId(account: string): string {
  return `conversations-${account}`;
}

export type SmsReceivedWorkflow = (input: SmsReceivedInput) => Promise<SmsReceivedResult>;
export type ConversationsWorkflow = (input: { account: string }) => Promise<ConversationsPassResult>;

export const smsReceivedWorkflow = workflowRef<SmsReceivedWorkflow>('smsReceived');
export const conversationsWorkflow = workflowRef<ConversationsWorkflow>('conversations');
