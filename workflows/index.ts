// Every workflow the worker runs (the worker bundles this file).
export { syncStream } from './sync-stream';
export { accountSync } from './account-sync';
export { backfill, backfillWindow } from './backfill';
export { callLifecycle } from './call-lifecycle';
export { callback } from './callback';
export { webhookRetention } from './webhook-retention';
export { reportExport } from './report-export';
export { transcribeRecordings } from './transcribe-recordings';
export { erasePerson } from './erase-person';
export { quarantineRetry } from './quarantine-retry';
export { contactSync } from './contact-sync';
export { screenPop } from './screen-pop';
export { smsReceived, conversations } from './conversations';
export { crmOutcomes } from './crm-outcomes';
