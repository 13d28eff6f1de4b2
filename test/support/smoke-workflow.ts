import { proxyActivities } from '@temporalio/workflow';
import type { SmokeActivities } from './smoke-activities';

const { describeCall } = proxyActivities<SmokeActivities>({ startToCloseTimeout: '10 seconds' });

/** The smallest real workflow: one activity call, its result returned. */
export async function smokeWorkflow(input: { callId: number }): Promise<string> {
  const described = await describeCall(input.callId);
  return `workflow saw: ${described}`;
}
