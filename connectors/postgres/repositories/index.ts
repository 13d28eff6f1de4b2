// Repositories: plain functions taking the kysely `db` or a transaction.
export * from './audio';
export * from './checkpoints';
export * from './quarantine';
export * from './sync-runs';
export * from './call-events';
export * from './stream-status';
export * from './call-failures';
export * from './callback-dials';
export * from './webhook-inbox';
export * from './report-runs';
export * from './report-deliveries';
export * from './google-tasklists';
export * from './vendor-budgets';
export * from './transcription-jobs';
