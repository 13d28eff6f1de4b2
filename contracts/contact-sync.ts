// The two-way contact sync as its schedule and tests see it: one workflow run per account and CRM
// each interval (docs/contact-sync.md "Contact sync"). Ids carry the account's name only, no personal data.
import { workflowRef } from './workflow-ref';

export interface ContactSyncInput {
  account: string;
}

/** What one run read, linked and wrote. */
export interface ContactSyncSummary {
  phase: 'initial' | 'incremental';
  platformRead: number;
  crmRead: number;
  linked: number;
  createdInCrm: number;
  createdOnPlatform: number;
  updatedInCrm: number;
  updatedOnPlatform: number;
  /** Linked CRM records read back exactly as callsync last left them (its own writes among them). */
  unchanged: number;
  ambiguous: number;
  deleted: number;
}

/** Prefix of the contact sync schedules (and the ids of the runs they start). */
export const CONTACT_SYNC_PREFIX = 'contacts-';

/** Schedule id (and scheduled workflow id) of one account's contact sync. */
export function contactSyncId(account: string): string {
  return `${CONTACT_SYNC_PREFIX}${account}`;
}

export type ContactSyncWorkflow = (input: ContactSyncInput) => Promise<ContactSyncSummary>;

export const contactSyncWorkflow = workflowRef<ContactSyncWorkflow>('contactSync');
