// The warehouse's kysely database type: one table per stream plus the service-state tables.
import type { CallEventsTable } from './calls';
import type { CdrsTable, MsdrsTable } from './cdrs';
import type { BuiltinCallLogsTable, BuiltinContactsTable, BuiltinTasksTable, CrmObjectsTable } from './crm';
import type { CallMeBackTable } from './callmeback';
import type { ContactsTable, UsersTable } from './directory';
import type { CallbackDialsTable, CallFailuresTable } from './follow-ups';
import type { RecordingsTable, VoicemessagesTable } from './media';
import type { ChatsTable, FaxesTable, SmsTable } from './messages';
import type { QueuesTable, ReportSchedulesTable, RingGroupsTable } from './settings';
import type { QuarantinedRecordsTable, SyncCheckpointsTable, SyncRunsTable } from './service-state';
import type { WebhookInboxTable, WebhookRejectedTable } from './webhooks';
import type { GoogleTasklistsTable, TranscriptionJobsTable } from './google-apps';

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
  call_events: CallEventsTable;
  crm_objects: CrmObjectsTable;
  builtin_contacts: BuiltinContactsTable;
  builtin_call_logs: BuiltinCallLogsTable;
  builtin_tasks: BuiltinTasksTable;
  webhook_inbox: WebhookInboxTable;
  webhook_rejected: WebhookRejectedTable;
  call_failures: CallFailuresTable;
  callback_dials: CallbackDialsTable;
  google_tasklists: GoogleTasklistsTable;
  transcription_jobs: TranscriptionJobsTable;
}

export * from './columns';
export * from './calls';
export * from './cdrs';
export * from './crm';
export * from './callmeback';
export * from './directory';
export * from './follow-ups';
export * from './media';
export * from './messages';
export * from './settings';
export * from './service-state';
export * from './webhooks';
export * from './google-apps';
