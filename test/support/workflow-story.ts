// What a workflow is doing, as text for a test's timeout message: its status, its pending
// activities with their last failures, and the last events of its current run's history.
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { Payload, PayloadCodec } from '@temporalio/common';
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

/**
 * Every run of a workflow id (a continue-as-new chain), oldest first: its status, its events, its
 * signals (and which carried an event id in `watch`), its failed workflow tasks and how it ended.
 * For a timeout message when a signal may have gone to a run that had already handed over.
 */
export async function chainStory(
  client: Client,
  workflowId: string,
  codec: PayloadCodec | undefined,
  watch: readonly string[] = [],
): Promise<string> {
  const runs: { runId: string; startTime: Date; status: string }[] = [];
  for await (const w of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    runs.push({ runId: w.runId, startTime: w.startTime, status: w.status.name });
  }
  runs.sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
  const lines = [`chain ${workflowId}: ${runs.length} runs`];
  for (const run of runs) {
    const events = (await client.workflow.getHandle(workflowId, run.runId).fetchHistory()).events ?? [];
    let signals = 0;
    const watched: string[] = [];
    const failures: string[] = [];
    let end = '';
    for (const e of events) {
      const signal = e.workflowExecutionSignaledEventAttributes;
      if (signal) {
        signals++;
        const text = await payloadText(signal.input?.payloads ?? [], codec);
        for (const w of watch) if (text.includes(w)) watched.push(`${w}@${String(e.eventId)}`);
      }
      const failed = e.workflowTaskFailedEventAttributes;
      if (failed) failures.push(`${String(e.eventId)}:${String(failed.cause)}`);
      const continued = e.workflowExecutionContinuedAsNewEventAttributes;
      if (continued) {
        const input = await payloadText(continued.input?.payloads ?? [], codec);
        end = ` continued as new at ${String(e.eventId)} carrying ended=${/"ended":true/.test(input)}`;
      }
    }
    lines.push(
      `  run ${run.runId} ${run.status}: ${events.length} events, ${signals} signals` +
        (watched.length ? ` (watched: ${watched.join(', ')})` : '') +
        (failures.length ? `, failed tasks ${failures.join(' ')}` : '') +
        end,
    );
  }
  return lines.join('\n');
}

async function payloadText(payloads: Payload[], codec: PayloadCodec | undefined): Promise<string> {
  const decoded = codec ? await codec.decode(payloads) : payloads;
  return decoded.map((p) => Buffer.from(p.data ?? new Uint8Array()).toString('utf8')).join('\n');
}
