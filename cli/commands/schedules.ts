// `callsync schedules apply`: makes the account sync loops and the Temporal Schedules match the
// configuration (the config file's accounts and the stored ones) and prints the counts.
import type { Command } from 'commander';
import { applyAllSchedules } from '../../runtime/apply-all-schedules';
import { connectTemporal, globalOptions, loadConfigWithAccounts } from '../context';

/** Registers `schedules` on the CLI program. */
export function registerSchedulesCommand(program: Command): void {
  const schedules = program
    .command('schedules')
    .description('Manage the sync loops and Temporal Schedules that run the syncs');
  schedules
    .command('apply')
    .description(
      'Start, reconfigure and stop the account sync loops, and create, update and delete the Schedules, to match the configuration',
    )
    .option('--json', 'print the schedule ids per outcome as JSON')
    .action(async (raw: { json?: boolean }, cmd: Command) => {
      const { config, database } = await loadConfigWithAccounts(globalOptions(cmd), 'schedules');
      await database.stop();
      const temporal = await connectTemporal(config);
      try {
        const r = await applyAllSchedules(temporal.client, config);
        if (raw.json) process.stdout.write(`${JSON.stringify(r)}\n`);
        else {
          process.stdout.write(
            `sync loops: ${r.created.length} started, ${r.updated.length} updated, ${r.deleted.length} deleted, ${r.unchanged.length} unchanged; webhook retention ${r.retention}\n`,
          );
        }
      } finally {
        await temporal.close();
      }
    });
}
