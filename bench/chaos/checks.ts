// What a chaos run must end with, each read from the systems themselves: every CDR of the platform
// exactly once in the warehouse; one CRM call log per call, with its recording and transcript; one
// callback task per missed caller; every acknowledged webhook in the inbox, relayed, and (for call
// events) on its call's timeline; no secret in any log.
import { readFileSync } from 'node:fs';
import { TEST_EVENT_NAME } from '../../connectors/platform/schemas/events';
import type { FakeObject } from '../../test/fakes/hubspot-server';
import type { DeliveryEntry } from './faults';
import { ACCOUNT, type ChaosStack } from './stack';

/** A call the harness placed through the simulator. */
export interface PlacedCall {
  call_id: number;
  scenario: string;
}

export interface CheckResult {
  missing: number;
  duplicates: number;
  extra_crm_logs: number;
  lost_webhooks: number;
  /** What each number is made of, with examples, for the log. */
  detail: Record<string, number | string>;
}

/** Warehouse ids against the platform's: ids not stored, and rows beyond one per id. */
async function checkCdrs(stack: ChaosStack, detail: CheckResult['detail']): Promise<[number, number]> {
  const customer = stack.emulator.admin.customer_id;
  const t = stack.emulator.store.tables.cdrs;
  const platform = t.query(customer, { page: 1, limit: t.count(customer) + 1, filter: [] }).data;
  const { rows } = await stack.warehouse.pool.query<{ id: string; n: number }>(
    'SELECT id::text AS id, count(*)::int AS n FROM cdrs WHERE account = $1 GROUP BY id',
    [ACCOUNT],
  );
  const stored = new Map(rows.map((r) => [Number(r.id), r.n]));
  const missing = platform.filter((r) => !stored.has(Number(r.id)));
  const known = new Set(platform.map((r) => Number(r.id)));
  let duplicates = 0;
  for (const [id, n] of stored) duplicates += known.has(id) ? n - 1 : n;
  detail.cdrs_platform = platform.length;
  detail.cdrs_missing = missing.length;
  detail.cdrs_duplicate_rows = duplicates;
  if (missing.length > 0)
    detail.cdrs_missing_example = missing
      .slice(0, 5)
      .map((r) => r.id)
      .join(',');
  return [missing.length, duplicates];
}

const callIdOfKey = (key: string | null | undefined): number | undefined => {
  const m = /^[^:]+:(\d+)$/.exec(key ?? '');
  return m ? Number(m[1]) : undefined;
};

/** Call logs: one per placed call, each recording and transcript on it, none for calls that do not exist. */
function checkCallLogs(
  stack: ChaosStack,
  placed: PlacedCall[],
  detail: CheckResult['detail'],
): { missing: number; duplicates: number; extra: number; logs: Map<number, FakeObject[]> } {
  const logs = new Map<number, FakeObject[]>();
  let extra = 0;
  const customer = stack.emulator.admin.customer_id;
  const cdrs = stack.emulator.store.tables.cdrs;
  const liveIds = new Set(
    cdrs
      .query(customer, { page: 1, limit: cdrs.count(customer) + 1, filter: [] })
      .data.map((r) => Number(r.live_id))
      .filter((n) => n > 0),
  );
  for (const o of stack.hubspot.objects('calls')) {
    const id = callIdOfKey(o.properties.callsync_key);
    if (id === undefined || !liveIds.has(id)) {
      extra++;
      continue;
    }
    logs.set(id, [...(logs.get(id) ?? []), o]);
  }
  let duplicates = 0;
  for (const list of logs.values()) duplicates += list.length - 1;
  const monitors = stack.emulator.store.tables.monitors;
  const recordings = new Map<number, { transcript: unknown }>();
  for (const m of monitors.query(customer, { page: 1, limit: monitors.count(customer) + 1, filter: [] })
    .data) {
    recordings.set(Number(m.live_id), { transcript: m.transcript });
  }
  let missingLogs = 0;
  let missingRecordings = 0;
  let missingTranscripts = 0;
  for (const p of placed) {
    const log = logs.get(p.call_id)?.[0];
    if (!log) {
      missingLogs++;
      continue;
    }
    const recording = recordings.get(p.call_id);
    if (!recording) continue;
    if (!log.properties.hs_call_recording_url) missingRecordings++;
    const hasTranscript = typeof recording.transcript === 'string' && recording.transcript.trim() !== '';
    if (hasTranscript && !(log.properties.hs_call_body ?? '').includes('Transcript (excerpt)'))
      missingTranscripts++;
  }
  detail.crm_logs = stack.hubspot.objects('calls').length;
  detail.crm_logs_missing = missingLogs;
  detail.crm_recordings_missing = missingRecordings;
  detail.crm_transcripts_missing = missingTranscripts;
  detail.crm_logs_duplicate = duplicates;
  detail.placed_recorded = placed.filter((p) => recordings.has(p.call_id)).length;
  return { missing: missingLogs + missingRecordings + missingTranscripts, duplicates, extra, logs };
}

