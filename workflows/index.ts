// Every workflow the worker runs (the worker bundles this file).
export { syncStream } from './sync-stream';
export { backfill, backfillWindow } from './backfill';
export { callLifecycle } from './call-lifecycle';
export { callback } from './callback';
export { webhookRetention } from './webhook-retention';
export { reportExport } from './report-export';
export { transcribeRecordings } from './transcribe-recordings';
