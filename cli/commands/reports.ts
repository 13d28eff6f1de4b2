// `callsync reports list | run <schedule> | show <run>`: the report schedules with their next and last
// runs, ad-hoc runs (past periods, forced re-runs) with a progress bar, and one run in detail.
import { ScheduleNotFoundError, WorkflowIdConflictPolicy, type Client } from '@temporalio/client';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import type { CallsyncConfig } from '../../config/schema';
import {
  createDatabase,
  getReportRun,
  latestReportRuns,
  listRunDeliveries,
  listQuarantined,
  listReportSchedules,
  migrateToLatest,
  reportRunOfWorkflow,
  type WarehouseDatabase,
} from '../../connectors/postgres';
import {
  reportExportWorkflow,
  reportScheduleId,
  REPORT_SCHEDULE_PREFIX,
  type ReportExportInput,
  type ReportExportResult,
  type ReportPeriodRequest,
} from '../../contracts';
import {
  cliLogger,
  connectTemporal,
  globalOptions,
  loadCliConfig,
  pickAccount,
  requireRunningStack,
  resolveDatabase,
} from '../context';
import { formatReportRun, formatReportSchedules, type ReportScheduleView } from './report-views';

/** Quarantine stream of report schedules (activities/report-schedule-mirror.ts). */
const QUARANTINE_STREAM = 'reportschedules';

/** Every synced report schedule of the configured accounts, with its Temporal Schedule's next run and its last run. */
export async function collectReportSchedules(
  config: CallsyncConfig,
  warehouse: WarehouseDatabase,
  client: Client | undefined,
): Promise<ReportScheduleView[]> {
  const accounts = config.accounts.map((a) => a.name);
  const last = new Map(
    (await latestReportRuns(warehouse.db, accounts)).map((r) => [`${r.account}/${r.schedule_id}`, r]),
  );
  const views: ReportScheduleView[] = [];
  for (const account of accounts) {
    const quarantined = new Map(
      (await listQuarantined(warehouse.db, { account, stream: QUARANTINE_STREAM, limit: 1000 })).map((q) => [
        q.record_id,
        q.reason,
      ]),
    );
    for (const row of await listReportSchedules(warehouse.db, account)) {
      let nextRun: Date | null = null;
      let state = client ? 'not mirrored' : 'unknown (no Temporal)';
      if (client) {
        try {
          const d = await client.schedule.getHandle(reportScheduleId(account, row.id)).describe();
          nextRun = d.state.paused ? null : (d.info.nextActionTimes[0] ?? null);
          state = d.state.paused ? 'paused' : 'active';
        } catch (err) {
          if (!(err instanceof ScheduleNotFoundError)) throw err;
        }
      }
      const reason = quarantined.get(String(row.id));
      const lastRun = last.get(`${account}/${row.id}`) ?? null;
      views.push({
        account,
        id: row.id,
        name: row.name ?? '',
        reportId: row.report_id,
        timezone: row.timezone ?? 'UTC',
        nextRun,
        state: reason ? `quarantined: ${reason}` : state,
        lastRun,
      });
    }
  }
  return views;
}

/** `12`, or a Temporal Schedule id `report-<account>-12`, as account and schedule id. */
export function parseScheduleArg(arg: string, config: CallsyncConfig, account: string | undefined) {
  const plain = /^\d+$/.exec(arg.trim());
  if (plain) return { account: pickAccount(config, account), scheduleId: Number(arg) };
  const m = new RegExp(`^${REPORT_SCHEDULE_PREFIX}(.+)-(\\d+)$`).exec(arg.trim());
  if (!m) throw new Error(`<schedule>: "${arg}" is neither a schedule id (12) nor report-<account>-<id>`);
  return { account: pickAccount(config, m[1]), scheduleId: Number(m[2]) };
}

/** The period options as the workflow takes them; throws naming the option that is wrong. */
export function periodOption(raw: {
  period?: string;
  from?: string;
  to?: string;
}): ReportPeriodRequest | undefined {
  if (raw.period !== undefined) {
    if (raw.from !== undefined || raw.to !== undefined)
      throw new Error('--period: give either --period or --from/--to');
    return { period: raw.period };
  }
  if (raw.from === undefined && raw.to === undefined) return undefined;
  if (raw.from === undefined || raw.to === undefined)
    throw new Error('--from/--to: give both dates (YYYY-MM-DD)');
  return { from: raw.from, to: raw.to };
}

const STAGES = ['queued', 'building', 'delivering', 'succeeded'];

