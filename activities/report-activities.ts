// Activities of report exports: open (or find) the run of a schedule and period, build its file,
// close it; and mirror an account's report schedules as Temporal Schedules. Workflows pass ids; the
// schedule row (e-mails, format, culture) is read here, from the warehouse.
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ApplicationFailure } from '@temporalio/activity';
import {
  getReportRun,
  getReportSchedule,
  openReportRun,
  updateReportRun,
  type ReportRunRow,
} from '../connectors/postgres';
import type { OpenReportRunInput, OpenReportRunResult } from '../contracts';
import {
  buildReportFile,
  cultureFromCode,
  formatFromCode,
  UnknownCodeError,
  UnknownCultureError,
  UnknownReportError,
} from '../reports';
import { requestedPeriod, scheduledPeriod, PeriodError, type ReportPeriod } from '../reports/period';
import { checkTimeZone, parseFrequency, ReportScheduleError } from '../reports/schedule-frequency';
import type { ActivityDeps } from './deps';
import { mirrorReportSchedules, type MirrorResult } from './report-schedule-mirror';
import { metrics } from '../lib/metrics';

export interface BuildReportRunResult {
  rows: number;
  bytes: number;
  checksum: string;
  filePath: string;
}

export interface FinishReportRunInput {
  runId: number;
  status: 'succeeded' | 'failed';
  error?: string;
}

/** Errors a retry cannot fix, as typed non-retryable failures (their message says field and reason). */
function permanent(err: unknown): never {
  if (
    err instanceof UnknownReportError ||
    err instanceof UnknownCodeError ||
    err instanceof UnknownCultureError ||
    err instanceof ReportScheduleError ||
    err instanceof PeriodError
  ) {
    throw ApplicationFailure.create({ type: err.name, message: err.message, nonRetryable: true });
  }
  throw err;
}

/** The file a run writes: one per account, schedule and period, so a rebuilt run replaces its file. */
export function reportFilePath(
  directory: string,
  account: string,
  scheduleId: number,
  label: string,
  ext: string,
) {
  return join(
    resolve(directory),
    account,
    `schedule-${scheduleId}`,
    `${label.replace(/[^0-9A-Za-z.-]/g, '_')}.${ext}`,
  );
}

/** Removes partial files an attempt killed mid-build left beside `filePath`. */
async function removePartials(filePath: string): Promise<void> {
  const prefix = `${basename(filePath)}.`;
  const names = await readdir(dirname(filePath)).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((n) => n.startsWith(prefix) && n.endsWith('.partial'))
      .map((n) => rm(join(dirname(filePath), n), { force: true })),
  );
}

/**
 * Builds a run's file from the warehouse, at the run's path (replacing it whole): the export's
 * build, and the erasure's rebuild of a report it had to delete.
 */
export async function buildRunFile(
  deps: ActivityDeps,
  run: ReportRunRow,
  schedule: NonNullable<Awaited<ReturnType<typeof getReportSchedule>>>,
): Promise<{ built: Awaited<ReturnType<typeof buildReportFile>>; filePath: string }> {
  const reports = deps.config.reports;
  const format = formatFromCode(schedule.format, reports);
  const filePath = reportFilePath(reports.directory, run.account, run.schedule_id, run.period_label, format);
  // buildReportFile writes beside the path and renames the finished file in: a retry replaces it
  // whole. A worker killed mid-build leaves its partial file behind; the retry clears it first.
  await removePartials(filePath);
  const built = await buildReportFile(
    deps.warehouse.db,
    {
      account: run.account,
      reportId: schedule.report_id ?? -1,
      period: { from: run.period_from, to: run.period_to, timezone: run.timezone, label: run.period_label },
      format,
      culture: cultureFromCode(schedule.culture, reports),
    },
    reports.catalogue,
    filePath,
    { pool: deps.warehouse.pool },
  );
  return { built, filePath };
}

