// Pipedrive destination through the official client (`pipedrive`): persons found by phone (Search
// API) or created for unknown callers; call logs and callback tasks as activities of type `call`;
// SMS and voicemail as notes on the person (records.ts says what goes where).
//
// Call logs and update in place: Pipedrive's Call Logs API can add, read, list and delete a call log
// but has no update (https://developers.pipedrive.com/docs/api/v1/CallLogs). So the object callsync
// keeps for a call, and updates in place, is an activity of type `call` (done), whose id is the call
// log's CRM id; its note carries the summary, transcript, recording link and the key. Once the
// activity exists, the call's facts (outcome, numbers, start, end, duration) are written once as a
// Call Logs API record attached to it (`activity_id`). A create whose activity answer was lost is
// found again by its key (findCallLog) and updated; it then has no Call Logs API record (a second
// one could not be told apart from the first without listing every call log of the user), and the
// activity alone holds the call. Erasure deletes the activity and every call log attached to it.
// Pipedrive's activities have no page of their own (list and person views only;
// https://pipedrive.readme.io/docs/app-extensions-actions lists no detail view for activities): a call
// log's page is the page of the person it is logged on, whose timeline shows it.
import type {
  CallbackTask,
  CallLog,
  ContactBookOptions,
  CrmConnector,
  CrmContact,
  MessageLog,
} from '../crm/crm-connector';
import { CrmError } from '../crm/errors';
import { PipedriveContactBook } from './contact-book';
import { pipedriveDestinationId } from './identity';
import { createPerson, findPersonsByPhone } from './persons';
import { PipedriveClient, type AccessTokenSource, type PipedriveClientOptions } from './client';
import type { PipedriveConfig } from './config';
import { DESTINATION, statusOf } from './errors';
import {
  activityAnswerSchema,
  activitySchema,
  callLogSchema,
  noteSchema,
  oneSchema,
  pageOf,
  parseAnswer,
  userSchema,
  v1PageOf,
  v1Pages,
  v2Pages,
} from './responses';
import { callActivity, callLogRecord, keyOf, messageNote, taskActivity } from './records';

/** Largest page Pipedrive's v2 lists and search give (limit ≤ 500). */
const V2_PAGE = 500;
/** Largest page of the v1 call log list (limit ≤ 50). */
const CALL_LOG_PAGE = 50;
/** Call log pages kept (a dashboard reader's recent calls). */
const PAGE_CACHE = 1000;
/** Largest page of the v1 note list. */
const NOTE_PAGE = 500;

export interface PipedriveConnectorOptions extends PipedriveClientOptions {
  /** OAuth access tokens (access-token.ts); absent with an API token. */
  token?: AccessTokenSource;
}

export class PipedriveConnector implements CrmConnector {
  readonly name = DESTINATION;
  readonly destinationId: string;
  private readonly client: PipedriveClient;
  private readonly owners = new Map<string, number | null>();
  /** Call log pages found, by activity id (the oldest forgotten first beyond PAGE_CACHE). */
  private readonly callLogPages = new Map<string, string>();

  constructor(
    private readonly config: PipedriveConfig,
    opts: PipedriveConnectorOptions = {},
  ) {
    this.destinationId = pipedriveDestinationId(config);
    this.client = new PipedriveClient(config, opts.token ?? null, this.destinationId, opts);
  }

  /** 429s seen (and waited out or thrown), for tests and benches. */
  get throttled(): number {
    return this.client.throttled;
  }

  /**
   * Checks the credentials once at worker start (GET /users/me, which every token may call): a
   * refused API token or OAuth install stops the start with the config field to fix.
   */
  async prepare(): Promise<void> {
    try {
      await this.client.call('check credentials', (a) => a.users.getCurrentUser());
    } catch (err) {
      if (!(err instanceof CrmError) || (err.status !== 401 && err.status !== 403)) throw err;
      const field = this.config.oauth ? 'oauth' : 'apiToken';
      throw new CrmError({
        destination: DESTINATION,
        status: err.status,
        code: err.code,
        message: `crm.destination.${field} was refused by Pipedrive (${err.status}): give a valid ${field === 'oauth' ? 'install (refresh token)' : 'personal API token'} of company ${this.config.companyDomain}`,
        retryable: false,
      });
    }
  }

