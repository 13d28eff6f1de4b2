// `callsync start` (npm start): the whole job on one machine. Starts what the configuration does not
// name (emulator, embedded PostgreSQL, Temporal dev server with UI), the worker and the schedules,
// prints where everything is, and stops it all on Ctrl-C (a second Ctrl-C forces the exit).
import type { Command } from 'commander';
import { createLogger } from '../../lib/logger';
import { startLocalStack, type LocalStack } from '../../local/stack';
import { dataDir, globalOptions } from '../context';
import { describeError } from '../../lib/describe-error';
import { installTemporalRuntime } from './worker';

/** Signals this close after the first are the same Ctrl-C, relayed (see stop below). */
const SAME_SIGNAL_MS = 1_500;

interface StartOptions {
  emulatorPort?: string;
  emulatorCdrs?: string;
  temporalPort?: string;
}

/** A port or count option as a number, or an error naming the option. */
function intOption(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${name}: must be an integer >= ${min}, got "${value}"`);
  return n;
}

/** Registers `start` on the CLI program. */
export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description(
      'Run everything locally: emulator (unless an account is configured), PostgreSQL, Temporal, worker, schedules',
    )
    .option('--emulator-port <port>', 'preferred emulator port (default 8787; a free one when taken)')
    .option('--emulator-cdrs <n>', 'CDRs seeded in the emulator (default 50000)')
    .option(
      '--temporal-port <port>',
      'preferred Temporal port (default: last run’s, else 7233; a free one when taken)',
    )
    .action(async (raw: StartOptions, cmd: Command) => {
      const opts = globalOptions(cmd);
      const emulatorPort = intOption('emulator-port', raw.emulatorPort, 1);
      const emulatorCdrs = intOption('emulator-cdrs', raw.emulatorCdrs, 0);
      const temporalPort = intOption('temporal-port', raw.temporalPort, 1);
      // Signals are ours from the start: a Ctrl-C while the stack starts stops it once it has
      // started (what already runs is stopped in order), rather than killing this process and
      // leaving PostgreSQL and Temporal running.
      const running: { stack?: LocalStack } = {};
      let stoppingSince: number | undefined;
      const stop = (signal: string): void => {
        if (stoppingSince !== undefined) {
          // npm and tsx relay a terminal's Ctrl-C, which also reached this process directly: the
          // same key press arrives twice within moments. Only a later one forces the exit.
          if (Date.now() - stoppingSince < SAME_SIGNAL_MS) return;
          process.stderr.write('callsync: forced exit\n');
          process.exit(1);
        }
        stoppingSince = Date.now();
        const stack = running.stack;
        if (!stack) {
          process.stderr.write(`callsync: ${signal} while starting; stopping once started\n`);
          return;
        }
        stack.logger.info({ signal }, 'stopping');
        stack.stop().then(
          ({ leftRunning }) => {
            if (leftRunning.length) {
              // Named so the user can stop it by hand; the next start also stops such leftovers.
              process.stderr.write(
                `callsync: stopped, but ${leftRunning.join(' and ')} may still be running\n`,
              );
              process.exit(1);
            }
            stack.logger.info('stopped');
            process.exit(0);
          },
          (err: unknown) => {
            process.stderr.write(`callsync: stop failed: ${describeError(err)}\n`);
            process.exit(1);
          },
        );
      };
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
      const stack = await startLocalStack({
        dataDir: dataDir(opts),
        configFile: opts.config,
        ...(emulatorPort !== undefined ? { emulatorPort } : {}),
        ...(emulatorCdrs !== undefined ? { emulatorCdrs } : {}),
        ...(temporalPort !== undefined ? { temporalPort } : {}),
        createLogger: (level) => {
          const logger = createLogger({ level, name: 'callsync' });
          installTemporalRuntime(logger);
          return logger;
        },
      });
      running.stack = stack;
      process.stdout.write(`${stack.banner()}\n`);
      if (stoppingSince !== undefined) {
        stoppingSince = undefined;
        stop('SIGINT');
      }
    });
}
