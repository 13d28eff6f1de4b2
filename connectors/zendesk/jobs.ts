// Zendesk's bulk requests (users/create_many, users/update_many) answer a job status rather than the
// records: the job is queued, and GET /api/v2/job_statuses/{id} is read until it is completed, its
// results then one per record, in the order the records were sent, each `Created`, `Updated` or
// `Failed` with an error (https://developer.zendesk.com/api-reference/ticketing/ticket-management/job_statuses/).
// Every poll is a request like any other: it goes through the connector's rate gate.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { CrmError } from '../crm/errors';
import type { ClientCall, ZendeskApi } from './api';
import { DESTINATION } from './errors';

const jobStatusSchema = z.looseObject({
  job_status: z.looseObject({
    id: z.string(),
    status: z.string(),
    message: z.string().nullish(),
    results: z
      .array(
        z.looseObject({
          index: z.number().nullish(),
          id: z.number().nullish(),
          status: z.string().nullish(),
          error: z.string().nullish(),
          external_id: z.string().nullish(),
        }),
      )
      .nullish(),
  }),
});
export type JobResult = NonNullable<z.infer<typeof jobStatusSchema>['job_status']['results']>[number];

/** First wait before reading a job's status, and the longest between two reads. */
const FIRST_POLL_MS = 200;
const MAX_POLL_MS = 5_000;
/** How long a job may stay queued or working before the activity gives up (and retries later). */
const JOB_DEADLINE_MS = 10 * 60_000;

/**
 * Starts a job with `start` and waits for it: its results, one per record sent, by position (a
 * result's own `index` when it has one). A job Zendesk failed or killed as a whole is an error.
 */
export async function runJob(api: ZendeskApi, what: string, start: ClientCall): Promise<JobResult[]> {
  let job = jobStatusSchema.parse(await api.send(what, start)).job_status;
  const deadline = Date.now() + JOB_DEADLINE_MS;
  for (let wait = FIRST_POLL_MS; job.status === 'queued' || job.status === 'working';) {
    if (Date.now() > deadline) {
      throw new CrmError({
        destination: DESTINATION,
        code: 'JOB_TIMEOUT',
        message: `${what}: job ${job.id} still ${job.status} after ${JOB_DEADLINE_MS / 60_000} minutes`,
        retryable: true,
      });
    }
    await sleep(wait);
    wait = Math.min(MAX_POLL_MS, wait * 2);
    const id = job.id;
    job = jobStatusSchema.parse(
      await api.send(`${what}: job status`, (c) => c.users.transporter.request('GET', ['job_statuses', id])),
    ).job_status;
  }
  if (job.status !== 'completed') {
    throw new CrmError({
      destination: DESTINATION,
      code: `JOB_${job.status.toUpperCase()}`,
      message: `${what}: job ${job.id} ${job.status}`,
      retryable: true,
    });
  }
  const results = job.results ?? [];
  const byIndex: JobResult[] = [];
  results.forEach((r, i) => (byIndex[r.index ?? i] = r));
  return byIndex;
}

/** Whether a job's result says the record was refused. */
export function failed(r: JobResult | undefined): boolean {
  return r === undefined || r.status === 'Failed' || (r.error ?? null) !== null;
}