  async ownerId(email: string | null): Promise<string | null> {
    const id = await this.ownerNumber(email);
    return id === null ? null : String(id);
  }

  private async ownerNumber(email: string | null): Promise<number | null> {
    if (!email) return null;
    const wanted = email.toLowerCase();
    if (this.owners.has(wanted)) return this.owners.get(wanted)!;
    const body = await this.client.call('find user', (a) =>
      a.users.findUsersByName({ term: wanted, search_by_email: 1 }),
    );
    const users = parseAnswer(v1PageOf(userSchema), body, 'find user').data ?? [];
    const user = users.find((u) => u.email?.toLowerCase() === wanted && u.active_flag !== false);
    const id = user?.id ?? null;
    this.owners.set(wanted, id);
    return id;
  }

  findContactsByPhone(e164: string): Promise<CrmContact[]> {
    return findPersonsByPhone(this.client, e164);
  }

  createContact(input: { phone: string; name: string | null }): Promise<CrmContact> {
    return createPerson(this.client, input);
  }

  /** The contact sync's view of this company's persons, through this connector's client and gates. */
  contactBook({ country }: Pick<ContactBookOptions, 'country'>): PipedriveContactBook {
    return new PipedriveContactBook(this.client, country);
  }

  contactPageUrl(contact: CrmContact): Promise<string> {
    return Promise.resolve(`${this.webUrl()}/person/${encodeURIComponent(contact.crmId)}`);
  }

  /** Pipedrive's person list, where "+ Person" adds one (it takes no number to fill in). */
  newContactPageUrl(): Promise<string> {
    return Promise.resolve(`${this.webUrl()}/persons/list`);
  }

  /**
   * The person's page whose timeline holds the call (read once per call log from its activity, then
   * kept); the company's activity list when the call is on nobody (it was logged before the caller
   * was matched) or its activity is gone.
   */
  async callLogPageUrl(crmId: string): Promise<string> {
    let page = this.callLogPages.get(crmId);
    if (page === undefined) {
      const answer = await this.client
        .call('read call activity', (a) => a.activities.getActivity({ id: Number(crmId) }))
        .catch((err: unknown) => {
          if (statusOf(err) === 404) return null;
          throw err;
        });
      const personId =
        answer && parseAnswer(activityAnswerSchema, answer, 'read call activity').data.person_id;
      page = personId ? `${this.webUrl()}/person/${personId}` : `${this.webUrl()}/activities/list`;
      if (this.callLogPages.size >= PAGE_CACHE)
        this.callLogPages.delete(this.callLogPages.keys().next().value!);
      this.callLogPages.set(crmId, page);
    }
    return page;
  }

  private webUrl(): string {
    return `https://${this.config.companyDomain}.pipedrive.com`;
  }

  // Call logs: an activity of type call, plus its Call Logs API record (see the file's comment).

  async findCallLog(key: string): Promise<string | null> {
    const since = new Date(Date.now() - this.config.recoveryLookbackDays * 86_400_000);
    return this.findActivity(key, { updated_since: since.toISOString().replace(/\.\d{3}Z$/, 'Z') });
  }

  async createCallLog(log: CallLog): Promise<string> {
    const owner = await this.ownerNumber(log.userEmail);
    const body = await this.client.call('create call activity', (a) =>
      a.activities.addActivity({ AddActivityRequest: callActivity(log, owner) }),
    );
    const activityId = parseAnswer(oneSchema, body, 'create call activity').data.id;
    await this.client.call('create call log', (a) =>
      a.callLogs.addCallLog({ AddCallLogRequest: callLogRecord(log, activityId, owner) }),
    );
    return String(activityId);
  }

  async updateCallLog(crmId: string, log: CallLog): Promise<void> {
    const owner = await this.ownerNumber(log.userEmail);
    await this.client.call('update call activity', (a) =>
      a.activities.updateActivity({ id: Number(crmId), AddActivityRequest: callActivity(log, owner) }),
    );
  }

  async deleteCallLog(crmId: string): Promise<void> {
    const activityId = Number(crmId);
    // The Call Logs API lists a user's call logs only: the ones of this activity are picked out.
    const pages = v1Pages(async (start) =>
      parseAnswer(
        v1PageOf(callLogSchema),
        await this.client.call('list call logs', (x) =>
          x.callLogs.getUserCallLogs({ start, limit: CALL_LOG_PAGE }),
        ),
        'list call logs',
      ),
    );
    for await (const logs of pages)
      for (const c of logs)
        if (c.activity_id === activityId)
          await this.gone('delete call log', (x) => x.callLogs.deleteCallLog({ id: c.id }));
    await this.gone('delete call activity', (a) => a.activities.deleteActivity({ id: activityId }));
  }

