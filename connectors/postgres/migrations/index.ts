// Every migration, by name. Names sort in the order they run; add new ones at the end.
import type { Migration } from 'kysely/migration';
import * as createHistoryTables from './2026_11_22_0900_create_history_tables';
import * as createDirectoryTables from './2026_11_22_0901_create_directory_tables';
import * as createServiceState from './2026_11_22_0902_create_service_state';
import * as createCallEvents from './2026_11_22_1000_create_call_events';
import * as createWebhookInbox from './2026_12_01_0900_create_webhook_inbox';
import * as createCrmTables from './2026_12_01_0930_create_crm_tables';
import * as createCallFailures from './2026_12_08_0900_create_call_failures';
import * as createCallbackDials from './2026_12_08_0910_create_callback_dials';
import * as webhookRetentionIndexes from './2026_12_08_0930_webhook_retention_indexes';
import * as createReportRuns from './2026_12_20_0900_create_report_runs';
import * as createReportDeliveries from './2026_12_20_1100_create_report_deliveries';
import * as audioChecksumAndLost from './2026_12_21_0900_audio_checksum_and_lost';
import * as createGoogleAppsTables from './2026_12_21_1000_create_google_apps_tables';
import * as createVendorDailyBudgets from './2026_12_22_0900_create_vendor_daily_budgets';
import * as createContactSync from './2026_12_24_1000_create_contact_sync';
import * as createCrmContactCache from './2026_12_24_1100_create_crm_contact_cache';
import * as createErasureTables from './2026_12_24_1300_create_erasure_tables';
import * as createVendorRateSlots from './2026_12_24_1600_create_vendor_rate_slots';
import * as createVendorRateWindows from './2026_12_28_0900_create_vendor_rate_windows';
import * as audioMissingSince from './2026_12_29_1000_audio_missing_since';
import * as contactCacheByAccount from './2026_12_30_0900_contact_cache_by_account';
import * as crmObjectsConversationKinds from './2026_12_24_1101_crm_objects_conversation_kinds';
import * as dashboard from './2026_12_24_1200_dashboard';
import * as createCdrOutcomes from './2026_12_26_0900_create_cdr_outcomes';
import * as createBuiltinMessages from './2026_12_27_0900_create_builtin_messages';
import * as callerReachesAndDialSends from './2026_12_29_0900_caller_reaches_and_dial_sends';
import * as createDashboardUsers from './2026_12_30_0900_create_dashboard_users';
import * as crmMappingsByDestination from './2026_12_31_0900_crm_mappings_by_destination';
import * as erasureRemovedFiles from './2026_12_31_0900_erasure_removed_files';
import * as callFailureRetries from './2027_01_02_0900_call_failure_retries';
import * as vendorTokens from './2027_01_03_0900_vendor_tokens';
import * as createStoredAccounts from './2027_01_03_1000_create_stored_accounts';
import * as createCrmImportCheckpoints from './2027_01_03_1010_create_crm_import_checkpoints';
import * as vendorRateWindowAnswers from './2027_01_04_0900_vendor_rate_window_answers';

export const migrations: Readonly<Record<string, Migration>> = {
  '2026_11_22_0900_create_history_tables': createHistoryTables,
  '2026_11_22_0901_create_directory_tables': createDirectoryTables,
  '2026_11_22_0902_create_service_state': createServiceState,
  '2026_11_22_1000_create_call_events': createCallEvents,
  '2026_12_01_0900_create_webhook_inbox': createWebhookInbox,
  '2026_12_01_0930_create_crm_tables': createCrmTables,
  '2026_12_08_0900_create_call_failures': createCallFailures,
  '2026_12_08_0910_create_callback_dials': createCallbackDials,
  '2026_12_08_0930_webhook_retention_indexes': webhookRetentionIndexes,
  '2026_12_20_0900_create_report_runs': createReportRuns,
  '2026_12_20_1100_create_report_deliveries': createReportDeliveries,
  '2026_12_21_0900_audio_checksum_and_lost': audioChecksumAndLost,
  '2026_12_21_1000_create_google_apps_tables': createGoogleAppsTables,
  '2026_12_22_0900_create_vendor_daily_budgets': createVendorDailyBudgets,
  '2026_12_24_1000_create_contact_sync': createContactSync,
  '2026_12_24_1100_create_crm_contact_cache': createCrmContactCache,
  '2026_12_24_1101_crm_objects_conversation_kinds': crmObjectsConversationKinds,
  '2026_12_24_1200_dashboard': dashboard,
  '2026_12_24_1300_create_erasure_tables': createErasureTables,
  '2026_12_24_1600_create_vendor_rate_slots': createVendorRateSlots,
  '2026_12_26_0900_create_cdr_outcomes': createCdrOutcomes,
  '2026_12_27_0900_create_builtin_messages': createBuiltinMessages,
  '2026_12_28_0900_create_vendor_rate_windows': createVendorRateWindows,
  '2026_12_29_0900_caller_reaches_and_dial_sends': callerReachesAndDialSends,
  '2026_12_29_1000_audio_missing_since': audioMissingSince,
  '2026_12_30_0900_contact_cache_by_account': contactCacheByAccount,
  '2026_12_30_0900_create_dashboard_users': createDashboardUsers,
  '2026_12_31_0900_crm_mappings_by_destination': crmMappingsByDestination,
  '2026_12_31_0900_erasure_removed_files': erasureRemovedFiles,
  '2027_01_02_0900_call_failure_retries': callFailureRetries,
  '2027_01_03_0900_vendor_tokens': vendorTokens,
  '2027_01_03_1000_create_stored_accounts': createStoredAccounts,
  '2027_01_03_1010_create_crm_import_checkpoints': createCrmImportCheckpoints,
  '2027_01_04_0900_vendor_rate_window_answers': vendorRateWindowAnswers,
};
