// The BigQuery warehouse: creates and migrates each stream's table, and writes one page exactly once
// (load into a staging table, MERGE on (account, id), drop the staging table), in jobs whose ids
// derive from the page (job-ids.ts), so a retried activity awaits the jobs it already started.
import type { BigQuery, Job } from '@google-cloud/bigquery';
import type { AuthClient } from 'google-auth-library';
import { googleAuthClient } from '../google/credentials';
import { lazyPackage } from '../../lib/lazy-package';
import { preparePage } from '../postgres/bulk-upsert';
import { streamTable, type PageRecord, type StreamName } from '../postgres/stream-tables';
import { bigqueryTarget, type BigQueryConfig } from './config';
import { deleteRowsSql, personRowsSql } from './erasure-sql';
import { pageJobId, pageJobStem, stageTableName, type PagePosition } from './job-ids';
import {
  addColumnsSql,
  createTableSql,
  mergeSql,
  rowDocument,
  stageCsv,
  STAGE_SCHEMA,
  type TableRef,
} from './table-schema';

/** OAuth scope of the BigQuery API. */
export const BIGQUERY_SCOPE = 'https://www.googleapis.com/auth/bigquery';

export interface WritePageInput {
  position: PagePosition;
  records: readonly PageRecord[];
}

export interface WritePageResult {
  /** Rows sent to the MERGE (records a column cannot hold are left to the PostgreSQL quarantine). */
  rows: number;
  /** Rows the MERGE inserted or updated (0 when it ran before, in an earlier attempt). */
  affected: number;
  /** Jobs of this page that an earlier attempt had already run. */
  reused: number;
}

/** A BigQuery job finished with an error (the message is BigQuery's, which holds no credentials). */
export class BigQueryJobError extends Error {
  override readonly name = 'BigQueryJobError';
  constructor(
    readonly jobId: string,
    readonly reason: string,
    message: string,
  ) {
    super(`BigQuery job ${jobId} failed (${reason}): ${message}`);
  }
}

interface JobStatus {
  state?: string;
  errorResult?: { reason?: string; message?: string } | null;
}
interface JobMetadata {
  status?: JobStatus;
  statistics?: { query?: { numDmlAffectedRows?: string } };
}

// New attempts one activity run makes for a step whose jobs keep failing, before it gives up
// (Temporal retries it; a later run skips the spent ids by their 409).
const NEW_ATTEMPTS_PER_RUN = 3;
const POLL_MS = 250;

const isAlreadyExists = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 409;
const isNotFound = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 404;

/** One account's BigQuery dataset, behind the warehouse destination interface. */
export class BigQueryWarehouse {
  private readonly ensured = new Map<StreamName, Promise<void>>();

  constructor(
    private readonly bq: BigQuery,
    private readonly account: string,
    private readonly target: { projectId: string; dataset: string },
    private readonly options: { location: string; jobTimeoutMs: number },
  ) {}

  private ref(table: string): TableRef {
    return { projectId: this.target.projectId, dataset: this.target.dataset, table };
  }

  /** Creates the dataset and the stream's table when missing and adds the columns it lacks (once per process). */
  ensureTable(stream: StreamName): Promise<void> {
    let done = this.ensured.get(stream);
    if (!done) {
      done = this.createOrMigrate(stream);
      this.ensured.set(stream, done);
      done.catch(() => this.ensured.delete(stream));
    }
    return done;
  }

