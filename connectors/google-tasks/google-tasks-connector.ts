// Callback tasks in Google Tasks (tasks v1, through @googleapis/tasks); call logs and contacts stay in
// the warehouse through the built-in destination, since Google Tasks has nowhere to keep them. Each
// task lives in its assignee's list (one list per assignee, or the assignee's own Tasks by domain-wide
// delegation) and carries callsync's key in its notes; the mapping table is what prevents duplicates,
// the key lets a retry recover a task whose mapping was not recorded.
import type { tasks_v1 } from '@googleapis/tasks';
import type { AuthClient } from 'google-auth-library';
import type { Kysely } from 'kysely';
import { BuiltinCrmConnector } from '../builtin-crm';
import type { CallbackTask, CallLog, CrmConnector, CrmContact } from '../crm/crm-connector';
import { CrmError } from '../crm/errors';
import { actsForPerson, googleAuthClient } from '../google/credentials';
import { lazyPackage } from '../../lib/lazy-package';

const tasksPackage = lazyPackage<typeof import('@googleapis/tasks')>('@googleapis/tasks');
import { claimTasklist } from '../postgres/repositories/google-tasklists';
import type { Database } from '../postgres/tables';
import type { GoogleTasksConfig } from './config';
import { DESTINATION, toCrmError } from './errors';
import {
  decodeTaskRef,
  encodeTaskRef,
  listTitleFor,
  notesCarryKey,
  toGoogleTask,
  type TaskRef,
} from './task-mapping';

/** OAuth scope of Google Tasks (read and write). */
export const TASKS_SCOPE = 'https://www.googleapis.com/auth/tasks';

/** Builds the auth client for one owner (an e-mail to impersonate, or '' for the credentials' own). */
export type TasksAuthFactory = (owner: string) => Promise<AuthClient>;

export class GoogleTasksConnector implements CrmConnector {
  readonly name = DESTINATION;
  private readonly builtin: BuiltinCrmConnector;
  private readonly clients = new Map<string, Promise<tasks_v1.Tasks>>();
  private readonly lists = new Map<string, string>();
  private readonly auth: TasksAuthFactory;

  constructor(
    private readonly config: GoogleTasksConfig,
    private readonly db: Kysely<Database>,
    account: string,
    auth?: TasksAuthFactory,
  ) {
    this.builtin = new BuiltinCrmConnector(db, account);
    this.auth =
      auth ??
      ((owner) =>
        googleAuthClient(owner === '' ? config.credentials : { ...config.credentials, subject: owner }, [
          TASKS_SCOPE,
        ]));
  }

  /**
   * Checks at worker start that the credentials reach Google Tasks (names the refusal otherwise), and
   * that the tasks go where a person sees them: a service account's own Tasks are seen by no one
   * (Google Tasks lists cannot be shared), so a service account without `credentials.subject` is
   * refused rather than left to fill lists nobody reads.
   */
  async prepare(): Promise<void> {
    const api = await this.client(this.defaultOwner());
    await this.call(() => api.tasklists.list({ maxResults: 1 }));
    if (this.defaultOwner() !== '' || actsForPerson(this.config.credentials, await this.auth(''))) return;
    const delegate = this.config.perUser === 'delegate';
    throw new CrmError({
      destination: DESTINATION,
      status: 400,
      code: 'NO_VISIBLE_TASKS',
      retryable: false,
      message:
        `crm.destination.credentials.subject is not set, so the ${delegate ? 'unassigned ' : ''}callback ` +
        "tasks would go to the service account's own Google Tasks, which no person can see (task lists " +
        'cannot be shared); set credentials.subject to the Workspace mailbox whose Tasks should hold ' +
        'them (domain-wide delegation)' +
        (delegate ? '' : `, and perUser "delegate" to put each task in its assignee's own Tasks`),
    });
  }

  findContactsByPhone(e164: string): Promise<CrmContact[]> {
    return this.builtin.findContactsByPhone(e164);
  }
  createContact(input: { phone: string; name: string | null }): Promise<CrmContact> {
    return this.builtin.createContact(input);
  }
  findCallLog(key: string): Promise<string | null> {
    return this.builtin.findCallLog(key);
  }
  createCallLog(log: CallLog): Promise<string> {
    return this.builtin.createCallLog(log);
  }
  updateCallLog(crmId: string, log: CallLog): Promise<void> {
    return this.builtin.updateCallLog(crmId, log);
  }

