import { Command } from 'commander';
import { registerAccountsCommand } from './commands/accounts';
import { registerBackfillCommand } from './commands/backfill';
import { registerCrmCommand } from './commands/crm';
import { registerEmulatorCommand } from './commands/emulator';
import { registerEraseCommand } from './commands/erase';
import { registerKeysCommand } from './commands/keys';
import { registerSchedulesCommand } from './commands/schedules';
import { registerReportsCommand } from './commands/reports';
import { registerRetryCommand } from './commands/retry';
import { registerServerCommand } from './commands/server';
import { registerStartCommand } from './commands/start';
import { registerStatusCommand } from './commands/status';
import { registerSyncCommand } from './commands/sync';
import { registerUsersCommand } from './commands/users';
import { registerWorkerCommand } from './commands/worker';
import { describeError } from '../lib/describe-error';

/** The `callsync` command line. Each command lives in cli/commands/ and registers itself here. */
export function buildProgram(): Command {
  const program = new Command('callsync')
    .description('Keeps a cloud telephony platform and your CRM, warehouse and reports in step.')
    .option('--config <file>', 'JSON configuration file (else CALLSYNC_CONFIG; the environment overrides it)')
    .option(
      '--data-dir <dir>',
      'local state: embedded PostgreSQL, Temporal database, archive (else CALLSYNC_DATA_DIR or .data)',
    )
    .showHelpAfterError();
  registerStartCommand(program);
  registerWorkerCommand(program);
  registerServerCommand(program);
  registerBackfillCommand(program);
  registerSyncCommand(program);
  registerStatusCommand(program);
  registerSchedulesCommand(program);
  registerEmulatorCommand(program);
  registerReportsCommand(program);
  registerEraseCommand(program);
  registerRetryCommand(program);
  registerUsersCommand(program);
  registerKeysCommand(program);
  registerAccountsCommand(program);
  registerCrmCommand(program);
  return program;
}

if (require.main === module) {
  buildProgram()
    .parseAsync(process.argv)
    .catch((err: unknown) => {
      process.stderr.write(`callsync: ${describeError(err)}\n`);
      process.exit(1);
    });
}