  private async createOrMigrate(stream: StreamName): Promise<void> {
    const dataset = this.bq.dataset(this.target.dataset, { projectId: this.target.projectId });
    try {
      // The client copies a projectId option into the request body, which only the client's own
      // project can do without (the emulator refuses unknown fields).
      const other = this.target.projectId === this.bq.projectId ? {} : { projectId: this.target.projectId };
      await this.bq.createDataset(this.target.dataset, { location: this.options.location, ...other });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    const ref = this.ref(streamTable(stream).table);
    await this.runQuery(createTableSql(ref, stream));
    const [meta] = (await dataset.table(ref.table).getMetadata()) as unknown as [
      { schema?: { fields?: { name: string }[] } },
    ];
    const alter = addColumnsSql(
      ref,
      stream,
      (meta.schema?.fields ?? []).map((f) => f.name),
    );
    if (alter) await this.runQuery(alter);
  }

  /** The dataset of this account's tables. */
  get dataset(): string {
    return this.target.dataset;
  }

  /** Whether the stream's table exists (an account that never synced the stream has none). */
  async hasTable(stream: StreamName): Promise<boolean> {
    const dataset = this.bq.dataset(this.target.dataset, { projectId: this.target.projectId });
    const [exists] = await dataset.table(streamTable(stream).table).exists();
    return exists;
  }

  /**
   * The account's rows of a stream that name the person (erasure-sql.ts personRowsSql), in pages
   * of at most `pageSize`, read from the finished query's results.
   */
  async *personRows(
    stream: StreamName,
    pattern: string,
    callIds: readonly number[],
    pageSize = 1000,
  ): AsyncGenerator<Record<string, unknown>[]> {
    const job = await this.startQuery(
      personRowsSql(this.ref(streamTable(stream).table), stream, this.account, pattern, callIds),
    );
    this.failOnError(job, await this.waitFor(job));
    let pageToken: string | undefined;
    do {
      const [rows, next] = await job.getQueryResults({
        maxResults: pageSize,
        autoPaginate: false,
        ...(pageToken ? { pageToken } : {}),
      });
      if (rows.length > 0) yield rows as Record<string, unknown>[];
      pageToken = (next as { pageToken?: string } | null | undefined)?.pageToken;
    } while (pageToken);
  }

  /** Deletes the account's rows of a stream with these ids; returns how many there were. */
  async deleteRows(stream: StreamName, ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const job = await this.startQuery(deleteRowsSql(this.ref(streamTable(stream).table), this.account, ids));
    const metadata = await this.waitFor(job);
    this.failOnError(job, metadata);
    return Number(metadata.statistics?.query?.numDmlAffectedRows ?? 0);
  }

  /** Writes one page: staged, merged on the key, staging dropped. Idempotent per page position and content. */
  async writePage(input: WritePageInput): Promise<WritePageResult> {
    const stream = input.position.stream as StreamName;
    const spec = streamTable(stream);
    const prepared = preparePage(spec, this.account, input.records);
    if (prepared.rows.length === 0) return { rows: 0, affected: 0, reused: 0 };
    await this.ensureTable(stream);
    const csv = stageCsv(prepared.rows.map((cells) => rowDocument(stream, this.account, cells)));
    const stem = pageJobStem(input.position, csv);
    const stage = this.ref(stageTableName(stem));
    const load = await this.runPageJob(stem, 'load', (jobId) => this.startLoad(stage.table, jobId, csv));
    const merge = await this.runPageJob(stem, 'merge', (jobId) =>
      this.startQuery(mergeSql(this.ref(spec.table), stage, stream), jobId),
    );
    try {
      await this.bq.dataset(stage.dataset, { projectId: stage.projectId }).table(stage.table).delete();
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    return {
      rows: prepared.rows.length,
      affected: merge.reused ? 0 : Number(merge.metadata.statistics?.query?.numDmlAffectedRows ?? 0),
      reused: Number(load.reused) + Number(merge.reused),
    };
  }

  /**
   * Runs a page's step exactly once: the step's first id that BigQuery does not know yet is started;
   * an id it knows (409) is awaited, and done if that job succeeded; a failed job's id is spent.
   */
  private async runPageJob(
    stem: string,
    step: 'load' | 'merge',
    start: (jobId: string) => Promise<Job>,
  ): Promise<{ metadata: JobMetadata; reused: boolean }> {
    let failures = 0;
    for (let attempt = 0; ; attempt++) {
      const jobId = pageJobId(stem, step, attempt);
      let job: Job;
      let reused = false;
      try {
        job = await start(jobId);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        job = this.bq.job(jobId, { location: this.options.location, projectId: this.target.projectId });
        reused = true;
      }
      const metadata = await this.waitFor(job);
      const error = metadata.status?.errorResult;
      if (!error) return { metadata, reused };
      if (!reused) failures += 1;
      if (failures >= NEW_ATTEMPTS_PER_RUN) {
        throw new BigQueryJobError(jobId, error.reason ?? 'unknown', error.message ?? '');
      }
    }
  }

  private async waitFor(job: Job): Promise<JobMetadata> {
    const deadline = Date.now() + this.options.jobTimeoutMs;
    for (;;) {
      const [metadata] = (await job.getMetadata()) as unknown as [JobMetadata];
      if (metadata.status?.state === 'DONE') return metadata;
      if (Date.now() > deadline)
        throw new Error(`BigQuery job ${job.id ?? ''} not done after ${this.options.jobTimeoutMs} ms`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  private async startQuery(query: string, jobId?: string): Promise<Job> {
    try {
      const [job] = await this.bq.createQueryJob({
        query,
        useLegacySql: false,
        location: this.options.location,
        ...(jobId ? { jobId } : {}),
      });
      return job;
    } catch (err) {
      // A job that ran and failed is reported as an error carrying its response: await it as a job.
      const job = failedJob(this.bq, err, this.options.location);
      if (job) return job;
      throw err;
    }
  }

  private async runQuery(query: string): Promise<void> {
    const job = await this.startQuery(query);
    this.failOnError(job, await this.waitFor(job));
  }

  private failOnError(job: Job, metadata: JobMetadata): void {
    const error = metadata.status?.errorResult;
    if (error) throw new BigQueryJobError(job.id ?? '', error.reason ?? 'unknown', error.message ?? '');
  }

  /** A load job (multipart upload of the staging CSV) that replaces the staging table's rows. */
  private startLoad(table: string, jobId: string, csv: Buffer): Promise<Job> {
    const destination = this.bq
      .dataset(this.target.dataset, { projectId: this.target.projectId, location: this.options.location })
      .table(table);
    return new Promise<Job>((resolve, reject) => {
      const upload = destination.createWriteStream_({
        jobId,
        sourceFormat: 'CSV',
        schema: STAGE_SCHEMA,
        writeDisposition: 'WRITE_TRUNCATE',
        createDisposition: 'CREATE_IF_NEEDED',
      });
      upload.once('job', (job: Job) => resolve(job));
      upload.once('error', reject);
      upload.end(csv);
    });
  }
}

const bigqueryPackage = lazyPackage<typeof import('@google-cloud/bigquery')>('@google-cloud/bigquery');

function failedJob(bq: BigQuery, err: unknown, location: string): Job | undefined {
  const ref = (err as { response?: { jobReference?: { jobId?: string; projectId?: string } } } | null)
    ?.response?.jobReference;
  if (!ref?.jobId) return undefined;
  return bq.job(ref.jobId, { location, ...(ref.projectId ? { projectId: ref.projectId } : {}) });
}

/** A BigQuery client for the config's project and endpoint, authenticated by its credentials. */
export async function createBigQueryClient(
  config: BigQueryConfig,
  authClient?: AuthClient,
): Promise<BigQuery> {
  const auth = authClient ?? (await googleAuthClient(config.credentials, [BIGQUERY_SCOPE]));
  return new (bigqueryPackage().BigQuery)({
    projectId: config.projectId,
    location: config.location,
    authClient: auth,
    ...(config.apiEndpoint ? { apiEndpoint: config.apiEndpoint } : {}),
  });
}

/** One BigQueryWarehouse per account that goes to BigQuery (undefined for the others). */
export async function createBigQueryWarehouses(
  config: BigQueryConfig,
  accounts: readonly string[],
): Promise<(account: string) => BigQueryWarehouse | undefined> {
  const client = await createBigQueryClient(config);
  const byAccount = new Map<string, BigQueryWarehouse>();
  for (const account of accounts) {
    const target = bigqueryTarget(config, account);
    if (target) {
      byAccount.set(
        account,
        new BigQueryWarehouse(client, account, target, {
          location: config.location,
          jobTimeoutMs: config.jobTimeoutMs,
        }),
      );
    }
  }
  return (account) => byAccount.get(account);
}
