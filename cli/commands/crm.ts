// `callsync crm import --account A --since 90d`: logs the account's past calls (CDRs already in
// PostgreSQL) into its CRM, exactly once, within the vendor's limits, with progress on stderr; an
// interrupted import resumes where it stopped. Prints the summary as JSON on stdout.
import type { Command } from 'commander';
import { z } from 'zod';
import { durationMs } from '../../config/duration';
import { runCrmImport, type CrmImportProgress } from '../../activities/crm-import';
import { contactLookupOf } from '../../activities/contact-lookup';
import { createActivityDeps } from '../../runtime/activity-deps';
import { globalOptions, loadConfigWithAccounts, pickAccount } from '../context';

const sinceSchema = z.union([
  durationMs,
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a duration back from now (90d, 12h) or a date YYYY-MM-DD (UTC)')
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'is not a real date'),
]);

/** The start of the window: a duration back from `now`, or a UTC date; an error names --since. */
export function parseSince(raw: unknown, now = new Date()): Date {
  const r = sinceSchema.safeParse(raw);
  if (!r.success)
    throw new Error('--since: must be a duration back from now (90d, 12h) or a date YYYY-MM-DD (UTC)');
  return typeof r.data === 'number' ? new Date(now.getTime() - r.data) : new Date(`${r.data}T00:00:00Z`);
}

/** One progress line: done/total, new logs, calls per second. */
export function progressLine(account: string, p: CrmImportProgress): string {
  const pct = p.total > 0 ? Math.floor((p.done / p.total) * 100) : 100;
  return `crm import ${account}: ${p.done}/${p.total} calls (${pct}%), ${p.created} logged, ${p.alreadyLogged} already there, ${p.failed} refused, ${p.callsPerSecond} calls/s`;
}

/** Registers `crm` on the CLI program. */
export function registerCrmCommand(program: Command): void {
  const crm = program.command('crm').description("Work on an account's CRM destination");
  crm
    .command('import')
    .description('Log past calls (CDRs in PostgreSQL) into the CRM, exactly once; resumes when interrupted')
    .requiredOption('--account <name>', 'the account whose calls to import')
    .requiredOption('--since <when>', 'how far back: a duration (90d) or a date YYYY-MM-DD (UTC)')
    .action(async (raw: { account: string; since: string }, cmd: Command) => {
      const since = parseSince(raw.since);
      const { config, logger, database } = await loadConfigWithAccounts(globalOptions(cmd), 'crm-import');
      try {
        const account = pickAccount(config, raw.account);
        const deps = await createActivityDeps(config, database.url, logger);
        const stop = new AbortController();
        const interrupt = (): void => {
          process.stderr.write('crm import: stopping after this page (run it again to resume)\n');
          stop.abort();
        };
        process.once('SIGINT', interrupt);
        process.once('SIGTERM', interrupt);
        try {
          const summary = await runCrmImport({
            db: deps.warehouse.db,
            config,
            account,
            crm: deps.crm(account),
            lookup: contactLookupOf(deps),
            since,
            until: new Date(),
            signal: stop.signal,
            onProgress: (p) => process.stderr.write(`${progressLine(account, p)}\n`),
          });
          if (summary.resumed)
            process.stderr.write(
              `crm import ${account}: resumed the import of ${summary.since} .. ${summary.until}\n`,
            );
          process.stdout.write(`${JSON.stringify(summary)}\n`);
        } finally {
          process.off('SIGINT', interrupt);
          process.off('SIGTERM', interrupt);
          await deps.close();
        }
      } finally {
        await database.stop();
      }
    });
}
