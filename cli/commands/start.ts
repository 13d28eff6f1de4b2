// `callsync start` (npm start): the whole job on one machine. Starts what the configuration does not
// name (emulator, embedded PostgreSQL, Temporal dev server with UI), the worker and the schedules,
// prints where everything is, and stops it all on Ctrl-C (a second Ctrl-C forces the exit).
import type { Command } from 'commander';
import { createLogger } from '../../lib/logger';
import { startLocalStack } from '../../local/stack';
import { dataDir, globalOptions } from '../context';
import { installTemporalRuntime } from './worker';

/** Registers `start` on the CLI program. */
export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description(
      'Run everything locally: emulator (unless an account is configured), PostgreSQL, Temporal, worker, schedules',
    )
    .option('--emulator-port <port>', 'preferred emulator port (a free one when taken)', '8787')
    .action(async (raw: { emulatorPort: string }, cmd: Command) => {
      const opts = globalOptions(cmd);
      const stack = await startLocalStack({
        dataDir: dataDir(opts),
        configFile: opts.config,
        emulatorPort: Number(raw.emulatorPort),
        createLogger: (level) => {
          const logger = createLogger({ level, name: 'callsync' });
          installTemporalRuntime(logger);
          return logger;
        },
      });
      process.stdout.write(`${stack.banner()}\n`);
      let stopping = false;
      const stop = (signal: string): void => {
        if (stopping) {
          process.stderr.write('callsync: forced exit\n');
          process.exit(1);
        }
        stopping = true;
        stack.logger.info({ signal }, 'stopping');
        stack.stop().then(
          () => process.exit(0),
          (err: unknown) => {
            stack.logger.error({ err }, 'stop failed');
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
}
