// Microsoft Dynamics 365 (Dataverse) destination through dynamics-web-api: contacts found by their
// phone columns and created for unknown callers, call logs, SMS and voicemail as phone call
// activities and callbacks as task activities (activity-records.ts), each keyed by callsync's key in
// its subcategory column and found again by it (Dataverse reads are consistent right after a write).
// A record is created Open (statecode is not valid for create) and closed by an update; completed and
// canceled activities are read-only (phonecall and task references: statecode), so an update opens
// the activity again, then writes its columns and its state in one request.
import type { DynamicsWebApi } from 'dynamics-web-api';
import type { TimeSource } from '../../lib/rate-limiter';
import type {
  CallbackTask,
  CallLog,
  ContactBookOptions,
  CrmConnector,
  CrmContact,
  MessageLog,
} from '../crm/crm-connector';
import { CrmError } from '../crm/errors';
import type { TokenSourceFactory } from '../crm/rate-gate';
import {
  callLogColumns,
  CATEGORY,
  messageColumns,
  newContactColumns,
  PHONECALL_OPEN,
  phonecallDone,
  TASK_OPEN,
  TASK_STATE,
  taskColumns,
  withParties,
  type ActivityKind,
  type Parties,
} from './activity-records';
import { DynamicsContactBook } from './contact-book';
import { dynamicsDestinationId, environmentUrl, type DynamicsConfig } from './config';
import { DESTINATION, isNotFound } from './errors';
import { holdsNumber, odataString, PHONE_COLUMNS, phoneFilter, phoneQuery } from './phone-filter';
import { CONTACT_COLUMNS, recordPageUrl, toContact, type ContactRow } from './records';
import { WebApi } from './web-api';

export interface DynamicsConnectorOptions {
  time?: TimeSource;
  /** Limiters shared by every worker (PostgreSQL); default: this process's own. */
  limiters?: TokenSourceFactory;
}

/** "The object cannot be updated because it is read-only": a completed or canceled activity. */
const READ_ONLY_CODE = '0x8004022e';
/** Times an update opens an activity that a concurrent update closed again. */
const MAX_REOPENS = 5;

/** Contacts one number's lookup reads at most (one page). */
const CONTACTS_PER_NUMBER = 100;

export class DynamicsConnector implements CrmConnector {
  readonly name = DESTINATION;
  readonly destinationId: string;
  readonly api: WebApi;
  private readonly owners = new Map<string, Promise<string | null>>();
  private readonly url: string;

  constructor(
    private readonly config: DynamicsConfig,
    opts: DynamicsConnectorOptions = {},
  ) {
    this.api = new WebApi(config, opts);
    this.destinationId = dynamicsDestinationId(config);
    this.url = environmentUrl(config);
  }

  private call<T>(send: (client: DynamicsWebApi) => Promise<T>): Promise<T> {
    return this.api.call(send);
  }

  /**
   * Checks that the application user exists in the environment and can sign in (WhoAmI); a
   * non-retryable CrmError says what to set up when it cannot.
   */
  async prepare(): Promise<void> {
    try {
      await this.call((c) => c.callFunction({ name: 'WhoAmI' }));
    } catch (err) {
      if (err instanceof CrmError && (err.status === 401 || err.status === 403))
        throw new CrmError({
          destination: DESTINATION,
          status: err.status,
          code: err.code,
          message:
            `${err.message}: add the app registration ${this.config.clientId} as an application user of ` +
            `${this.url} with a security role that can read and write contacts, phone calls and tasks ` +
            '(docs/crm.md "Microsoft Dynamics 365")',
          retryable: false,
        });
      throw err;
    }
  }

  /** The contact sync's view of this environment's contacts, through this connector's request core. */
  contactBook({ country }: Pick<ContactBookOptions, 'country'>): DynamicsContactBook {
    return new DynamicsContactBook(this.api, country);
  }

  /** The enabled Dataverse user (systemuser) with this primary e-mail, cached; null when none. */
  ownerId(email: string | null): Promise<string | null> {
    if (!email) return Promise.resolve(null);
    const key = email.toLowerCase();
    let pending = this.owners.get(key);
    if (!pending) {
      pending = this.call((c) =>
        c.retrieveMultiple<{ systemuserid: string }>({
          collection: 'systemusers',
          select: ['systemuserid'],
          filter: `internalemailaddress eq ${odataString(email)} and isdisabled eq false`,
          top: 1,
        }),
      ).then((r) => r.value[0]?.systemuserid ?? null);
      // A failure is not remembered: the next call asks again.
      pending.catch(() => this.owners.delete(key));
      this.owners.set(key, pending);
    }
    return pending;
  }

  async findContactsByPhone(e164: string): Promise<CrmContact[]> {
    const q = phoneQuery(e164);
    const res = await this.call((c) =>
      c.retrieveMultiple<ContactRow>({
        collection: 'contacts',
        select: [...CONTACT_COLUMNS, ...PHONE_COLUMNS],
        filter: `statecode eq 0 and (${phoneFilter(q)})`,
        maxPageSize: CONTACTS_PER_NUMBER,
      }),
    );
    return res.value
      .filter((row) =>
        holdsNumber(
          PHONE_COLUMNS.map((col) => row[col]),
          q,
        ),
      )
      .map((row) => toContact(row));
  }

  async createContact(input: { phone: string; name: string | null }): Promise<CrmContact> {
    const row = await this.call((c) =>
      c.create<Record<string, unknown>, ContactRow>({
        collection: 'contacts',
        data: newContactColumns(input),
        returnRepresentation: true,
        select: [...CONTACT_COLUMNS],
      }),
    );
    return toContact(row);
  }

