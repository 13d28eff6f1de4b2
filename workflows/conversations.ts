// A received SMS logged at once, and the scheduled pass that logs SMS and voice messages the streams
// brought. Their activities write to the CRM, so they run on the CRM's rate-limited task queue.
import type { ConversationsPassResult, SmsReceivedInput, SmsReceivedResult } from '../contracts';
import { crmActivities } from './crm-activities';

export async function smsReceived(input: SmsReceivedInput): Promise<SmsReceivedResult> {
  return crmActivities().captureReceivedSms(input);
}

export async function conversations(input: { account: string }): Promise<ConversationsPassResult> {
  return crmActivities().logRecentMessages(input);
}
