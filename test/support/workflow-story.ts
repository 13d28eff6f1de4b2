// What a workflow is doing, as text for a test's timeout message: its status, its pending
// activities with their last failures, and the last events of its current run's history.
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const LAST_EVENTS = 25;

export async function workflowStory(handle: WorkflowHandle): Promise<string> {
  const d = await handle.describe();
  const pending = (d.raw.pendingActivities ?? []).map(
    (a) =>
      `  pending ${a.activityType?.name ?? '?'} attempt ${a.attempt ?? 0}` +
      (a.lastFailure?.message ? `: ${a.lastFailure.message}` : ''),
  );
  const events = (await handle.fetchHistory()).events ?? [];
  const last = events.slice(-LAST_EVENTS).map((e) => {
    const failure =
      e.workflowTaskFailedEventAttributes?.failure?.message ??
      e.activityTaskFailedEventAttributes?.failure?.message ??
      e.workflowTaskTimedOutEventAttributes?.timeoutType ??
      '';
    return `  ${String(e.eventId)} ${eventName(e.eventType)}${failure ? ` (${String(failure)})` : ''}`;
  });
  return [
    `workflow ${d.workflowId} run ${d.runId}: ${d.status.name}, ${events.length} history events`,
    ...pending,
    `last events:`,
    ...last,
  ].join('\n');
}

/** EVENT_TYPE_WORKFLOW_TASK_FAILED → WorkflowTaskFailed. */
function eventName(type: unknown): string {
  const name = temporal.api.enums.v1.EventType[Number(type)] ?? String(type);
  return name
    .replace(/^EVENT_TYPE_/, '')
    .toLowerCase()
    .replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
}