export function createReportActivities(deps: ActivityDeps) {
  const db = deps.warehouse.db;

  const scheduleOf = async (account: string, scheduleId: number) => {
    const row = await getReportSchedule(db, account, scheduleId);
    if (!row) {
      throw ApplicationFailure.create({
        type: 'ReportScheduleMissing',
        message: `report schedule ${scheduleId} of account ${account} is not in the warehouse (sync report_schedules first)`,
        nonRetryable: true,
      });
    }
    return row;
  };

  return {
    /**
     * Opens the run of a schedule for the period its scheduled time (or the request) fixes, or finds
     * the run already there: a retry computes the same period and finds the same run.
     */
    async openReportRun(input: OpenReportRunInput): Promise<OpenReportRunResult> {
      const schedule = await scheduleOf(input.account, input.scheduleId);
      let period: ReportPeriod;
      // An unknown format code fails the build (recorded on the run), not the opening.
      let format: string | null = schedule.format;
      try {
        format = formatFromCode(schedule.format, deps.config.reports);
      } catch {
        // kept as the raw code
      }
      try {
        const timezone = checkTimeZone(schedule.timezone);
        period = input.period
          ? requestedPeriod(input.period, timezone)
          : scheduledPeriod(parseFrequency(schedule.frequency).type, new Date(input.scheduledAt), timezone);
      } catch (err) {
        return permanent(err);
      }
      const opened = await openReportRun(db, {
        account: input.account,
        scheduleId: input.scheduleId,
        reportId: schedule.report_id,
        periodFrom: period.from,
        periodTo: period.to,
        periodLabel: period.label,
        timezone: period.timezone,
        format,
        workflowId: input.workflowId,
        force: input.force === true,
      });
      return {
        runId: opened.run.id,
        periodLabel: opened.run.period_label,
        proceed: opened.proceed,
        rows: opened.run.rows,
        bytes: opened.run.bytes,
      };
    },

    /** Builds the run's report file (part B's builder); a killed attempt leaves no half file, a retry rebuilds it. */
    async buildReportRun(input: { runId: number }): Promise<BuildReportRunResult> {
      const run = await getReportRun(db, input.runId);
      if (!run)
        throw ApplicationFailure.create({
          type: 'ReportRunMissing',
          message: `no report run ${input.runId}`,
          nonRetryable: true,
        });
      const schedule = await scheduleOf(run.account, run.schedule_id);
      await updateReportRun(db, run.id, { status: 'building' });
      try {
        const { built, filePath } = await buildRunFile(deps, run, schedule);
        await updateReportRun(db, run.id, {
          status: 'delivering',
          rows: built.rows,
          bytes: built.bytes,
          checksum: built.sha256,
          filePath,
        });
        return { rows: built.rows, bytes: built.bytes, checksum: built.sha256, filePath };
      } catch (err) {
        return permanent(err);
      }
    },

    /** Closes a run: succeeded, or failed with its reason (shown by `callsync status`). */
    async finishReportRun(input: FinishReportRunInput): Promise<void> {
      await updateReportRun(db, input.runId, {
        status: input.status,
        ...(input.error !== undefined ? { error: input.error } : { error: null }),
      });
      metrics().reportRuns.inc({ status: input.status });
    },

    /**
     * Mirrors the account's synced report schedules as Temporal Schedules. The platform's current ids
     * decide which are gone (the warehouse keeps rows of deleted schedules); when the platform cannot
     * be read, nothing is deleted this time.
     */
    async mirrorReportSchedules(input: { account: string }): Promise<MirrorResult> {
      if (!deps.temporal) {
        throw ApplicationFailure.create({
          type: 'ConfigError',
          message: 'mirroring report schedules needs a Temporal client in the activity dependencies',
          nonRetryable: true,
        });
      }
      let liveIds: Set<number> | undefined;
      try {
        liveIds = new Set<number>();
        for await (const page of deps
          .platform(input.account)
          .reports.schedules.list({ limit: 5000 })
          .pages()) {
          for (const r of page.data) liveIds.add(r.id);
          for (const bad of page.invalid) {
            const id = (bad.raw as { id?: unknown } | null)?.id;
            if (typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id)))
              liveIds.add(Number(id));
          }
        }
      } catch (err) {
        deps.logger.warn(
          { account: input.account, err: String(err) },
          'report schedules: platform list failed; deleting none',
        );
        liveIds = undefined;
      }
      return mirrorReportSchedules(deps.temporal, db, deps.config, input.account, liveIds ? { liveIds } : {});
    },
  };
}

export type ReportActivities = ReturnType<typeof createReportActivities>;
