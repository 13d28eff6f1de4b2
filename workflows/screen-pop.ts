// A ringing call's screen-pop: one local activity (no round trip through an activity task queue, so
// the link lands while the phone rings). A few quick retries; a ringing call does not wait longer.
import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { SCREEN_POP_ACTIVITY } from '../contracts/activity-options';
import type { ScreenPopInput, ScreenPopResult } from '../contracts';

const { popCallerLink } = proxyLocalActivities<Activities>(SCREEN_POP_ACTIVITY);

export async function screenPop(input: ScreenPopInput): Promise<ScreenPopResult> {
  return popCallerLink(input);
}
