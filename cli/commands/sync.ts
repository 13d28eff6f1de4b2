// `callsync sync --stream <s> [--account a] --now`: runs one sync of a stream now and prints its summary.
import type { Command } from 'commander';
import { streamDefinition } from '../../sync/streams';
import { triggerSync } from '../../runtime/schedules';
import { connectTemporal, globalOptions, loadConfigWithAccounts, pickAccount } from '../context';

/** Registers `sync` on the CLI program. */
export function registerSyncCommand(program: Command): void {
  program
    .command('sync')
    .description(
      'Run one sync of a stream now (through its schedule when there is one) and print the summary',
    )
    .requiredOption('--stream <stream>', 'stream to sync (e.g. cdrs)')
    .option('--account <name>', 'account (default: the first configured)')
    .option('--now', 'run at once (the only mode for now)', true)
    .action(async (raw: { stream: string; account?: string }, cmd: Command) => {
      streamDefinition(raw.stream);
      // Stored accounts (`callsync accounts add`) can be synced too.
      const { config, database } = await loadConfigWithAccounts(globalOptions(cmd), 'sync');
      await database.stop();
      const account = pickAccount(config, raw.account);
      const temporal = await connectTemporal(config);
      try {
        const summary = await triggerSync(temporal.client, config, account, raw.stream);
        process.stdout.write(`${JSON.stringify({ account, stream: raw.stream, ...summary })}\n`);
      } finally {
        await temporal.close();
      }
    });
}
