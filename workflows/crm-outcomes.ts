// The scheduled pass that writes the outcomes agents set in the CRM back onto the calls' CDRs. Its
// activity reads the CRM, so it runs on the CRM's rate-limited task queue.
import type { CrmOutcomesResult } from '../contracts';
import { crmActivities } from './crm-activities';

export async function crmOutcomes(input: { account: string }): Promise<CrmOutcomesResult> {
  return crmActivities().applyCrmOutcomes(input);
}
