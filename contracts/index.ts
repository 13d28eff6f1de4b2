// What the server, runtime, activities and workflows share: workflow, signal and query definitions,
// their input and output types, and workflow ids. Nothing here does I/O, so workflows may import it.
import { accountSyncWorkflow } from './account-sync';
import { backfillWindowWorkflow, backfillWorkflow } from './backfill';
import { callLifecycleWorkflow } from './call-lifecycle';
import { callbackWorkflow } from './callback';
import { reportExportWorkflow } from './report-export';
import { syncStreamWorkflow } from './sync-stream';
import { webhookRetentionWorkflow } from './webhook-retention';
import { transcribeRecordingsWorkflow } from './transcription';
import { erasePersonWorkflow } from './erasure';
import { quarantineRetryWorkflow } from './quarantine-retry';
import { contactSyncWorkflow } from './contact-sync';
import { screenPopWorkflow } from './screen-pop';
import { conversationsWorkflow, smsReceivedWorkflow } from './conversations';
import { crmOutcomesWorkflow } from './outcomes';

export * from './account-sync';
export * from './backfill';
export * from './call-event-signal';
export * from './call-lifecycle';
export * from './callback';
export * from './sync-stream';
export * from './webhook-retention';
export * from './task-queues';
export * from './report-export';
export * from './transcription';
export * from './erasure';
export * from './quarantine-retry';
export * from './contact-sync';
export * from './screen-pop';
export * from './conversations';
export * from './outcomes';
export { workflowRef } from './workflow-ref';

/** Every workflow the worker registers, by its registered name. */
export const workflowContracts = {
  syncStream: syncStreamWorkflow,
  accountSync: accountSyncWorkflow,
  backfill: backfillWorkflow,
  backfillWindow: backfillWindowWorkflow,
  callLifecycle: callLifecycleWorkflow,
  callback: callbackWorkflow,
  webhookRetention: webhookRetentionWorkflow,
  reportExport: reportExportWorkflow,
  transcribeRecordings: transcribeRecordingsWorkflow,
  erasePerson: erasePersonWorkflow,
  quarantineRetry: quarantineRetryWorkflow,
  contactSync: contactSyncWorkflow,
  screenPop: screenPopWorkflow,
  smsReceived: smsReceivedWorkflow,
  conversations: conversationsWorkflow,
  crmOutcomes: crmOutcomesWorkflow,
};
