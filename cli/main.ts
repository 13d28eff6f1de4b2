import { Command } from 'commander';
import { registerEmulatorCommand } from './commands/emulator';

/** The `callsync` command line. Each command lives in cli/commands/ and registers itself here. */
export function buildProgram(): Command {
  const program = new Command('callsync')
    .description('Keeps a cloud telephony platform and your CRM, warehouse and reports in step.')
    .showHelpAfterError();
  registerEmulatorCommand(program);
  return program;
}

if (require.main === module) {
  buildProgram()
    .parseAsync(process.argv)
    .catch((err: unknown) => {
      process.stderr.write(`callsync: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
