// What the server, runtime, activities and workflows share: workflow, signal and query definitions,
// their input and output types, and workflow ids. Nothing here does I/O, so workflows may import it.
import { backfillWindowWorkflow, backfillWorkflow } from './backfill';
import { callLifecycleWorkflow } from './call-lifecycle';
import { callbackWorkflow } from './callback';
import { reportExportWorkflow } from './report-export';
import { syncStreamWorkflow } from './sync-stream';
import { webhookRetentionWorkflow } from './webhook-retention';
import { transcribeRecordingsWorkflow } from './transcription';

export * from './backfill';
export * from './call-event-signal';
export * from './call-lifecycle';
export * from './callback';
export * from './sync-stream';
export * from './webhook-retention';
export * from './task-queues';
export * from './report-export';
export * from './transcription';
export { workflowRef } from './workflow-ref';

/** Every workflow the worker registers, by its registered name. */
export const workflowContracts = {
  syncStream: syncStreamWorkflow,
  backfill: backfillWorkflow,
  backfillWindow: backfillWindowWorkflow,
  callLifecycle: callLifecycleWorkflow,
  callback: callbackWorkflow,
  webhookRetention: webhookRetentionWorkflow,
  reportExport: reportExportWorkflow,
  transcribeRecordings: transcribeRecordingsWorkflow,
};
