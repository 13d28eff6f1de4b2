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
import type { CallbackTask, CallLog, CrmConnector, CrmContact, MessageLog } from '../crm/crm-connector';
import { PipedriveClient, type AccessTokenSource, type PipedriveClientOptions } from './client';
import type { PipedriveConfig } from './config';
import { DESTINATION, statusOf } from './errors';
import {
  activitySchema,
  callLogSchema,
  isoOf,
  noteSchema,
  oneSchema,
  pageOf,
  parseAnswer,
  personSchema,
  searchPageSchema,
  userSchema,
  v1PageOf,
} from './responses';
import { callActivity, callLogRecord, keyOf, messageNote, phoneQuery, taskActivity } from './records';

/** Largest page Pipedrive's v2 lists and search give (limit ≤ 500). */
const V2_PAGE = 500;
/** Most ids one persons list takes (`ids`: up to 100). */
const IDS_PER_LIST = 100;
/** Largest page of the v1 call log list (limit ≤ 50). */
const CALL_LOG_PAGE = 50;
/** Largest page of the v1 note list. */
const NOTE_PAGE = 500;

export interface PipedriveConnectorOptions extends PipedriveClientOptions {
  /** OAuth access tokens (access-token.ts); absent with an API token. */
  token?: AccessTokenSource;
}

/** The destination id of a Pipedrive company: `pipedrive:<company domain>`. */
export function pipedriveDestinationId(config: Pick<PipedriveConfig, 'companyDomain'>): string {
  return `${DESTINATION}:${config.companyDomain.toLowerCase()}`;
}

export class PipedriveConnector implements CrmConnector {
  readonly name = DESTINATION;
  readonly destinationId: string;
  private readonly client: PipedriveClient;
  private readonly owners = new Map<string, number | null>();

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

  async findContactsByPhone(e164: string): Promise<CrmContact[]> {
    const q = phoneQuery(e164);
    const hits: { id: number; name: string | null; ownerId: number | null }[] = [];
    let cursor: string | undefined;
    do {
      const body = await this.client.call(
        'search persons',
        (a) =>
          a.persons.searchPersons({
            term: q.term,
            fields: 'phone',
            limit: V2_PAGE,
            ...(cursor ? { cursor } : {}),
          }),
        true,
      );
      const page = parseAnswer(searchPageSchema, body, 'search persons');
      for (const { item } of page.data?.items ?? [])
        if ((item.phones ?? []).some(q.holds))
          hits.push({ id: item.id, name: item.name ?? null, ownerId: item.owner?.id ?? null });
      cursor = page.additional_data?.next_cursor ?? undefined;
    } while (cursor);
    if (hits.length === 0) return [];
    // Search hits carry no update time; the persons list does (for "most recently updated").
    const updated = new Map<number, string | null>();
    if (hits.length > 1) {
      for (let i = 0; i < hits.length; i += IDS_PER_LIST) {
        const ids = hits.slice(i, i + IDS_PER_LIST).map((h) => h.id);
        const body = await this.client.call('get persons', (a) =>
          a.persons.getPersons({ ids: ids.join(','), limit: V2_PAGE }),
        );
        for (const p of parseAnswer(pageOf(personSchema), body, 'get persons').data ?? [])
          updated.set(p.id, isoOf(p.update_time));
      }
    }
    return hits.map((h) => ({
      crmId: String(h.id),
      kind: 'contact' as const,
      name: h.name,
      ownerId: h.ownerId === null ? null : String(h.ownerId),
      updatedAt: updated.get(h.id) ?? null,
    }));
  }

  async createContact(input: { phone: string; name: string | null }): Promise<CrmContact> {
    // Pipedrive requires a person's name: an unknown caller is named by their number.
    const name = input.name ?? input.phone;
    const body = await this.client.call('create person', (a) =>
      a.persons.addPerson({
        AddPersonRequest: { name, phones: [{ value: input.phone, primary: true, label: 'work' }] },
      }),
    );
    const p = parseAnswer(oneSchema, body, 'create person').data;
    return { crmId: String(p.id), kind: 'contact', name, ownerId: null, updatedAt: null };
  }

  contactPageUrl(contact: CrmContact): Promise<string> {
    return Promise.resolve(`${this.webUrl()}/person/${encodeURIComponent(contact.crmId)}`);
  }

  /** Pipedrive's person list, where "+ Person" adds one (it takes no number to fill in). */
  newContactPageUrl(): Promise<string> {
    return Promise.resolve(`${this.webUrl()}/persons/list`);
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
    for (let start = 0; ;) {
      const body = await this.client.call('list call logs', (a) =>
        a.callLogs.getUserCallLogs({ start, limit: CALL_LOG_PAGE }),
      );
      const page = parseAnswer(v1PageOf(callLogSchema), body, 'list call logs');
      for (const c of page.data ?? [])
        if (c.activity_id === activityId)
          await this.gone('delete call log', (a) => a.callLogs.deleteCallLog({ id: c.id }));
      const next = page.additional_data?.pagination;
      if (!next?.more_items_in_collection || next.next_start == null) break;
      start = next.next_start;
    }
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
    let cursor: string | undefined;
    do {
      const body = await this.client.call('list activities', (a) =>
        a.activities.getActivities({
          ...filter,
          sort_by: 'update_time',
          sort_direction: 'desc',
          limit: V2_PAGE,
          ...(cursor ? { cursor } : {}),
        }),
      );
      const page = parseAnswer(pageOf(activitySchema), body, 'list activities');
      const found = (page.data ?? []).filter((x) => x.type === 'call' && keyOf(x.note) === key);
      // The oldest, should a duplicate exist.
      if (found.length > 0) return String(Math.min(...found.map((x) => x.id)));
      cursor = page.additional_data?.next_cursor ?? undefined;
    } while (cursor);
    return null;
  }

  // SMS and voicemail: notes on the person.

  async findMessageLog(key: string, log: MessageLog): Promise<string | null> {
    for (let start = 0; ;) {
      const body = await this.client.call('list notes', (a) =>
        a.notes.getNotes({ person_id: Number(log.contact.crmId), start, limit: NOTE_PAGE, sort: 'id ASC' }),
      );
      const page = parseAnswer(v1PageOf(noteSchema), body, 'list notes');
      const found = (page.data ?? []).find((n) => keyOf(n.content) === key);
      if (found) return String(found.id);
      const next = page.additional_data?.pagination;
      if (!next?.more_items_in_collection || next.next_start == null) return null;
      start = next.next_start;
    }
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
