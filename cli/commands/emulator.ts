// `callsync emulator --port <p> --seed <n> [--cdrs N] [--host H] [--now ISO]`: starts the platform emulator and prints
// the ready line on stdout (the only stdout output); logs go to stderr.
import type { Command } from 'commander';
import { z } from 'zod';
import { createLogger } from '../../lib/logger';
import { DEFAULT_CDRS, readyLine, startEmulator } from '../../emulator';

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a non-negative integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const optionsSchema = z.object({
  port: integer(0, 65_535),
  host: z.string().min(1),
  seed: integer(0, 2 ** 31 - 1),
  cdrs: integer(0, 5_000_000),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  now: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date-time, e.g. 2026-11-01T12:00:00Z' })
    .transform((s) => new Date(s))
    .optional(),
});

/** Parsed options of the emulator command. */
export type EmulatorCommandOptions = z.infer<typeof optionsSchema>;

/** Validates the command's raw options; throws with one line per bad option. */
export function parseEmulatorOptions(raw: Record<string, unknown>): EmulatorCommandOptions {
  const parsed = optionsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new Error(parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join('\n'));
}

/** Registers `emulator` on the CLI program. */
export function registerEmulatorCommand(program: Command): void {
  program
    .command('emulator')
    .description('Start the local platform emulator (REST API + control endpoints under /_emulator/)')
    .option('--port <port>', 'TCP port (0 picks a free one)', '8787')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--seed <seed>', 'seed of the generated data (same seed, same data)', '1')
    .option('--cdrs <count>', 'number of CDRs to generate', String(DEFAULT_CDRS))
    .option('--log-level <level>', 'log level (logs go to stderr)', 'info')
    .option(
      '--now <iso>',
      'fix the clock here (history ends here, time moves only when told); default: real time, history ends now',
    )
    .action(async (raw: Record<string, unknown>) => {
      const opts = parseEmulatorOptions(raw);
      const logger = createLogger({ name: 'emulator', level: opts.logLevel });
      const emulator = await startEmulator({
        port: opts.port,
        host: opts.host,
        seed: opts.seed,
        cdrs: opts.cdrs,
        ...(opts.now !== undefined ? { now: opts.now } : {}),
        logger,
      });
      process.stdout.write(`${readyLine(emulator.baseUrl, emulator.admin)}\n`);
      const stop = (signal: string): void => {
        logger.info({ signal }, 'emulator stopping');
        emulator.close().then(
          () => process.exit(0),
          (err: unknown) => {
            logger.error({ err }, 'emulator close failed');
            process.exit(1);
          },
        );
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
