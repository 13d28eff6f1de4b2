import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ContactSyncInput, ContactSyncSummary } from '../contracts';
import { SYNC_ACTIVITIES } from '../contracts/activity-options';

// A first sync of a large book is rate-limited by the CRM (25,000 contacts take minutes): the activity
// heartbeats between batches, and a retry resumes from the links its batches committed.
const { syncContacts } = proxyActivities<Activities>({
  ...SYNC_ACTIVITIES,
  startToCloseTimeout: '2 hours',
});

/** One run of the two-way contact sync of an account with its CRM (started by its schedule). */
export async function contactSync(input: ContactSyncInput): Promise<ContactSyncSummary> {
  return syncContacts(input);
}
