// Bulk user writes in the fake Zendesk: POST /api/v2/users/create_many and PUT
// /api/v2/users/update_many take up to 100 users and answer a queued job; the job is done after a
// short delay, and GET /api/v2/job_statuses/{id} answers it with one result per user, in the order
// sent: `Created` or `Updated` with the user's id, or `Failed` with an error
// (https://developer.zendesk.com/api-reference/ticketing/users/users/#create-many-users,
// https://developer.zendesk.com/api-reference/ticketing/users/users/#update-many-users,
// https://developer.zendesk.com/api-reference/ticketing/ticket-management/job_statuses/).
import { randomBytes } from 'node:crypto';
import { badRequest, notFound, ZendeskFakeError, type FakeUser } from './zendesk-state';

type Json = Record<string, unknown>;

/** "Accepts an array of up to 100 user objects" (both pages above). */
export const BULK_MAX = 100;

interface JobResult {
  index: number;
  id?: number;
  status: 'Created' | 'Updated' | 'Failed';
  error?: string;
  details?: string;
  external_id?: string | null;
}

interface Job {
  id: string;
  status: 'queued' | 'completed';
  total: number;
  results: JobResult[] | null;
}

/** What one user of a job did: the user written, or Zendesk's error answer for it. */
export type Write = () => FakeUser;

function errorOf(err: unknown): { error: string; details: string } {
  if (!(err instanceof ZendeskFakeError)) throw err;
  const body = err.body as { error?: unknown; description?: unknown; details?: unknown };
  const fields = typeof body.details === 'object' && body.details !== null ? Object.values(body.details) : [];
  const first = (fields[0] as { description?: string }[] | undefined)?.[0]?.description;
  return {
    error: typeof body.error === 'string' ? body.error : 'Failed',
    details: first ?? (typeof body.description === 'string' ? body.description : ''),
  };
}

export class FakeJobs {
  private readonly jobs = new Map<string, Job>();

  constructor(
    /** How long a job stays queued. */
    private readonly delayMs: number,
    /** Called once per user a job wrote. */
    private readonly onWrite: () => void,
  ) {}

  /** The users of a bulk body (`{ users: [...] }`), 1 to 100 of them. */
  static users(body: unknown): Json[] {
    const users = (body as { users?: unknown } | null)?.users;
    if (!Array.isArray(users) || users.length === 0)
      throw badRequest('InvalidEndpoint', 'Parameter users is required');
    if (users.length > BULK_MAX)
      throw badRequest('TooManyRecords', `Too many records: at most ${BULK_MAX} users a request`);
    return users as Json[];
  }

  /** Queues a job of `writes`, done after the delay; answers its job_status. */
  queue(kind: 'Created' | 'Updated', writes: Write[]): Json {
    const job: Job = {
      id: randomBytes(16).toString('hex'),
      status: 'queued',
      total: writes.length,
      results: null,
    };
    this.jobs.set(job.id, job);
    setTimeout(() => {
      job.results = writes.map((write, index) => {
        try {
          const u = write();
          this.onWrite();
          return { index, id: u.id, status: kind, external_id: u.external_id };
        } catch (err) {
          return { index, status: 'Failed', ...errorOf(err) };
        }
      });
      job.status = 'completed';
    }, this.delayMs).unref();
    return this.json(job);
  }

  show(id: string): Json {
    const job = this.jobs.get(id);
    if (!job) throw notFound();
    return this.json(job);
  }

  private json(job: Job): Json {
    return {
      job_status: {
        id: job.id,
        url: `/api/v2/job_statuses/${job.id}.json`,
        status: job.status,
        total: job.total,
        progress: job.status === 'completed' ? job.total : 0,
        message: job.status === 'completed' ? 'Completed' : null,
        results: job.results,
      },
    };
  }
}