  contactPageUrl(contact: CrmContact): Promise<string> {
    return Promise.resolve(this.recordPage('contact', { id: contact.crmId }));
  }

  /** The new contact form with Business Phone filled in (extraqs, the form's parameters). */
  newContactPageUrl(e164: string): Promise<string> {
    return Promise.resolve(this.recordPage('contact', { extraqs: `telephone1=${e164}` }));
  }

  callLogPageUrl(crmId: string): string {
    return this.recordPage('phonecall', { id: crmId });
  }

  private recordPage(etn: string, params: Record<string, string>): string {
    return recordPageUrl(this.url, this.config.appId, etn, params);
  }

  findCallLog(key: string): Promise<string | null> {
    return this.findByKey('phonecalls', 'call', key);
  }

  async createCallLog(log: CallLog): Promise<string> {
    const p = await this.parties(log.contact, log.userEmail);
    const columns = withParties(callLogColumns(log, p), log.direction, p);
    return this.create('phonecalls', columns, phonecallDone(log.direction));
  }

  async updateCallLog(crmId: string, log: CallLog): Promise<void> {
    const p = await this.parties(log.contact, log.userEmail);
    const columns = { ...callLogColumns(log, p), ...phonecallDone(log.direction) };
    await this.reopenAndUpdate('phonecalls', crmId, PHONECALL_OPEN, columns);
  }

  findMessageLog(key: string, log: MessageLog): Promise<string | null> {
    return this.findByKey('phonecalls', log.channel, key);
  }

  async createMessageLog(log: MessageLog): Promise<string> {
    const p = await this.parties(log.contact, log.userEmail);
    const columns = withParties(messageColumns(log, p), log.direction, p);
    return this.create('phonecalls', columns, phonecallDone(log.direction));
  }

  async updateMessageLog(crmId: string, log: MessageLog): Promise<void> {
    const p = await this.parties(log.contact, log.userEmail);
    const columns = { ...messageColumns(log, p), ...phonecallDone(log.direction) };
    await this.reopenAndUpdate('phonecalls', crmId, PHONECALL_OPEN, columns);
  }

  findTask(key: string): Promise<string | null> {
    return this.findByKey('tasks', 'callback', key);
  }

  async createTask(task: CallbackTask): Promise<string> {
    const columns = taskColumns(task, await this.parties(task.contact, task.assigneeEmail));
    return this.create('tasks', columns, task.status === 'open' ? null : TASK_STATE[task.status]);
  }

  async updateTask(crmId: string, task: CallbackTask): Promise<void> {
    const p = await this.parties(task.contact, task.assigneeEmail);
    const columns = { ...taskColumns(task, p), ...TASK_STATE[task.status] };
    await this.reopenAndUpdate('tasks', crmId, TASK_OPEN, columns);
  }

  deleteCallLog(crmId: string): Promise<void> {
    return this.delete('phonecalls', crmId);
  }

  deleteTask(crmId: string): Promise<void> {
    return this.delete('tasks', crmId);
  }

  deleteMessageLog(crmId: string): Promise<void> {
    return this.delete('phonecalls', crmId);
  }

  deleteContact(crmId: string): Promise<void> {
    return this.delete('contacts', crmId);
  }

  private async parties(contact: CrmContact | null, email: string | null): Promise<Parties> {
    return { contactId: contact?.crmId ?? null, ownerId: await this.ownerId(email) };
  }

  /** The oldest activity of this kind carrying `key` (should a duplicate exist, the first one). */
  private async findByKey(collection: string, kind: ActivityKind, key: string): Promise<string | null> {
    const res = await this.call((c) =>
      c.retrieveMultiple<{ activityid: string }>({
        collection,
        select: ['activityid'],
        filter: `subcategory eq ${odataString(key)} and category eq ${odataString(CATEGORY[kind])}`,
        orderBy: ['createdon asc'],
        top: 1,
      }),
    );
    return res.value[0]?.activityid ?? null;
  }

  /**
   * Creates a record (Open: statecode cannot be set on create), then closes it in `state` when given.
   * A failure in between leaves it open with its key; the retry finds it and updates it.
   */
  private async create(
    collection: string,
    data: Record<string, unknown>,
    state: Record<string, number> | null,
  ): Promise<string> {
    const id = await this.call((c) => c.create<Record<string, unknown>, unknown>({ collection, data }));
    if (typeof id !== 'string')
      throw new CrmError({
        destination: DESTINATION,
        message: `created ${collection} record without an OData-EntityId header`,
        retryable: false,
      });
    if (state) await this.call((c) => c.update({ collection, key: id, data: state }));
    return id;
  }

  /**
   * Opens the activity (a closed one refuses other changes), then writes its columns and state. An
   * update of the same record running at once may close it in between: then both steps again.
   */
  private async reopenAndUpdate(
    collection: string,
    key: string,
    open: Record<string, number>,
    data: Record<string, unknown>,
  ): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      // If-Match: * (the client's default for update): a deleted record is a 404, never re-created.
      await this.call((c) => c.update({ collection, key, data: open }));
      try {
        await this.call((c) => c.update({ collection, key, data }));
        return;
      } catch (err) {
        if (!(err instanceof CrmError && err.code === READ_ONLY_CODE) || attempt >= MAX_REOPENS) throw err;
      }
    }
  }

  /** Deletes a record; one already gone counts as deleted. */
  private async delete(collection: string, key: string): Promise<void> {
    try {
      await this.call((c) => c.deleteRecord({ collection, key }));
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
