// Every migration, by name. Names sort in the order they run; add new ones at the end.
import type { Migration } from 'kysely';
import * as createHistoryTables from './2026_11_22_0900_create_history_tables';
import * as createDirectoryTables from './2026_11_22_0901_create_directory_tables';
import * as createServiceState from './2026_11_22_0902_create_service_state';

export const migrations: Readonly<Record<string, Migration>> = {
  '2026_11_22_0900_create_history_tables': createHistoryTables,
  '2026_11_22_0901_create_directory_tables': createDirectoryTables,
  '2026_11_22_0902_create_service_state': createServiceState,
};