/** Starts a report run and waits for it, showing its stage (a bar on a terminal, lines otherwise). */
async function runAndFollow(
  client: Client,
  warehouse: WarehouseDatabase,
  config: CallsyncConfig,
  input: ReportExportInput,
): Promise<ReportExportResult> {
  const label = input.period ? Object.values(input.period).join('..') : `now-${Date.now()}`;
  const workflowId = `${reportScheduleId(input.account, input.scheduleId)}-manual-${label}${input.force ? '-force' : ''}`;
  const handle = await client.workflow.start(reportExportWorkflow, {
    taskQueue: config.temporal.taskQueue,
    workflowId,
    // The same run asked for twice at once is joined, not doubled.
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    args: [input],
  });
  const interactive = Boolean(process.stderr.isTTY) && !process.env.CI;
  const bar = interactive
    ? new SingleBar({
        stream: process.stderr,
        format: `${workflowId} |{bar}| {stage} | {duration_formatted}`,
        hideCursor: true,
      })
    : undefined;
  bar?.start(STAGES.length - 1, 0, { stage: 'starting' });
  let done = false;
  const result = handle.result().finally(() => (done = true));
  let shown = '';
  const showStage = async () => {
    const run = await reportRunOfWorkflow(warehouse.db, workflowId);
    if (run && run.status !== shown) {
      shown = run.status;
      if (bar) bar.update(Math.max(0, STAGES.indexOf(run.status)), { stage: run.status });
      else process.stderr.write(`${workflowId}: ${run.status}\n`);
    }
  };
  try {
    while (!done) {
      await showStage();
      await Promise.race([result.catch(() => undefined), new Promise((r) => setTimeout(r, 300))]);
    }
    const final = await result;
    // The loop ends as the workflow does, before it has seen the last stage: show where the run ended
    // (else the last line, or the bar, says "delivering" of a run that succeeded).
    await showStage();
    return final;
  } catch (err) {
    // The run's own reason (report_runs.error) says more than "workflow execution failed".
    const run = await reportRunOfWorkflow(warehouse.db, workflowId);
    if (run?.status === 'failed') {
      throw new Error(
        `report run ${run.id} (${run.period_label}) failed: ${run.error ?? 'no reason recorded'}`,
        {
          cause: err,
        },
      );
    }
    throw err;
  } finally {
    bar?.stop();
  }
}

/** Opens what a reports command needs; `use` runs with it and everything is closed after. */
async function withServices<T>(
  cmd: Command,
  command: string,
  use: (s: {
    config: CallsyncConfig;
    warehouse: WarehouseDatabase;
    client: Client | undefined;
  }) => Promise<T>,
  needTemporal: boolean,
): Promise<T> {
  requireRunningStack(globalOptions(cmd), command);
  const config = loadCliConfig(globalOptions(cmd));
  const logger = cliLogger(config, 'reports');
  const database = await resolveDatabase(config, logger);
  const warehouse = createDatabase(database.url);
  let temporal: Awaited<ReturnType<typeof connectTemporal>> | undefined;
  try {
    await migrateToLatest(warehouse.db);
    if (needTemporal || config.temporal.address) temporal = await connectTemporal(config);
    return await use({ config, warehouse, client: temporal?.client });
  } finally {
    await temporal?.close();
    await warehouse.close();
    await database.stop();
  }
}

/** Registers `reports` on the CLI program. */
export function registerReportsCommand(program: Command): void {
  const reports = program
    .command('reports')
    .description('Scheduled report exports: list schedules, run one, show a run');
  reports
    .command('list')
    .description('Each report schedule with its next run (in its own time zone) and its last run')
    .option('--json', 'print JSON instead of a table')
    .action(async (raw: { json?: boolean }, cmd: Command) => {
      await withServices(
        cmd,
        'reports list',
        async ({ config, warehouse, client }) => {
          const views = await collectReportSchedules(config, warehouse, client);
          process.stdout.write(raw.json ? `${JSON.stringify(views)}\n` : `${formatReportSchedules(views)}\n`);
        },
        false,
      );
    });
  reports
    .command('run <schedule>')
    .description('Run a report schedule now: the period before now, or --period / --from --to; waits for it')
    .option(
      '--account <name>',
      'account (default: the first configured, or the one in report-<account>-<id>)',
    )
    .option('--period <period>', 'a month (2026-10), an ISO week (2026-W40) or a day (2026-10-05)')
    .option('--from <date>', 'first day of the period (YYYY-MM-DD, with --to)')
    .option('--to <date>', 'last day of the period, included (YYYY-MM-DD)')
    .option('--force', 'build and deliver again even when the period already succeeded')
    .action(
      async (
        schedule: string,
        raw: { account?: string; period?: string; from?: string; to?: string; force?: boolean },
        cmd: Command,
      ) => {
        await withServices(
          cmd,
          'reports run',
          async ({ config, warehouse, client }) => {
            const { account, scheduleId } = parseScheduleArg(schedule, config, raw.account);
            const period = periodOption(raw);
            const input: ReportExportInput = {
              account,
              scheduleId,
              ...(period ? { period } : {}),
              ...(raw.force ? { force: true } : {}),
            };
            const result = await runAndFollow(client!, warehouse, config, input);
            process.stdout.write(`${JSON.stringify({ account, scheduleId, ...result })}\n`);
          },
          true,
        );
      },
    );
  reports
    .command('show <run>')
    .description('One report run: period, status, rows, bytes, checksum, file, error')
    .option('--json', 'print JSON')
    .action(async (id: string, raw: { json?: boolean }, cmd: Command) => {
      if (!/^\d+$/.test(id))
        throw new Error(`<run>: "${id}" is not a run id (a number; see \`callsync reports list\`)`);
      await withServices(
        cmd,
        'reports show',
        async ({ warehouse }) => {
          const run = await getReportRun(warehouse.db, Number(id));
          if (!run) throw new Error(`<run>: there is no report run ${id}`);
          const deliveries = await listRunDeliveries(warehouse.db, run.id);
          process.stdout.write(
            raw.json
              ? `${JSON.stringify({ ...run, deliveries })}\n`
              : `${formatReportRun(run, deliveries)}\n`,
          );
        },
        false,
      );
    });
}
