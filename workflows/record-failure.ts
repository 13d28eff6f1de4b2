// A call's or callback's follow-up that gives up leaves a trace: when an activity fails for good
// (non-retryable, or its bounded retries spent), the workflow records the failure through an
// activity (call_failures, shown by `callsync status`) before it fails itself.
import { ActivityFailure, ApplicationFailure, workflowInfo } from '@temporalio/workflow';
import type { CallFailureInput } from '../activities/call-activities';

/** Runs `body`; an activity failure is recorded with `record` and rethrown. */
export async function recordingFailures<T>(
  who: { account: string; subject: string; retryOf?: string | undefined },
  record: (failure: CallFailureInput) => Promise<void>,
  body: () => Promise<T>,
): Promise<T> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof ActivityFailure) {
      const cause = err.cause;
      const info = workflowInfo();
      await record({
        account: who.account,
        subject: who.subject,
        workflowId: info.workflowId,
        runId: info.runId,
        workflowType: info.workflowType,
        activity: err.activityType,
        failureType:
          cause instanceof ApplicationFailure
            ? (cause.type ?? 'ApplicationFailure')
            : (cause?.name ?? err.name),
        message: cause?.message ?? err.message,
        retryState: err.retryState === undefined ? null : String(err.retryState),
        ...(who.retryOf !== undefined ? { retryOf: who.retryOf } : {}),
      });
    }
    throw err;
  }
}
