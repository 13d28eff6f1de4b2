// `callsync schedules apply`: makes the Temporal Schedules match the configuration and prints the counts.
import type { Command } from 'commander';
import { applyContactSyncSchedules } from '../../runtime/contact-sync-schedule';
import { applyRetentionSchedule } from '../../runtime/retention-schedule';
import { applySchedules } from '../../runtime/schedules';
import { applyTranscriptionSchedules } from '../../runtime/transcription-schedule';
import { applyConversationsSchedules } from '../../runtime/conversations-schedule';
import { applyCrmOutcomesSchedules } from '../../runtime/outcomes-schedule';
import { connectTemporal, globalOptions, loadCliConfig } from '../context';

/** Registers `schedules` on the CLI program. */
export function registerSchedulesCommand(program: Command): void {
  const schedules = program
    .command('schedules')
    .description('Manage the Temporal Schedules that run the syncs');
  schedules
    .command('apply')
    .description('Create, update and delete sync schedules to match the configuration')
    .option('--json', 'print the schedule ids per outcome as JSON')
    .action(async (raw: { json?: boolean }, cmd: Command) => {
      const config = loadCliConfig(globalOptions(cmd));
      const temporal = await connectTemporal(config);
      try {
        const r = await applySchedules(temporal.client, config);
        const retention = await applyRetentionSchedule(temporal.client, config);
        const transcription = await applyTranscriptionSchedules(temporal.client, config);
        const contacts = await applyContactSyncSchedules(temporal.client, config);
        const conversations = await applyConversationsSchedules(temporal.client, config);
        const outcomes = await applyCrmOutcomesSchedules(temporal.client, config);
        if (raw.json)
          process.stdout.write(
            `${JSON.stringify({ ...r, retention, transcription, contacts, conversations, outcomes })}\n`,
          );
        else {
          process.stdout.write(
            `schedules: ${r.created.length} created, ${r.updated.length} updated, ${r.deleted.length} deleted, ${r.unchanged.length} unchanged; webhook retention ${retention}\n`,
          );
        }
      } finally {
        await temporal.close();
      }
    });
}
