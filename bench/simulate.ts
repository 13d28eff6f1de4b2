// `npm run simulate -- --seed N --days D` (or `--seeds K` for seeds 1..K): a seeded call-centre day on
// the real stack, as late, duplicated, reordered and lossy as real platforms are, with the receiver
// down for hours and the worker and receiver restarted mid-call; an oracle computed from the
// simulator's own ground truth then checks every promise (bench/simulation/oracle.ts). A failing seed
// prints its seed, the first broken promise and that call's story on stderr. Progress on stderr; the
// last stdout line is the summary. Exits 1 when any seed fails.
import { Command } from 'commander';
import { z } from 'zod';
import { runBenchmark } from './run';
import { runSeed, type SeedResult } from './simulation/run-seed';
import { startSharedServices } from './simulation/stack';

const optionsSchema = z
  .object({
    seed: z.coerce.number().int().min(0).optional(),
    seeds: z.coerce.number().int().min(1).max(1000).optional(),
    from: z.coerce.number().int().min(0),
    days: z.coerce.number().positive().max(7),
    calls: z.coerce.number().int().min(10).max(2000),
    daySeconds: z.coerce.number().int().min(10).max(3600),
    deadline: z.coerce.number().int().min(60).max(7200),
    keep: z.boolean(),
  })
  .refine((o) => o.seed === undefined || o.seeds === undefined, {
    message: 'give --seed or --seeds, not both',
    path: ['seeds'],
  });

const say = (m: string): void => void process.stderr.write(`[simulate] ${m}\n`);

async function main(): Promise<Record<string, unknown>> {
  const program = new Command()
    .option('--seed <n>', 'run this one seed')
    .option('--seeds <k>', 'run k seeds, from --from on')
    .option('--from <n>', 'first seed of --seeds', '1')
    .option('--days <d>', 'simulated days per seed', '1')
    .option('--calls <n>', 'calls per simulated day', '140')
    .option('--day-seconds <s>', 'real seconds a simulated day lasts', '60')
    .option('--deadline <s>', 'longest one seed may take, in real seconds', '600')
    .option('--keep', "keep every seed's directory (log, archive, config), not only failing ones", false)
    .parse(process.argv);
  const o = optionsSchema.parse(program.opts());
  const seeds = o.seed !== undefined ? [o.seed] : Array.from({ length: o.seeds ?? 1 }, (_, i) => o.from + i);
  const started = Date.now();
  const shared = await startSharedServices(say);
  const results: SeedResult[] = [];
  try {
    for (const seed of seeds) {
      const r = await runSeed(
        shared,
        {
          seed,
          days: o.days,
          callsPerDay: o.calls,
          dayRealSeconds: o.daySeconds,
          deadlineSeconds: o.deadline,
          keep: o.keep,
        },
        say,
      );
      results.push(r);
      const line = {
        seed,
        ok: r.ok,
        seconds: r.seconds,
        calls: r.calls,
        missed: r.missed,
        recordings: r.recordings,
        callbacks: r.callbacks,
      };
      say(JSON.stringify({ ...line, happened: r.happened }));
      if (!r.ok) {
        say(
          `SEED ${seed} FAILED (replay: npm run simulate -- --seed ${seed} --days ${o.days} --calls ${o.calls}); kept ${r.dir}`,
        );
        say(`first broken promise, and its story:\n${r.story ?? r.broken[0]?.detail}`);
        if (r.broken.length > 1)
          say(
            `${r.broken.length - 1} more: ${r.broken
              .slice(1, 6)
              .map((b) => `${b.promise}: ${b.detail}`)
              .join(' | ')}`,
          );
      }
    }
  } finally {
    await shared.close();
  }
  const failed = results.filter((r) => !r.ok).map((r) => r.seed);
  const summary = {
    simulate: 'summary',
    seeds: results.length,
    passed: results.length - failed.length,
    failed,
    days: o.days,
    calls: results.reduce((n, r) => n + r.calls, 0),
    seconds: Math.round((Date.now() - started) / 1000),
  };
  if (failed.length > 0) {
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    throw new Error(`${failed.length} of ${results.length} seeds broke a promise: ${failed.join(', ')}`);
  }
  return summary;
}

runBenchmark('simulate', main);
