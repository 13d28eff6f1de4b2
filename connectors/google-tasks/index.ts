// Callbacks in Google Tasks: config, the connector, and its pure task mapping.
export * from './config';
export * from './google-tasks-connector';
export { DESTINATION as GOOGLE_TASKS_DESTINATION, toCrmError as googleApiError } from './errors';
export * from './task-mapping';