  /** Scans the assignee's list (completed and hidden tasks too) for the task carrying `key`. */
  async findTask(key: string, task?: CallbackTask): Promise<string | null> {
    if (!task) return null;
    const { owner, tasklist } = await this.place(task);
    const api = await this.client(owner);
    let pageToken: string | undefined;
    do {
      const page = await this.call(() =>
        api.tasks.list({
          tasklist,
          maxResults: 100,
          showCompleted: true,
          showHidden: true,
          ...(pageToken ? { pageToken } : {}),
        }),
      );
      const found = (page.data.items ?? []).find((t) => !t.deleted && notesCarryKey(t.notes, key));
      if (found?.id) return encodeTaskRef({ owner, tasklist, task: found.id });
      pageToken = page.data.nextPageToken ?? undefined;
    } while (pageToken);
    return null;
  }

  async createTask(task: CallbackTask): Promise<string> {
    const { owner, tasklist } = await this.place(task);
    const api = await this.client(owner);
    const res = await this.call(() => api.tasks.insert({ tasklist, requestBody: toGoogleTask(task) }));
    if (!res.data.id) throw this.error(502, 'tasks.insert answered without an id');
    return encodeTaskRef({ owner, tasklist, task: res.data.id });
  }

  async updateTask(crmId: string, task: CallbackTask): Promise<void> {
    const ref = this.ref(crmId);
    const api = await this.client(ref.owner);
    await this.call(() =>
      api.tasks.patch({ tasklist: ref.tasklist, task: ref.task, requestBody: toGoogleTask(task) }),
    );
  }

  /** Erasure: the call log lives in the built-in tables. */
  deleteCallLog(crmId: string): Promise<void> {
    return this.builtin.deleteCallLog(crmId);
  }

  /** Erasure: deletes the task from its owner's list; one already gone counts as deleted. */
  async deleteTask(crmId: string): Promise<void> {
    const ref = this.ref(crmId);
    const api = await this.client(ref.owner);
    try {
      await this.call(() => api.tasks.delete({ tasklist: ref.tasklist, task: ref.task }));
    } catch (err) {
      if (err instanceof CrmError && err.status === 404) return;
      throw err;
    }
  }

  /** The Tasks client acting as `owner` (one per owner: delegation signs as that user). */
  private client(owner: string): Promise<tasks_v1.Tasks> {
    let c = this.clients.get(owner);
    if (!c) {
      c = this.auth(owner).then((auth) =>
        tasksPackage().tasks({
          version: 'v1',
          // The package bundles its own google-auth-library; both speak the same AuthClient protocol.
          auth: auth as unknown as NonNullable<tasks_v1.Options['auth']>,
          rootUrl: `${this.config.rootUrl.replace(/\/$/, '')}/`,
          retryConfig: { retry: 2, noResponseRetries: 2, retryDelay: 200 },
        }),
      );
      c.catch(() => this.clients.delete(owner));
      this.clients.set(owner, c);
    }
    return c;
  }

  private defaultOwner(): string {
    return this.config.credentials.subject?.toLowerCase() ?? '';
  }

  /** Whose Tasks and which list a task goes to (configured, or found/created once and recorded). */
  private async place(task: CallbackTask): Promise<Omit<TaskRef, 'task'>> {
    const email = task.assigneeEmail?.trim().toLowerCase() || null;
    const delegate = this.config.perUser === 'delegate' && email !== null;
    const owner = delegate ? email : this.defaultOwner();
    const configured =
      (task.assigneeUserId ? this.config.tasklists[String(task.assigneeUserId)] : undefined) ??
      (email ? this.config.tasklists[email] : undefined);
    if (configured) return { owner, tasklist: configured };
    const title = delegate ? this.config.listTitle : listTitleFor(this.config.listTitle, email);
    const cacheKey = `${owner}\n${title}`;
    let tasklist = this.lists.get(cacheKey);
    if (!tasklist) {
      tasklist = await claimTasklist(this.db, owner, title, () => this.findOrCreateList(owner, title));
      this.lists.set(cacheKey, tasklist);
    }
    return { owner, tasklist };
  }

  private async findOrCreateList(owner: string, title: string): Promise<string> {
    const api = await this.client(owner);
    let pageToken: string | undefined;
    do {
      const page = await this.call(() =>
        api.tasklists.list({ maxResults: 100, ...(pageToken ? { pageToken } : {}) }),
      );
      const found = (page.data.items ?? []).find((l) => l.title === title);
      if (found?.id) return found.id;
      pageToken = page.data.nextPageToken ?? undefined;
    } while (pageToken);
    const created = await this.call(() => api.tasklists.insert({ requestBody: { title } }));
    if (!created.data.id) throw this.error(502, 'tasklists.insert answered without an id');
    return created.data.id;
  }

  private ref(crmId: string): TaskRef {
    const ref = decodeTaskRef(crmId);
    if (!ref) throw this.error(404, `not a Google Tasks task reference: ${crmId}`);
    return ref;
  }

  private error(status: number, message: string): CrmError {
    return new CrmError({ destination: DESTINATION, status, message, retryable: status >= 500 });
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      throw toCrmError(err);
    }
  }
}
