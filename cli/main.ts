import { Command } from 'commander';
import { describeError } from '../lib/describe-error';

type Register = (program: Command) => void;

/**
 * Each command's module, loaded when needed: a command run loads its own module (and what it
 * imports) only, not the worker's and the server's too (`callsync keys` starts in half a second,
 * not five); help and unknown commands load them all. In the order help lists them.
 */
// `require`, not `import()`: the project runs as CommonJS (see lib/lazy-package.ts).
/* eslint-disable @typescript-eslint/no-require-imports -- loading the command run is the point */
const COMMANDS: Record<string, () => Register> = {
  start: () => (require('./commands/start') as typeof import('./commands/start')).registerStartCommand,
  worker: () => (require('./commands/worker') as typeof import('./commands/worker')).registerWorkerCommand,
  server: () => (require('./commands/server') as typeof import('./commands/server')).registerServerCommand,
  backfill: () =>
    (require('./commands/backfill') as typeof import('./commands/backfill')).registerBackfillCommand,
  sync: () => (require('./commands/sync') as typeof import('./commands/sync')).registerSyncCommand,
  status: () => (require('./commands/status') as typeof import('./commands/status')).registerStatusCommand,
  schedules: () =>
    (require('./commands/schedules') as typeof import('./commands/schedules')).registerSchedulesCommand,
  emulator: () =>
    (require('./commands/emulator') as typeof import('./commands/emulator')).registerEmulatorCommand,
  reports: () =>
    (require('./commands/reports') as typeof import('./commands/reports')).registerReportsCommand,
  erase: () => (require('./commands/erase') as typeof import('./commands/erase')).registerEraseCommand,
  retry: () => (require('./commands/retry') as typeof import('./commands/retry')).registerRetryCommand,
  users: () => (require('./commands/users') as typeof import('./commands/users')).registerUsersCommand,
  keys: () => (require('./commands/keys') as typeof import('./commands/keys')).registerKeysCommand,
  accounts: () =>
    (require('./commands/accounts') as typeof import('./commands/accounts')).registerAccountsCommand,
  crm: () => (require('./commands/crm') as typeof import('./commands/crm')).registerCrmCommand,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Global options that take a value (the command name is the first argument that is neither). */
const VALUE_OPTIONS = new Set(['--config', '--data-dir']);

/** The command `args` (process.argv without node and the script) name, if it is one of ours. */
export function commandNamed(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) return Object.hasOwn(COMMANDS, arg) ? arg : undefined;
  }
  return undefined;
}

/**
 * The `callsync` command line. Each command lives in cli/commands/ and registers itself here: the one
 * `args` names, or every one (for help, or an unknown command's suggestions).
 */
export function buildProgram(args: readonly string[] = process.argv.slice(2)): Command {
  const program = new Command('callsync')
    .description('Keeps a cloud telephony platform and your CRM, warehouse and reports in step.')
    .option('--config <file>', 'JSON configuration file (else CALLSYNC_CONFIG; the environment overrides it)')
    .option(
      '--data-dir <dir>',
      'local state: embedded PostgreSQL, Temporal database, archive (else CALLSYNC_DATA_DIR or .data)',
    )
    .showHelpAfterError();
  const named = commandNamed(args);
  const loaders = named ? [COMMANDS[named]!] : Object.values(COMMANDS);
  for (const load of loaders) load()(program);
  return program;
}

if (require.main === module) {
  Promise.resolve()
    .then(() => buildProgram().parseAsync(process.argv))
    .catch((err: unknown) => {
      process.stderr.write(`callsync: ${describeError(err)}\n`);
      process.exit(1);
    });
}
