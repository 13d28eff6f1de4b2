// What a chaos run must end with, each read from the systems themselves: every CDR of the platform
// exactly once in the warehouse; one CRM call log per call, with its recording and transcript; a
// callback task open exactly for the callers whose latest call was missed, closed ones naming the
// call that reached the caller; every acknowledged webhook in the inbox, relayed, and (for call
// events) on its call's timeline; no secret in any log.
import { readFileSync } from 'node:fs';
import type { CountryCode } from 'libphonenumber-js';
import { summarizeCdr } from '../../connectors/crm/call-log';
import type { Cdr } from '../../connectors/platform';
import { TEST_EVENT_NAME } from '../../connectors/platform/schemas/events';
import { platformTimeOrUndefined } from '../../sync/time';
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

/** One followed call of a caller, from the platform's own CDR: when it started and what happened. */
interface CallerCall {
  callId: number;
  at: number;
  missed: boolean;
  connected: boolean;
}

/**
 * The calls callsync logged, per outside number, oldest first (by start, ties by call id), with the
 * outcome the platform's CDR gives (the call's CDR as the product picks it: most talk time, then the
 * newest leg); a voicemail counts as missed. Calls neither missed nor connected (a failed dial) neither open nor close a
 * callback and are left out.
 */
function callsByCaller(stack: ChaosStack, logs: Map<number, FakeObject[]>): Map<string, CallerCall[]> {
  const customer = stack.emulator.admin.customer_id;
  const t = stack.emulator.store.tables.cdrs;
  const best = new Map<number, Cdr>();
  for (const row of t.query(customer, { page: 1, limit: t.count(customer) + 1, filter: [] }).data) {
    const cdr = row as unknown as Cdr;
    const liveId = Number(cdr.live_id);
    if (!logs.has(liveId)) continue;
    const held = best.get(liveId);
    if (
      !held ||
      (cdr.billsec ?? 0) > (held.billsec ?? 0) ||
      ((cdr.billsec ?? 0) === (held.billsec ?? 0) && cdr.id > held.id)
    )
      best.set(liveId, cdr);
  }
  const country = stack.config.crm.defaultCountry as CountryCode;
  const byCaller = new Map<string, CallerCall[]>();
  for (const [callId, cdr] of best) {
    const s = summarizeCdr(cdr, country);
    const at = cdr.calldate ? platformTimeOrUndefined(cdr.calldate) : undefined;
    // A caller who left a voicemail was not answered: a callback, like a missed call.
    const missed = s.missed || s.status === 'voicemail';
    if (!s.externalNumber || at === undefined || (!missed && !s.connected)) continue;
    const list = byCaller.get(s.externalNumber) ?? [];
    list.push({ callId, at, missed, connected: s.connected });
    byCaller.set(s.externalNumber, list);
  }
  for (const list of byCaller.values()) list.sort((a, b) => a.at - b.at || a.callId - b.callId);
  return byCaller;
}

/**
 * Callback tasks against the rule "a callback is open for a caller exactly when their latest call
 * was missed and nothing later reached them; it is closed by the call that reached them": no missed
 * call in two tasks; at most one open task per caller; a caller whose latest call was missed has
 * exactly one task not completed that lists that call; a caller whose latest call reached them has
 * no open task; a completed task names the call that reached the caller, one that started after
 * every missed call it lists.
 */
function checkTasks(
  stack: ChaosStack,
  logs: Map<number, FakeObject[]>,
  detail: CheckResult['detail'],
): { missing: number; duplicates: number } {
  const tasks = stack.hubspot.objects('tasks').map((t) => {
    const key = t.properties.callsync_key ?? '';
    const body = t.properties.hs_task_body ?? '';
    return {
      key,
      number: /^[^:]+:callback:(.+):\d+$/.exec(key)?.[1] ?? '?',
      status: t.properties.hs_task_status ?? '',
      calls: [...body.matchAll(/\(call (\d+)[,)]/g)].map((m) => Number(m[1])),
      reachedBy: Number(/Reached by call (\d+)/.exec(body)?.[1] ?? NaN),
    };
  });
  const byKey = new Map<string, number>();
  const openPerNumber = new Map<string, number>();
  const tasksOfCall = new Map<number, number>();
  for (const t of tasks) {
    byKey.set(t.key, (byKey.get(t.key) ?? 0) + 1);
    if (t.status === 'NOT_STARTED') openPerNumber.set(t.number, (openPerNumber.get(t.number) ?? 0) + 1);
    for (const id of t.calls) tasksOfCall.set(id, (tasksOfCall.get(id) ?? 0) + 1);
  }
  let duplicates = 0;
  for (const n of byKey.values()) duplicates += n - 1;
  for (const n of openPerNumber.values()) duplicates += Math.max(0, n - 1);
  for (const n of tasksOfCall.values()) duplicates += Math.max(0, n - 1);

  const callers = callsByCaller(stack, logs);
  let missing = 0;
  let openForReached = 0;
  let unexplained = 0;
  let missedLatest = 0;
  for (const [number, calls] of callers) {
    const latest = calls[calls.length - 1]!;
    const mine = tasks.filter((t) => t.number === number);
    if (latest.missed) {
      missedLatest++;
      const holding = mine.filter((t) => t.status !== 'COMPLETED' && t.calls.includes(latest.callId));
      if (holding.length === 0) missing++;
      duplicates += Math.max(0, holding.length - 1);
    } else if (mine.some((t) => t.status === 'NOT_STARTED')) openForReached++;
    for (const t of mine.filter((x) => x.status === 'COMPLETED')) {
      const reach = calls.find((c) => c.callId === t.reachedBy);
      const listed = calls.filter((c) => t.calls.includes(c.callId));
      const explained =
        reach !== undefined &&
        reach.connected &&
        listed.every((m) => m.at < reach.at || (m.at === reach.at && m.callId < reach.callId));
      // A dialled callback that connected may not be logged yet: it is judged once it is.
      if (!explained && (reach !== undefined || Number.isNaN(t.reachedBy))) unexplained++;
    }
  }
  detail.missed_calls = [...callers.values()].reduce(
    (n, calls) => n + calls.filter((c) => c.missed).length,
    0,
  );
  detail.callers_latest_missed = missedLatest;
  detail.callback_tasks = tasks.length;
  detail.callback_tasks_missing = missing;
  detail.callback_tasks_open_for_reached = openForReached;
  detail.callback_tasks_closed_unexplained = unexplained;
  return { missing: missing + unexplained, duplicates: duplicates + openForReached };
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
