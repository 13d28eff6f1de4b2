// The story of one call (or one caller) of a failing seed, as text: what really happened (the
// ledger), the events as the platform sent them, as the receiver stored them, the call's timeline,
// its workflows' histories and what the CRM holds for it.
import { WorkflowNotFoundError } from '@temporalio/client';
import { callbackWorkflowId, callWorkflowId } from '../../contracts';
import { callerKey } from '../../lib/caller-key';
import { workflowIdKey } from '../../lib/encryption-keys';
import { workflowStory } from '../../test/support/workflow-story';
import type { BrokenPromise } from './oracle';
import { realTimeOf, type LedgerCall } from './facts';
import type { DayClock } from './gather';
import { readLedger } from './gather';
import { ACCOUNT, type SeedStack } from './stack';

interface Delivery {
  event_id: string;
  event_name: string;
  call_id: number | null;
  ok: boolean;
  fault: string | null;
  attempt?: number;
  at?: string;
}

const when = (clock: DayClock, epochS: number) =>
  `${new Date(epochS * 1000).toISOString().slice(11, 19)} (real +${((realTimeOf(clock, epochS) - clock.realAt) / 1000).toFixed(1)} s)`;

async function workflowText(stack: SeedStack, workflowId: string): Promise<string> {
  try {
    return await workflowStory(stack.client.workflow.getHandle(workflowId));
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return `workflow ${workflowId}: never started`;
    return `workflow ${workflowId}: ${String(err)}`;
  }
}

/**
 * One line of what callsync made of a call, first in its story: CI output keeps a story's first
 * lines only, and these say at once which path lost it (webhooks, the CDR sync, the workflow, the CRM).
 */
async function callSummary(stack: SeedStack, callId: number): Promise<string> {
  const deliveries = (
    (await stack.control('GET', '/webhooks/deliveries')) as { data: Delivery[] }
  ).data.filter((d) => d.call_id === callId);
  const { rows: inbox } = await stack.warehouse.query<{ status: string }>(
    'SELECT status FROM webhook_inbox WHERE account = $1 AND call_id = $2',
    [ACCOUNT, callId],
  );
  const { rows: cdrs } = await stack.warehouse.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM cdrs WHERE account = $1 AND live_id = $2',
    [ACCOUNT, callId],
  );
  let lifecycle: string;
  try {
    const d = await stack.client.workflow.getHandle(callWorkflowId(ACCOUNT, callId)).describe();
    lifecycle = `${d.status.name} (started ${d.startTime.toISOString()}${d.closeTime ? `, closed ${d.closeTime.toISOString()}` : ''})`;
  } catch (err) {
    lifecycle = err instanceof WorkflowNotFoundError ? 'never started' : String(err);
  }
  const statuses = [...new Set(inbox.map((r) => r.status))].join('/') || '-';
  const logs = stack.hubspot
    .objects('calls')
    .filter((o) => o.properties.callsync_key === `${ACCOUNT}:${callId}`);
  return (
    `in short: deliveries ${deliveries.length} (${deliveries.filter((d) => d.ok).length} acknowledged), ` +
    `inbox ${inbox.length} events (${statuses}), CDR rows synced ${cdrs[0]?.n ?? 0}, lifecycle ${lifecycle}, CRM logs ${logs.length}`
  );
}

