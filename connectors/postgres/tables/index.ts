// The warehouse's kysely database type: one table per stream plus the service-state tables.
import type { CdrsTable, MsdrsTable } from './cdrs';
import type { CallMeBackTable } from './callmeback';
import type { ContactsTable, UsersTable } from './directory';
import type { RecordingsTable, VoicemessagesTable } from './media';
import type { ChatsTable, FaxesTable, SmsTable } from './messages';
import type { QueuesTable, ReportSchedulesTable, RingGroupsTable } from './settings';
import type { QuarantinedRecordsTable, SyncCheckpointsTable, SyncRunsTable } from './service-state';

export interface Database {
  cdrs: CdrsTable;
  recordings: RecordingsTable;
  voicemessages: VoicemessagesTable;
  sms: SmsTable;
  faxes: FaxesTable;
  chats: ChatsTable;
  msdrs: MsdrsTable;
  contacts: ContactsTable;
  users: UsersTable;
  queues: QueuesTable;
  ring_groups: RingGroupsTable;
  report_schedules: ReportSchedulesTable;
  callmeback_cdrs: CallMeBackTable;
  callmeback_visitors: CallMeBackTable;
  sync_checkpoints: SyncCheckpointsTable;
  quarantined_records: QuarantinedRecordsTable;
  sync_runs: SyncRunsTable;
}

export * from './columns';
export * from './cdrs';
export * from './callmeback';
export * from './directory';
export * from './media';
export * from './messages';
export * from './settings';
export * from './service-state';
