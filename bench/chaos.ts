// `npm run chaos -- [--cdrs 200000] [--calls 120] [--rate 0.5] [--deadline 600] [--seed 1] [--keep]`:
// two workers and two receivers on one PostgreSQL and one Temporal, under a CDR backfill and
// simulated calls, while workers are killed, services restarted and faults injected; then checks
// that nothing was lost, duplicated or leaked (bench/chaos/). Progress on stderr; the last stdout
// line is the result. Exits 1 when any check fails, any fault did not happen, or the deadline passed.
import { Command } from 'commander';
import { z } from 'zod';
import { runChaos } from './chaos/run';
import { runBenchmark } from './run';

const optionsSchema = z.object({
  cdrs: z.coerce.number().int().min(1).max(2_000_000),
  calls: z.coerce.number().int().min(10).max(10_000),
  rate: z.coerce.number().positive().max(50),
  deadline: z.coerce.number().int().min(60).max(3600),
  seed: z.coerce.number().int().min(0),
  keep: z.boolean(),
});

const log = (message: string): void => void process.stderr.write(`[chaos] ${message}\n`);

async function main(): Promise<Record<string, unknown>> {
  const program = new Command()
    .option('--cdrs <n>', 'CDRs seeded and backfilled', '200000')
    .option('--calls <n>', 'calls the simulator places at least (and on until the chaos is over)', '120')
    .option('--rate <n>', 'calls placed per second', '0.5')
    .option('--deadline <s>', 'the whole run must end within this many seconds', '600')
    .option('--seed <n>', 'seed of the data and of the faults', '1')
    .option('--keep', 'keep the scratch directory (logs, databases)', false)
    .parse(process.argv);
  const o = optionsSchema.parse(program.opts());
  const report = await runChaos(
    { cdrs: o.cdrs, calls: o.calls, rate: o.rate, seed: o.seed, deadlineSeconds: o.deadline, keep: o.keep },
    log,
  );
  log(`faults: ${JSON.stringify(report.faults)}`);
  log(`checks: ${JSON.stringify(report.detail)}`);
  for (const s of report.secretsFound) log(`secret found: ${s}`);
  const l = report.line;
  const failed =
    report.notHappened.length > 0 ||
    l.missing + l.duplicates + l.extra_crm_logs + l.lost_webhooks + l.secrets_in_logs > 0;
  if (report.notHappened.length > 0) log(`did not happen: ${report.notHappened.join('; ')}`);
  if (failed) {
    process.stdout.write(`${JSON.stringify(l)}\n`);
    throw new Error('chaos run found a problem (see above)');
  }
  return l;
}

runBenchmark('chaos', main);