  // Callback tasks: open (or done) activities of type call.

  findTask(key: string, task?: CallbackTask): Promise<string | null> {
    if (task?.contact) return this.findActivity(key, { person_id: Number(task.contact.crmId) });
    const since = new Date(Date.now() - this.config.recoveryLookbackDays * 86_400_000);
    return this.findActivity(key, { updated_since: since.toISOString().replace(/\.\d{3}Z$/, 'Z') });
  }

  async createTask(task: CallbackTask): Promise<string> {
    const owner = await this.ownerNumber(task.assigneeEmail);
    const body = await this.client.call('create callback activity', (a) =>
      a.activities.addActivity({ AddActivityRequest: taskActivity(task, owner) }),
    );
    return String(parseAnswer(oneSchema, body, 'create callback activity').data.id);
  }

  async updateTask(crmId: string, task: CallbackTask): Promise<void> {
    const owner = await this.ownerNumber(task.assigneeEmail);
    await this.client.call('update callback activity', (a) =>
      a.activities.updateActivity({ id: Number(crmId), AddActivityRequest: taskActivity(task, owner) }),
    );
  }

  async deleteTask(crmId: string): Promise<void> {
    await this.gone('delete callback activity', (a) => a.activities.deleteActivity({ id: Number(crmId) }));
  }

  /** The activity whose note carries `key`, among those the filter lists (newest first). */
  private async findActivity(
    key: string,
    filter: { updated_since: string } | { person_id: number },
  ): Promise<string | null> {
    const pages = v2Pages(async (cursor) =>
      parseAnswer(
        pageOf(activitySchema),
        await this.client.call('list activities', (x) =>
          x.activities.getActivities({
            ...filter,
            sort_by: 'update_time',
            sort_direction: 'desc',
            limit: V2_PAGE,
            ...(cursor ? { cursor } : {}),
          }),
        ),
        'list activities',
      ),
    );
    for await (const activities of pages) {
      const found = activities.filter((x) => x.type === 'call' && keyOf(x.note) === key);
      // The oldest, should a duplicate exist.
      if (found.length > 0) return String(Math.min(...found.map((x) => x.id)));
    }
    return null;
  }

  // SMS and voicemail: notes on the person.

  async findMessageLog(key: string, log: MessageLog): Promise<string | null> {
    const pages = v1Pages(async (start) =>
      parseAnswer(
        v1PageOf(noteSchema),
        await this.client.call('list notes', (x) =>
          x.notes.getNotes({ person_id: Number(log.contact.crmId), start, limit: NOTE_PAGE, sort: 'id ASC' }),
        ),
        'list notes',
      ),
    );
    for await (const notes of pages) {
      const found = notes.find((n) => keyOf(n.content) === key);
      if (found) return String(found.id);
    }
    return null;
  }

  async createMessageLog(log: MessageLog): Promise<string> {
    const body = await this.client.call('create note', (a) =>
      a.notes.addNote({
        AddNoteRequest: { content: messageNote(log), person_id: Number(log.contact.crmId) },
      }),
    );
    return String(parseAnswer(oneSchema, body, 'create note').data.id);
  }

  async updateMessageLog(crmId: string, log: MessageLog): Promise<void> {
    await this.client.call('update note', (a) =>
      a.notes.updateNote({ id: Number(crmId), NoteRequest: { content: messageNote(log) } }),
    );
  }

  async deleteMessageLog(crmId: string): Promise<void> {
    await this.gone('delete note', (a) => a.notes.deleteNote({ id: Number(crmId) }));
  }

  async deleteContact(crmId: string): Promise<void> {
    await this.gone('delete person', (a) => a.persons.deletePerson({ id: Number(crmId) }));
  }

  /** A delete where "already gone" (404, 410) counts as done. */
  private async gone(what: string, send: Parameters<PipedriveClient['call']>[1]): Promise<void> {
    try {
      await this.client.call(what, send);
    } catch (err) {
      const status = statusOf(err);
      if (status !== 404 && status !== 410) throw err;
    }
  }
}
