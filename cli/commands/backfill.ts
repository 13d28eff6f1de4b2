// `callsync backfill --stream cdrs --from 2025-01-01 [--to …] [--account a]`: starts (or joins) the
// backfill workflow of a range, shows its progress until it is done, and prints the summary as JSON.
import { WorkflowIdConflictPolicy, type Client } from '@temporalio/client';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { z } from 'zod';
import { streamDefinition } from '../../sync/streams';
import { parsePlatformTime, platformTimeOrUndefined } from '../../sync/time';
import {
  backfillWorkflow,
  backfillWorkflowId,
  progressQuery,
  type BackfillInput,
  type BackfillProgress,
  type BackfillWorkflow,
} from '../../contracts';
import { connectTemporal, globalOptions, loadConfigWithAccounts, pickAccount } from '../context';

const isRealTime = (v: string): boolean => platformTimeOrUndefined(v) !== undefined;

// Checked here, before the workflow starts: the workflow would only fail its task on a bad range.
const platformTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/, 'must be YYYY-MM-DD or "YYYY-MM-DD HH:MM:SS" (UTC)')
  .refine(isRealTime, 'is not a real date');

const optionsSchema = z
  .object({
    account: z.string().optional(),
    stream: z.string().min(1),
    from: platformTime,
    to: platformTime.optional(),
  })
  // Zod runs this even when a date failed above; only two real dates can be out of order.
  .refine(
    (o) =>
      !isRealTime(o.from) ||
      !o.to ||
      !isRealTime(o.to) ||
      parsePlatformTime(o.to) > parsePlatformTime(o.from),
    {
      path: ['to'],
      message: 'must be after --from',
    },
  );

/** Parsed options of the backfill command. */
export type BackfillCommandOptions = z.infer<typeof optionsSchema>;

/** Validates the command's raw options; throws with one line per bad option. */
export function parseBackfillOptions(raw: Record<string, unknown>): BackfillCommandOptions {
  const parsed = optionsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join('\n'));
  }
  streamDefinition(parsed.data.stream);
  return parsed.data;
}

function describe(p: BackfillProgress): string {
  return `${p.windowsDone}/${p.windowsTotal} windows, ${p.records} records, ${p.recordsPerSecond} records/s`;
}

/** Shows the progress of a running backfill until it ends; resolves with its result. */
export async function followBackfill(
  client: Client,
  workflowId: string,
  opts: { interactive: boolean; pollMs?: number; lineEveryMs?: number; out?: NodeJS.WritableStream },
): Promise<BackfillProgress> {
  const handle = client.workflow.getHandle<BackfillWorkflow>(workflowId);
  const out = opts.out ?? process.stderr;
  const bar = opts.interactive
    ? new SingleBar({
        stream: out,
        format: `${workflowId} |{bar}| {value}/{total} windows | {records} records | {rps} records/s | {duration_formatted}`,
        hideCursor: true,
      })
    : undefined;
  let finished = false;
  const result = handle.result().finally(() => (finished = true));
  let lastLine = 0;
  let lastText = '';
  let started = false;
  const writeLine = (p: BackfillProgress) => {
    lastText = `${workflowId}: ${describe(p)}\n`;
    out.write(lastText);
    lastLine = Date.now();
  };
  try {
    while (!finished) {
      // The query handler is installed after the workflow's first activity; until then there is no progress.
      const p = await handle.query(progressQuery).catch(() => undefined);
      if (p) {
        if (bar) {
          const payload = { records: p.records, rps: p.recordsPerSecond };
          if (!started) bar.start(p.windowsTotal, p.windowsDone, payload);
          else bar.update(p.windowsDone, payload);
          bar.setTotal(p.windowsTotal);
          started = true;
        } else if (Date.now() - lastLine >= (opts.lineEveryMs ?? 3000)) {
          writeLine(p);
        }
      }
      await Promise.race([
        result.catch(() => undefined),
        new Promise((r) => setTimeout(r, opts.pollMs ?? 500)),
      ]);
    }
    const final = await result;
    if (bar && started)
      bar.update(final.windowsDone, { records: final.records, rps: final.recordsPerSecond });
    // Lines come every few seconds, so the last one was usually of a backfill still under way:
    // end with where it ended.
    if (!bar && lastText !== `${workflowId}: ${describe(final)}\n`) writeLine(final);
    return final;
  } finally {
    bar?.stop();
  }
}

/** Registers `backfill` on the CLI program. */
export function registerBackfillCommand(program: Command): void {
  program
    .command('backfill')
    .description("Load a stream's history for a time range, showing progress until it is done")
    .requiredOption('--stream <stream>', 'stream to backfill (e.g. cdrs)')
    .requiredOption('--from <date>', 'start of the range, YYYY-MM-DD (UTC)')
    .option('--to <date>', 'end of the range, exclusive (default: now)')
    .option('--account <name>', 'account (default: the first configured)')
    .action(async (raw: Record<string, unknown>, cmd: Command) => {
      const opts = parseBackfillOptions(raw);
      // Stored accounts (`callsync accounts add`) can be backfilled too.
      const { config, database } = await loadConfigWithAccounts(globalOptions(cmd), 'backfill');
      await database.stop();
      const account = pickAccount(config, opts.account);
      const temporal = await connectTemporal(config);
      try {
        const workflowId = backfillWorkflowId(account, opts.stream, opts.from, opts.to);
        const input: BackfillInput = {
          account,
          stream: opts.stream,
          from: opts.from,
          ...(opts.to !== undefined ? { to: opts.to } : {}),
        };
        await temporal.client.workflow.start(backfillWorkflow, {
          taskQueue: config.temporal.taskQueue,
          workflowId,
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
          args: [input],
        });
        const interactive = Boolean(process.stderr.isTTY) && !process.env.CI;
        const result = await followBackfill(temporal.client, workflowId, { interactive });
        process.stdout.write(`${JSON.stringify({ workflowId, account, stream: opts.stream, ...result })}\n`);
      } finally {
        await temporal.close();
      }
    });
}