async function callStory(
  stack: SeedStack,
  clock: DayClock,
  call: LedgerCall | undefined,
  callId: number,
): Promise<string[]> {
  const lines: string[] = [];
  lines.push(
    call
      ? `call ${callId}: ${call.scenario}, ${call.direction}, ${call.external ?? 'no number'}, ` +
          `${when(clock, call.start)} → ${when(clock, call.end)}, ` +
          `${call.connected ? 'connected' : 'not connected'}${call.missed ? ', missed' : ''}${call.voicemail ? ', voicemail' : ''}` +
          `${call.legs_missed ? `, ${call.legs_missed} missed legs` : ''}${call.long ? ', long' : ''}${call.from_api ? ', placed through the API' : ''}` +
          `; CDR ${call.cdr_id ?? 'none'}, recording ${call.recording_id ?? 'none'}`
      : `call ${callId}: not in the ledger`,
  );
  if (!call) {
    // What the platform holds of a call the simulator never played: its live row and CDRs.
    const customer = stack.emulator.store.tables.calls.get(callId);
    if (customer) lines.push(`live call row: ${JSON.stringify(customer.row)}`);
    const cdrs = stack.emulator.store.tables.cdrs.query(stack.emulator.admin.customer_id, {
      page: 1,
      limit: 10,
      filter: [{ property: 'live_id', operator: 'eq', value: callId }],
    }).data;
    for (const c of cdrs) lines.push(`CDR: ${JSON.stringify(c)}`);
  }
  const deliveries = (
    (await stack.control('GET', '/webhooks/deliveries')) as { data: Delivery[] }
  ).data.filter((d) => d.call_id === callId);
  lines.push("events as sent (the platform's delivery log):");
  for (const d of deliveries)
    lines.push(
      `  ${d.at ?? ''} ${d.event_name} ${d.event_id.slice(0, 8)} ${d.ok ? 'acknowledged' : 'failed'}${d.fault ? ` [${d.fault}]` : ''}`,
    );
  const { rows: inbox } = await stack.warehouse.query<{
    event_id: string;
    event_name: string;
    status: string;
    received_at: Date;
  }>(
    'SELECT event_id, event_name, status, received_at FROM webhook_inbox WHERE account = $1 AND call_id = $2 ORDER BY id',
    [ACCOUNT, callId],
  );
  lines.push('events as received (the inbox):');
  for (const r of inbox)
    lines.push(`  ${r.received_at.toISOString()} ${r.event_name} ${r.event_id.slice(0, 8)} ${r.status}`);
  const { rows: timeline } = await stack.warehouse.query<{ name: string; event_id: string }>(
    'SELECT name, event_id FROM call_events WHERE account = $1 AND call_id = $2 ORDER BY event_time, recorded_at',
    [ACCOUNT, callId],
  );
  lines.push(`timeline: ${timeline.map((t) => t.name).join(', ') || 'empty'}`);
  lines.push(await workflowText(stack, callWorkflowId(ACCOUNT, callId)));
  const logs = stack.hubspot
    .objects('calls')
    .filter((o) => o.properties.callsync_key === `${ACCOUNT}:${callId}`);
  for (const o of logs)
    lines.push(
      `CRM log ${o.id}: ${o.properties.hs_call_status} ${o.properties.hs_call_disposition ?? ''}, contacts [${o.associations.map((a) => a.toId).join(', ')}], recording ${o.properties.hs_call_recording_url ? 'yes' : 'no'}`,
    );
  return lines;
}

/** The story behind a broken promise (its call, or its caller's calls and callback). */
export async function storyOf(stack: SeedStack, clock: DayClock, broken: BrokenPromise): Promise<string> {
  const ledger = await readLedger(stack);
  const lines: string[] = [`${broken.promise}: ${broken.detail}`];
  if (broken.number) {
    const calls = ledger.calls
      .filter((c) => c.external === broken.number)
      .sort((a, b) => a.start - b.start || a.call_id - b.call_id);
    lines.push(`caller ${broken.number}: ${calls.length} calls of the day`);
    for (const c of calls)
      lines.push(
        `  call ${c.call_id} ${c.scenario} ${c.direction} ${when(clock, c.start)}–${when(clock, c.end)} ${c.connected ? 'reached' : c.direction === 'in' ? 'MISSED' : 'not connected'}${c.from_api ? ' (API)' : ''}`,
      );
    for (const t of stack.hubspot
      .objects('tasks')
      .filter((o) => (o.properties.callsync_key ?? '').includes(`:callback:${broken.number}:`)))
      lines.push(
        `task ${t.properties.callsync_key}: ${t.properties.hs_task_status}\n    ${(t.properties.hs_task_body ?? '').replace(/\n/g, '\n    ')}`,
      );
    const key = callerKey(workflowIdKey(stack.config.temporal), ACCOUNT, broken.number);
    lines.push(await workflowText(stack, callbackWorkflowId(ACCOUNT, key)));
  }
  if (broken.callId !== undefined) {
    lines.splice(
      1,
      0,
      await callSummary(stack, broken.callId).catch((e: unknown) => `in short: ${String(e)}`),
    );
    const call = ledger.calls.find((c) => c.call_id === broken.callId);
    lines.push(...(await callStory(stack, clock, call, broken.callId)));
  }
  lines.push(`callsync's log: ${stack.logFile}`);
  return lines.join('\n');
}