/** Callback tasks: every missed call of a caller in exactly one task, at most one open task per caller. */
function checkTasks(
  stack: ChaosStack,
  logs: Map<number, FakeObject[]>,
  detail: CheckResult['detail'],
): { missing: number; duplicates: number } {
  const tasks = stack.hubspot.objects('tasks');
  const byKey = new Map<string, number>();
  const openPerNumber = new Map<string, number>();
  const tasksOfCall = new Map<number, number>();
  for (const t of tasks) {
    const key = t.properties.callsync_key ?? '';
    byKey.set(key, (byKey.get(key) ?? 0) + 1);
    const number = /^[^:]+:callback:(.+):\d+$/.exec(key)?.[1] ?? '?';
    if (t.properties.hs_task_status !== 'COMPLETED')
      openPerNumber.set(number, (openPerNumber.get(number) ?? 0) + 1);
    for (const m of (t.properties.hs_task_body ?? '').matchAll(/\(call (\d+)[,)]/g)) {
      const id = Number(m[1]);
      tasksOfCall.set(id, (tasksOfCall.get(id) ?? 0) + 1);
    }
  }
  let duplicates = 0;
  for (const n of byKey.values()) duplicates += n - 1;
  for (const n of openPerNumber.values()) duplicates += Math.max(0, n - 1);
  let missing = 0;
  let missedCalls = 0;
  for (const [callId, list] of logs) {
    const log = list[0]!;
    if (log.properties.hs_call_status !== 'NO_ANSWER' || log.properties.hs_call_direction !== 'INBOUND')
      continue;
    if (!log.properties.hs_call_from_number) continue;
    missedCalls++;
    const n = tasksOfCall.get(callId) ?? 0;
    if (n === 0) missing++;
    duplicates += Math.max(0, n - 1);
  }
  detail.missed_calls = missedCalls;
  detail.callback_tasks = tasks.length;
  detail.callback_tasks_missing = missing;
  return { missing, duplicates };
}

/** Acknowledged deliveries whose event is not in the inbox as relayed, or not on its call's timeline. */
async function checkWebhooks(
  stack: ChaosStack,
  deliveries: DeliveryEntry[],
  detail: CheckResult['detail'],
): Promise<number> {
  const acked = new Map<string, DeliveryEntry>();
  // The test event of the webhook's registration is acknowledged and, by design, not stored.
  for (const d of deliveries) if (d.ok && d.event_name !== TEST_EVENT_NAME) acked.set(d.event_id, d);
  const { rows: inbox } = await stack.warehouse.pool.query<{ event_id: string; status: string }>(
    'SELECT event_id, status FROM webhook_inbox WHERE account = $1',
    [ACCOUNT],
  );
  const status = new Map(inbox.map((r) => [r.event_id, r.status]));
  const { rows: timeline } = await stack.warehouse.pool.query<{ event_id: string }>(
    'SELECT event_id FROM call_events WHERE account = $1',
    [ACCOUNT],
  );
  const onTimeline = new Set(timeline.map((r) => r.event_id));
  const notStored: string[] = [];
  const notRelayed: string[] = [];
  const notOnTimeline: string[] = [];
  for (const [eventId, d] of acked) {
    const s = status.get(eventId);
    if (s === undefined) notStored.push(eventId);
    else if (s !== 'done') notRelayed.push(eventId);
    else if (d.call_id !== null && !onTimeline.has(eventId))
      notOnTimeline.push(`${eventId} (${d.event_name}, call ${d.call_id})`);
  }
  detail.webhooks_acknowledged = acked.size;
  const count = (name: string, ids: string[]) => {
    detail[name] = ids.length;
    // A few of them by name, so a run that does not converge says which events to look for.
    if (ids.length > 0) detail[`${name}_examples`] = ids.slice(0, 3).join(', ');
  };
  count('webhooks_not_stored', notStored);
  count('webhooks_not_relayed', notRelayed);
  count('webhooks_not_on_timeline', notOnTimeline);
  return notStored.length + notRelayed.length + notOnTimeline.length;
}

/** Everything but secrets; zeros everywhere when the run kept its promises. */
export async function checkEverything(
  stack: ChaosStack,
  placed: PlacedCall[],
  deliveries: DeliveryEntry[],
): Promise<CheckResult> {
  const detail: CheckResult['detail'] = {};
  const [cdrsMissing, cdrDuplicates] = await checkCdrs(stack, detail);
  const calls = checkCallLogs(stack, placed, detail);
  const tasks = checkTasks(stack, calls.logs, detail);
  const lost = await checkWebhooks(stack, deliveries, detail);
  return {
    missing: cdrsMissing + calls.missing + tasks.missing,
    duplicates: cdrDuplicates + calls.duplicates + tasks.duplicates,
    extra_crm_logs: calls.extra,
    lost_webhooks: lost,
    detail,
  };
}

/** Occurrences of any secret in any of the files, as "file: which secret" lines (secrets not shown). */
export function findSecrets(files: string[], secrets: string[]): string[] {
  const found: string[] = [];
  const wanted = [...new Set(secrets.filter((s) => s.length >= 8))];
  for (const file of files) {
    let text: Buffer;
    try {
      text = readFileSync(file);
    } catch {
      continue;
    }
    wanted.forEach((secret, i) => {
      for (const form of new Set([secret, encodeURIComponent(secret)])) {
        if (text.includes(form)) found.push(`${file}: secret #${i} (${secret.slice(0, 3)}…)`);
      }
    });
  }
  return found;
}
