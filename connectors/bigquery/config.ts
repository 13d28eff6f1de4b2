import { z } from 'zod';
import { googleCredentialsSchema } from '../google/credentials-config';

const datasetId = z
  .string()
  .regex(/^[A-Za-z0-9_]{1,1024}$/, 'letters, digits and _ only (a BigQuery dataset id)');

/** Where one account's streams go, when it differs from the defaults. */
export const bigqueryAccountSchema = z.object({
  /** Google Cloud project of this account's dataset (default: warehouse.bigquery.projectId). */
  projectId: z.string().min(1).optional(),
  /** Dataset of this account's tables (default: warehouse.bigquery.dataset). */
  dataset: datasetId.optional(),
});

/**
 * The BigQuery warehouse: every stream's table in a dataset, loaded exactly once per page (staging
 * load + MERGE, with job ids derived from the page). PostgreSQL stays the service's state store.
 */
export const bigqueryConfigSchema = z.object({
  /** Google Cloud project that runs the jobs and holds the dataset. */
  projectId: z.string().min(1),
  /** Dataset the stream tables live in (created when missing). */
  dataset: datasetId,
  /** Location of the dataset and its jobs (US, EU, europe-west2…). */
  location: z.string().min(1).default('US'),
  /** Service account or application default credentials (see connectors/google/credentials.ts). */
  credentials: googleCredentialsSchema.prefault({}),
  /** API origin; only tests point it elsewhere (the crucible emulator). */
  apiEndpoint: z.url().optional(),
  /**
   * Accounts loaded into BigQuery, with optional per-account project/dataset; every configured
   * account goes to the default dataset when absent.
   */
  accounts: z.record(z.string(), bigqueryAccountSchema).optional(),
  /** How long to wait for one load or merge job before the activity fails (and is retried). */
  jobTimeoutMs: z
    .number()
    .int()
    .positive()
    .default(10 * 60_000),
});

export type BigQueryConfig = z.infer<typeof bigqueryConfigSchema>;
export type BigQueryConfigInput = z.input<typeof bigqueryConfigSchema>;

/** Where an account's tables are, or undefined when the account does not go to BigQuery. */
export function bigqueryTarget(
  config: BigQueryConfig,
  account: string,
): { projectId: string; dataset: string } | undefined {
  if (config.accounts && !(account in config.accounts)) return undefined;
  const own = config.accounts?.[account];
  return { projectId: own?.projectId ?? config.projectId, dataset: own?.dataset ?? config.dataset };
}
