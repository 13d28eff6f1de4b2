// `callsync retry --call <account>:<callId>` retries a call's follow-up that gave up (a CRM that
// refused, retries spent) once the cause is fixed; `--all-failed [--account A] [--since 7d]` retries
// every call whose latest failure was never retried. Each retry is the call's lifecycle run again
// from its CDR (activities/call-failure-retry.ts says why it is exactly once); the command waits for
// each run up to --wait and prints one JSON line per call. Exit 1 when a retry failed or could not run.
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { z } from 'zod';
import {
  retryCallFailure,
  retryState,
  retryUnretriedCallFailures,
  type CallRetryContext,
  type CallRetryResult,
} from '../../activities/call-failure-retry';
import { durationMs } from '../../config/duration';
import { callFailureById, createDatabase, migrateToLatest } from '../../connectors/postgres';
import { postgresSsl } from '../../connectors/postgres/tls';
import {
  cliLogger,
  connectTemporal,
  globalOptions,
  loadCliConfig,
  requireRunningStack,
  resolveDatabase,
} from '../context';

const optionsSchema = z
  .object({
    call: z
      .string()
      .regex(/^.+:\d{1,15}$/, 'must be <account>:<call id>, e.g. acme:7000123')
      .transform((v) => ({
        account: v.slice(0, v.lastIndexOf(':')),
        callId: Number(v.slice(v.lastIndexOf(':') + 1)),
      }))
      .optional(),
    allFailed: z.boolean().optional(),
    account: z.string().min(1).optional(),
    since: durationMs.optional(),
    wait: durationMs,
  })
  .refine((o) => (o.call === undefined) !== (o.allFailed !== true), {
    message: 'give either --call <account>:<call id> or --all-failed',
  })
  .refine((o) => o.call === undefined || (o.account === undefined && o.since === undefined), {
    message: '--account and --since go with --all-failed',
  });

/** One call's line: what the request did and, once its run ended (or --wait passed), how it stands. */
interface RetryLine {
  account: string;
  callId: number;
  status: CallRetryResult['status'];
  failureId?: string;
  outcome: 'running' | 'succeeded' | 'failed' | null;
  runId?: string;
  by?: string | null;
}

/** Waits up to `ms` for a started retry run, then reads how its failure row stands. */
async function settle(ctx: CallRetryContext, r: CallRetryResult, ms: number): Promise<RetryLine['outcome']> {
  if (r.status === 'already-retried') return r.outcome;
  if (r.status !== 'started') return null;
  const ended = ctx.client.workflow
    .getHandle(r.workflowId, r.runId)
    .result()
    .then(
      () => 'ended',
      () => 'ended',
    );
  await Promise.race([ended, new Promise((res) => setTimeout(res, ms).unref())]);
  const row = await callFailureById(ctx.db, r.failureId);
  return row ? (retryState(row) ?? 'running') : null;
}

/** The operating-system user running the command (a container's user may have no name). */
function whoRuns(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown';
  }
}

/** Registers `retry` on the CLI program. */
export function registerRetryCommand(program: Command): void {
  program
    .command('retry')
    .description("Retry a call's CRM follow-up that failed (after fixing its cause), or every failed one")
    .option(
      '--call <account:callId>',
      'the call, as <account>:<call id> (shown by `callsync status` and the dashboard)',
    )
    .option('--all-failed', 'every call whose latest failure was never retried')
    .option('--account <name>', 'with --all-failed: only this account')
    .option('--since <duration>', 'with --all-failed: only failures this recent (e.g. 24h, 7d)')
    .option('--wait <duration>', 'how long to wait for each retry to end before reporting it running', '2m')
    .action(async (raw: Record<string, unknown>, cmd: Command) => {
      const parsed = optionsSchema.safeParse(raw);
      if (!parsed.success) {
        const option = (path: PropertyKey[]) =>
          path.length ? `--${String(path[0]).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ` : '';
        throw new Error(parsed.error.issues.map((i) => `${option(i.path)}${i.message}`).join('; '));
      }
      const opts = parsed.data;
      requireRunningStack(globalOptions(cmd), 'retry');
      const config = loadCliConfig(globalOptions(cmd));
      const configured = config.accounts.map((a) => a.name);
      const account = opts.call?.account ?? opts.account;
      if (account !== undefined && !configured.includes(account))
        throw new Error(`account "${account}" is not configured; accounts are: ${configured.join(', ')}`);
      const logger = cliLogger(config, 'retry');
      const database = await resolveDatabase(config, logger);
      const ssl = postgresSsl(config.database.sslmode, config.database.sslCa);
      const warehouse = createDatabase(database.url, ssl !== undefined ? { ssl } : {});
      let temporal: Awaited<ReturnType<typeof connectTemporal>> | undefined;
      try {
        await migrateToLatest(warehouse.db);
        temporal = await connectTemporal(config);
        const ctx: CallRetryContext = {
          db: warehouse.db,
          client: temporal.client,
          taskQueue: config.temporal.taskQueue,
        };
        const by = `cli:${whoRuns()}`;
        const requests = opts.call
          ? [{ ...opts.call, result: await retryCallFailure(ctx, { ...opts.call, by }) }]
          : await retryUnretriedCallFailures(ctx, {
              accounts: account ? [account] : configured,
              since: opts.since === undefined ? undefined : new Date(Date.now() - opts.since),
              by,
            });
        if (requests.length === 0) process.stdout.write('no failed call follow-up to retry\n');
        let ok = true;
        for (const { account: a, callId, result } of requests) {
          const outcome = await settle(ctx, result, opts.wait);
          const line: RetryLine = {
            account: a,
            callId,
            status: result.status,
            ...('failureId' in result ? { failureId: result.failureId } : {}),
            ...(result.status === 'started' ? { runId: result.runId } : {}),
            ...(result.status === 'already-retried' ? { by: result.by } : {}),
            outcome,
          };
          if (result.status === 'no-failure' || result.status === 'not-failed' || outcome === 'failed')
            ok = false;
          process.stdout.write(`${JSON.stringify(line)}\n`);
        }
        if (!ok) process.exitCode = 1;
      } finally {
        await temporal?.close();
        await warehouse.close();
        await database.stop();
      }
    });
}
