// The platform's report schedules, mirrored as Temporal Schedules (`report-<account>-<id>`): after
// each sync of the report-schedules stream and at `start`, this creates, updates (only what changed,
// by a hash kept in the action's memo), pauses, unpauses and deletes them. A schedule callsync cannot
// understand is quarantined with its reason (stream `reportschedules`), and the others go on.
import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleDescription,
  type ScheduleOptionsStartWorkflowAction,
  type ScheduleUpdateOptions,
} from '@temporalio/client';
import type { Kysely } from 'kysely';
import type { CallsyncConfig } from '../config/schema';
import {
  addQuarantined,
  listReportSchedules,
  resolveQuarantined,
  type Database,
  type ReportScheduleRow,
} from '../connectors/postgres';
import {
  reportExportWorkflow,
  reportScheduleId,
  REPORT_SCHEDULE_PREFIX,
  type ReportExportInput,
  type ReportExportWorkflow,
} from '../contracts';
import { ReportScheduleError } from '../reports/schedule-frequency';
import { buildReportScheduleSpec, specHash, type ReportScheduleSpec } from '../reports/schedule-spec';

/** Quarantine stream of report schedules the mirror cannot turn into Temporal Schedules. */
export const REPORT_SCHEDULE_QUARANTINE = 'reportschedules';

/** Memo key of the hash of what a mirrored schedule was made from. */
const HASH_KEY = 'reportScheduleHash';

/** What one mirror pass did, by Temporal Schedule id. */
export interface MirrorResult {
  created: string[];
  updated: string[];
  paused: string[];
  unpaused: string[];
  deleted: string[];
  unchanged: string[];
  /** Platform schedule ids quarantined, with the reason. */
  quarantined: { id: number; reason: string }[];
}

export interface MirrorOptions {
  /** The platform's current schedule ids; rows not among them are gone (deleted on the platform). */
  liveIds?: ReadonlySet<number>;
  /** Clock for the spring-forward horizon (tests). */
  now?: Date;
}

type Action = ScheduleOptionsStartWorkflowAction<ReportExportWorkflow>;

function action(account: string, id: number, taskQueue: string, hash: string): Action {
  const input: ReportExportInput = { account, scheduleId: id };
  return {
    type: 'startWorkflow',
    workflowType: reportExportWorkflow,
    workflowId: reportScheduleId(account, id),
    taskQueue,
    args: [input],
    memo: { [HASH_KEY]: hash },
  };
}

/** The hash of everything a mirrored schedule is made from: spec, pause, action and policies. */
function desiredHash(s: ReportScheduleSpec, account: string, id: number, config: CallsyncConfig): string {
  return specHash({
    spec: s.spec,
    paused: s.paused,
    account,
    id,
    taskQueue: config.temporal.taskQueue,
    catchupWindow: config.reports.catchupWindow,
  });
}

async function describe(client: Client, id: string): Promise<ScheduleDescription | undefined> {
  try {
    return await client.schedule.getHandle(id).describe();
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return undefined;
    throw err;
  }
}

/**
 * Makes the account's `report-<account>-*` Temporal Schedules match its synced report schedules.
 * New and changed schedules get the spec of `buildReportScheduleSpec`; overlapping runs of one
 * schedule are buffered (one at most), and runs missed while down are caught up within
 * `reports.catchupWindow` (each scheduled time once: report_runs keeps one run per period).
 */
export async function mirrorReportSchedules(
  client: Client,
  db: Kysely<Database>,
  config: CallsyncConfig,
  account: string,
  opts: MirrorOptions = {},
): Promise<MirrorResult> {
  const result: MirrorResult = {
    created: [],
    updated: [],
    paused: [],
    unpaused: [],
    deleted: [],
    unchanged: [],
    quarantined: [],
  };
  const now = opts.now ?? new Date();
  const rows = (await listReportSchedules(db, account)).filter(
    (r) => !opts.liveIds || opts.liveIds.has(r.id),
  );
  const wanted = new Set<string>();

  for (const row of rows) {
    const id = reportScheduleId(account, row.id);
    wanted.add(id);
    let desired: ReportScheduleSpec;
    try {
      desired = buildReportScheduleSpec(row, now);
    } catch (err) {
      if (!(err instanceof ReportScheduleError)) throw err;
      await quarantine(db, account, row, err);
      result.quarantined.push({ id: row.id, reason: err.message });
      // A schedule edited into something unreadable stops running rather than run its old spec.
      const current = await describe(client, id);
      if (current && !current.state.paused) {
        await client.schedule.getHandle(id).pause(`quarantined: ${err.message}`.slice(0, 200));
        result.paused.push(id);
      }
      continue;
    }
    await resolveQuarantined(db, { account, stream: REPORT_SCHEDULE_QUARANTINE, recordId: String(row.id) });
    const hash = desiredHash(desired, account, row.id, config);
    const current = await describe(client, id);
    const policies = {
      overlap: ScheduleOverlapPolicy.BUFFER_ONE,
      catchupWindow: config.reports.catchupWindow,
    };
    if (!current) {
      await client.schedule.create({
        scheduleId: id,
        spec: desired.spec,
        action: action(account, row.id, config.temporal.taskQueue, hash),
        policies,
        state: { paused: desired.paused, ...(desired.paused ? { note: 'inactive on the platform' } : {}) },
        memo: { account, reportScheduleId: row.id, name: row.name ?? '' },
      });
      result.created.push(id);
      continue;
    }
    const currentHash = (current.action as { memo?: Record<string, unknown> }).memo?.[HASH_KEY];
    if (currentHash !== hash) {
      await client.schedule.getHandle(id).update((prev): ScheduleUpdateOptions<Action> => ({
        ...prev,
        spec: desired.spec,
        action: action(account, row.id, config.temporal.taskQueue, hash),
        policies: { ...prev.policies, ...policies },
        state: { ...prev.state, paused: desired.paused },
      }));
      result.updated.push(id);
      if (current.state.paused !== desired.paused)
        (desired.paused ? result.paused : result.unpaused).push(id);
    } else if (current.state.paused !== desired.paused) {
      // Same spec, but paused by hand or by an earlier quarantine: the platform's status decides.
      const handle = client.schedule.getHandle(id);
      if (desired.paused) {
        await handle.pause('inactive on the platform');
        result.paused.push(id);
      } else {
        await handle.unpause('active on the platform');
        result.unpaused.push(id);
      }
    } else {
      result.unchanged.push(id);
    }
  }

  const prefix = `${REPORT_SCHEDULE_PREFIX}${account}-`;
  for await (const summary of client.schedule.list()) {
    const id = summary.scheduleId;
    // Only `report-<account>-<number>`: another account's name may start with this one's.
    if (id.startsWith(prefix) && /^\d+$/.test(id.slice(prefix.length)) && !wanted.has(id)) {
      try {
        await client.schedule.getHandle(id).delete();
        result.deleted.push(id);
      } catch (err) {
        // The list is eventually consistent: a schedule deleted a moment ago may still be listed.
        if (!(err instanceof ScheduleNotFoundError)) throw err;
      }
    }
  }
  return result;
}

async function quarantine(
  db: Kysely<Database>,
  account: string,
  row: ReportScheduleRow,
  err: ReportScheduleError,
): Promise<void> {
  await addQuarantined(db, {
    account,
    stream: REPORT_SCHEDULE_QUARANTINE,
    recordId: String(row.id),
    reason: `${err.field}: ${err.reason}`,
    raw: row.raw,
  });
}
