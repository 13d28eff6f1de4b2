// The warehouse's kysely database type: one table per stream plus the service-state tables.
import type { CallEventsTable } from './calls';
import type { CdrsTable, MsdrsTable } from './cdrs';
import type {
  BuiltinCallLogsTable,
  BuiltinContactsTable,
  BuiltinMessagesTable,
  BuiltinTasksTable,
  CrmDestinationClaimsTable,
  CrmObjectsTable,
} from './crm';
import type { CrmContactCacheTable } from './crm-contact-cache';
import type { CdrOutcomesTable } from './cdr-outcomes';
import type { CallMeBackTable } from './callmeback';
import type { ContactsTable, UsersTable } from './directory';
import type { CallbackDialsTable, CallerReachesTable, CallFailuresTable } from './follow-ups';
import type { RecordingsTable, VoicemessagesTable } from './media';
import type { ChatsTable, FaxesTable, SmsTable } from './messages';
import type { QueuesTable, ReportSchedulesTable, RingGroupsTable } from './settings';
import type { ReportRunsTable } from './report-runs';
import type { QuarantinedRecordsTable, SyncCheckpointsTable, SyncRunsTable } from './service-state';
import type { WebhookInboxTable, WebhookRejectedTable } from './webhooks';
import type { ReportDeliveriesTable } from './report-deliveries';
import type { GoogleTasklistsTable, TranscriptionJobsTable } from './google-apps';
import type { ErasureRequestsTable, ErasureSuppressionsTable, ErasuresTable } from './erasure';
import type {
  DashboardLoginFailuresTable,
  DashboardSessionsTable,
  DashboardUsersTable,
} from './dashboard-users';
import type { VendorTokensTable } from './vendor-tokens';
import type { CrmImportCheckpointsTable, StoredAccountsTable } from './onboarding';
import type { ContactAmbiguitiesTable, ContactLinksTable, ContactSyncStateTable } from './contact-sync';

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
  crm_destination_claims: CrmDestinationClaimsTable;
  crm_contact_cache: CrmContactCacheTable;
  builtin_contacts: BuiltinContactsTable;
  builtin_call_logs: BuiltinCallLogsTable;
  builtin_tasks: BuiltinTasksTable;
  builtin_messages: BuiltinMessagesTable;
  webhook_inbox: WebhookInboxTable;
  webhook_rejected: WebhookRejectedTable;
  call_failures: CallFailuresTable;
  callback_dials: CallbackDialsTable;
  caller_reaches: CallerReachesTable;
  report_runs: ReportRunsTable;
  report_deliveries: ReportDeliveriesTable;
  google_tasklists: GoogleTasklistsTable;
  transcription_jobs: TranscriptionJobsTable;
  erasure_requests: ErasureRequestsTable;
  erasures: ErasuresTable;
  erasure_suppressions: ErasureSuppressionsTable;
  contact_links: ContactLinksTable;
  contact_sync_state: ContactSyncStateTable;
  contact_ambiguities: ContactAmbiguitiesTable;
  cdr_outcomes: CdrOutcomesTable;
  dashboard_users: DashboardUsersTable;
  dashboard_sessions: DashboardSessionsTable;
  dashboard_login_failures: DashboardLoginFailuresTable;
  vendor_tokens: VendorTokensTable;
  stored_accounts: StoredAccountsTable;
  crm_import_checkpoints: CrmImportCheckpointsTable;
}

export * from './columns';
export * from './calls';
export * from './cdrs';
export * from './crm';
export * from './crm-contact-cache';
export * from './cdr-outcomes';
export * from './callmeback';
export * from './directory';
export * from './follow-ups';
export * from './media';
export * from './messages';
export * from './settings';
export * from './service-state';
export * from './webhooks';
export * from './report-runs';
export * from './report-deliveries';
export * from './google-apps';
export * from './erasure';
export * from './contact-sync';
export * from './dashboard-users';
export * from './vendor-tokens';
export * from './onboarding';
