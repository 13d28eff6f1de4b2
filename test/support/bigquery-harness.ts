// A sync harness whose accounts also go to BigQuery, on the crucible emulator: the config block, a
// client to read the tables back, and the exactness check every BigQuery sync test ends with.
import type { BigQuery } from '@google-cloud/bigquery';
import { bigqueryConfigSchema, createBigQueryClient } from '../../connectors/bigquery';
import { startCrucible, testServiceAccountJson, type RunningCrucible } from './crucible';

export const BQ_PROJECT = 'callsync-test';
export const BQ_DATASET = 'warehouse';

export interface BigQueryTestTarget {
  crucible: RunningCrucible;
  /** The `warehouse` config section that sends every account to the emulator's dataset. */
  config: { bigquery: Record<string, unknown> };
  bq: BigQuery;
  /** Rows of a query on the emulator. */
  rows(sql: string): Promise<Record<string, unknown>[]>;
  /** Ids of a table for account acme, ascending, and how many rows there are in all. */
  ids(table: string): Promise<{ ids: number[]; rows: number }>;
}

/** Starts crucible and builds the config and client that point at it. */
export async function startBigQueryTarget(): Promise<BigQueryTestTarget> {
  const crucible = await startCrucible();
  const bigquery = {
    projectId: BQ_PROJECT,
    dataset: BQ_DATASET,
    location: 'EU',
    apiEndpoint: crucible.endpoint,
    credentials: { serviceAccountJson: testServiceAccountJson(), selfSignedJwt: true },
  };
  const bq = await createBigQueryClient(bigqueryConfigSchema.parse(bigquery));
  const rows = async (sql: string) => {
    const [result] = await bq.query({ query: sql, location: 'EU', useLegacySql: false });
    return result as Record<string, unknown>[];
  };
  return {
    crucible,
    config: { bigquery },
    bq,
    rows,
    async ids(table) {
      const found = await rows(
        `SELECT id FROM \`${BQ_PROJECT}.${BQ_DATASET}.${table}\` WHERE account = 'acme' ORDER BY id`,
      );
      return { ids: found.map((r) => Number(r.id)), rows: found.length };
    },
  };
}
