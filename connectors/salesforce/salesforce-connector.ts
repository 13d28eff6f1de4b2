// Salesforce destination through jsforce: call logs as Task records of subtype Call (CallType,
// CallDurationInSeconds, CallDisposition, WhoId), callback tasks as Tasks, Contact and Lead lookup by
// phone with SOSL, SMS and voice messages as completed Tasks (messages.ts). callsync's idempotency
// key is in each Task's CallObject field; findCallLog, findTask and findMessageLog query on it (SOQL
// reads are consistent right after a write, unlike HubSpot's search).
import type { Connection } from 'jsforce';
import { lazyPackage } from '../../lib/lazy-package';
import type { TimeSource } from '../../lib/rate-limiter';
import type {
  CallbackTask,
  CallLog,
  CallLogUpdate,
  ContactBookOptions,
  CrmConnector,
  CrmContact,
  MessageLog,
} from '../crm/crm-connector';
import { CrmError } from '../crm/errors';
import { RateGate, type TokenSourceFactory } from '../crm/rate-gate';
import { SalesforceContactBook } from './contact-book';
import { SalesforceBatch } from './salesforce-batch';
import { SalesforcePeople } from './people';
import { SalesforceOutcomes } from './outcomes';
import { messageTaskFields } from './messages';
import type { SalesforceConfig } from './config';
import {
  DESTINATION,
  errorCode,
  saveError,
  salesforceRateLimit,
  toCrmError,
  type SaveResultLike,
} from './errors';
import { sessionSource, type SessionSource, type TokenStoreFactory } from './sessions';
import { salesforceDestinationId } from './identity';
import { TaskSetup } from './task-setup';
import type { TaskValues } from './task-values';
import {
  callbackTaskFields,
  callLogTaskFields,
  CONVERTED_LEAD,
  convertedLeadsQuery,
  isLeadId,
  taskByKeyQuery,
  userByEmailQuery,
  type TaskFields,
} from './fields';

/** Session renewals one request may go through (each after a 401 INVALID_SESSION_ID). */
const MAX_SESSION_RENEWALS = 2;

/** Most records in one sObject Collections request. */
export const COLLECTION_LIMIT = 200;

export interface SalesforceConnectorOptions {
  time?: TimeSource;
  /** Token buckets shared by every worker (PostgreSQL); default: this process's own. */
  limiters?: TokenSourceFactory;
  /** Where `auth: refresh-token` keeps the current refresh token (PostgreSQL, shared by every worker). */
  tokenStore?: TokenStoreFactory;
  /** Called when renewing the session fails (a metric). */
  onTokenRefreshFailed?: () => void;
}

const jsforce = lazyPackage<typeof import('jsforce')>('jsforce');

export class SalesforceConnector implements CrmConnector {
  readonly name = DESTINATION;
  /** The org's instance: its limits and its record ids are the org's own. */
  readonly destinationId: string;
  /** The jsforce connection (exposed for diagnostics and tests). */
  readonly connection: Connection;
  private readonly gate: RateGate;
  private readonly owners = new Map<string, Promise<string | null>>();
  readonly batch: SalesforceBatch;
  private readonly people: SalesforcePeople;
  private outcomeSource: SalesforceOutcomes | undefined;
  private readonly session: SessionSource;
  private readonly taskSetup: TaskSetup;

  constructor(
    private readonly config: SalesforceConfig,
    opts: SalesforceConnectorOptions = {},
  ) {
    this.session = sessionSource(config, {
      tokenStore: opts.tokenStore,
      onRefreshFailed: opts.onTokenRefreshFailed,
    });
    // No oauth2 or refresh token for jsforce: its own renewal retries a 401 without end and keeps a
    // rotated refresh token to itself; call() renews through `session` and retries once.
    this.connection = new (jsforce().Connection)({
      instanceUrl: config.instanceUrl.replace(/\/$/, ''),
      version: config.apiVersion,
    });
    const burst = Math.max(1, Math.ceil(config.requestsPerSecond));
    const scope = config.instanceUrl.replace(/\/$/, '');
    this.destinationId = salesforceDestinationId(config);
    this.gate = new RateGate({
      destination: DESTINATION,
      requestsPerSecond: config.requestsPerSecond,
      burst,
      ...(opts.time ? { time: opts.time } : {}),
      ...(opts.limiters
        ? { limiter: opts.limiters.bucket(`${scope} requests`, config.requestsPerSecond, burst) }
        : {}),
    });
    this.taskSetup = new TaskSetup({ connection: this.connection, call: (send) => this.call(send) });
    this.people = new SalesforcePeople({
      connection: this.connection,
      call: (send) => this.call(send),
      instanceUrl: config.instanceUrl,
    });
    this.batch = new SalesforceBatch({
      connection: this.connection,
      call: (send) => this.call(send),
      ownerId: (email) => this.ownerId(email),
      taskPriority: config.taskPriority,
      taskValues: () => this.taskValues(),
      convertedContacts: (ids) => this.convertedContacts(ids),
    });
  }

  /** The outcomes agents set on callsync's call logs, through this connector's rate gate. */
  outcomes(): SalesforceOutcomes {
    this.outcomeSource ??= new SalesforceOutcomes({
      connection: this.connection,
      call: (send) => this.call(send),
    });
    return this.outcomeSource;
  }

  /** The contact sync's view of this org's Contacts and Leads, through this connector's rate gate. */
  contactBook({ country, createAs = 'contact' }: ContactBookOptions): SalesforceContactBook {
    return new SalesforceContactBook(
      { connection: this.connection, call: (send) => this.call(send) },
      country,
      createAs === 'lead' ? 'Lead' : 'Contact',
    );
  }

  private async call<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await this.gate.run(() => this.withSession(send), salesforceRateLimit);
    } catch (err) {
      throw toCrmError(err);
    }
  }

  /**
   * Sends with the current session; after 401 INVALID_SESSION_ID, renews it and sends again. Twice at
   * most: a session another worker renewed can itself reach its end just as it is used.
   */
  private async withSession<T>(send: () => Promise<T>): Promise<T> {
    let token = await this.session.current();
    for (let renewals = 0; ; renewals++) {
      this.connection.accessToken = token;
      try {
        return await send();
      } catch (err) {
        if (errorCode(err) !== 'INVALID_SESSION_ID') throw err;
        if (!this.session.invalidate(token)) {
          throw new CrmError({
            destination: DESTINATION,
            status: 401,
            code: 'INVALID_SESSION_ID',
            message:
              'Salesforce session expired or invalid, and an accessToken alone cannot be renewed: ' +
              'give crm auth (jwt or refresh-token) instead',
            retryable: false,
          });
        }
        if (renewals >= MAX_SESSION_RENEWALS) throw err;
        // Refused before Salesforce did anything, so sending again cannot write twice.
        token = await this.session.current();
      }
    }
  }

  /**
   * Checks that this user may write every Task field callsync sets (task-setup.ts): a non-retryable
   * CrmError names the fields to grant Edit access to.
   */
  prepare(): Promise<void> {
    return this.taskSetup.checkAccess();
  }

  /** The org's Task Status and Priority values to write, read once per connector (task-setup.ts). */
  taskValues(): Promise<TaskValues> {
    return this.taskSetup.values();
  }

  /** The Salesforce user id of an e-mail (cached; null when there is no active user). */
  ownerId(email: string | null): Promise<string | null> {
    if (!email) return Promise.resolve(null);
    const key = email.toLowerCase();
    // The promise is cached, so a burst of calls by one user asks Salesforce once.
    let pending = this.owners.get(key);
    if (!pending) {
      pending = this.call(
        async () => await this.connection.query<{ Id: string }>(userByEmailQuery(key)),
      ).then((res) => res.records[0]?.Id ?? null);
      this.owners.set(key, pending);
      pending.catch(() => this.owners.delete(key));
    }
    return pending;
  }

  findContactsByPhone(e164: string): Promise<CrmContact[]> {
    return this.people.findByPhone(e164);
  }

  createContact(input: { phone: string; name: string | null }): Promise<CrmContact> {
    return this.people.createContact(input);
  }

  callLogPageUrl(crmId: string): string {
    return this.people.taskPageUrl(crmId);
  }

  contactPageUrl(contact: CrmContact): Promise<string> {
    return Promise.resolve(this.people.pageUrl(contact));
  }

  newContactPageUrl(e164: string): Promise<string> {
    return Promise.resolve(this.people.newContactUrl(e164));
  }

  private async create(type: string, fields: TaskFields): Promise<string> {
    return this.onConvertedLead(fields, async (f) => {
      const res = (await this.call(() => this.connection.sobject(type).create(f))) as SaveResultLike;
      if (!res.success || !res.id) throw saveError(res);
      return res.id;
    });
  }

  private async update(type: string, id: string, fields: TaskFields): Promise<void> {
    await this.onConvertedLead(fields, async (f) => {
      const res = (await this.call(() =>
        this.connection.sobject(type).update({ Id: id, ...f }),
      )) as SaveResultLike;
      if (!res.success) throw saveError(res);
    });
  }

  /**
   * Writes a Task; where its WhoId is a Lead converted since callsync matched it (Salesforce refuses
   * it: CANNOT_UPDATE_CONVERTED_LEAD), writes it again on the Contact the Lead became.
   */
  private async onConvertedLead<T>(fields: TaskFields, write: (f: TaskFields) => Promise<T>): Promise<T> {
    try {
      return await write(fields);
    } catch (err) {
      const who = fields.WhoId;
      if (!(err instanceof CrmError) || err.code !== CONVERTED_LEAD || !isLeadId(who)) throw err;
      const contactId = (await this.convertedContacts([who])).get(who);
      if (!contactId) throw err;
      return await write({ ...fields, WhoId: contactId });
    }
  }

  /** The Contact each converted Lead became (Leads not converted are left out). */
  async convertedContacts(leadIds: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (leadIds.length === 0) return out;
    const res = await this.call(
      async () =>
        await this.connection.query<{ Id: string; ConvertedContactId: string | null }>(
          convertedLeadsQuery(leadIds),
        ),
    );
    for (const r of res.records) if (r.ConvertedContactId) out.set(r.Id, r.ConvertedContactId);
    return out;
  }

  /** Deletes a Task; one already gone (NOT_FOUND, ENTITY_IS_DELETED) counts as deleted. */
  private async destroy(id: string, type: 'Task' | 'Contact' = 'Task'): Promise<void> {
    try {
      const res = (await this.call(() => this.connection.sobject(type).destroy(id))) as SaveResultLike;
      if (!res.success) throw saveError(res);
    } catch (err) {
      if (err instanceof CrmError && err.status === 404) return;
      throw err;
    }
  }

  /** Erasure: deletes a call log (a Task of subtype Call) callsync created. */
  deleteCallLog(crmId: string): Promise<void> {
    return this.destroy(crmId);
  }

  /** Erasure: deletes an SMS or voice message log (a Task) callsync created. */
  deleteMessageLog(crmId: string): Promise<void> {
    return this.destroy(crmId);
  }

  /** Erasure: deletes a Contact callsync created for an unknown caller. */
  deleteContact(crmId: string): Promise<void> {
    return this.destroy(crmId, 'Contact');
  }

  /** Erasure: deletes a callback Task callsync created. */
  deleteTask(crmId: string): Promise<void> {
    return this.destroy(crmId);
  }

  private async findByKey(key: string, subtype: 'Call' | 'Task'): Promise<string | null> {
    const res = await this.call(
      async () => await this.connection.query<{ Id: string }>(taskByKeyQuery(key, subtype)),
    );
    return res.records[0]?.Id ?? null;
  }

  findCallLog(key: string): Promise<string | null> {
    return this.findByKey(key, 'Call');
  }

  async createCallLog(log: CallLog): Promise<string> {
    const ownerId = await this.ownerId(log.userEmail);
    return this.create('Task', callLogTaskFields(log, 'create', { ownerId }, await this.taskValues()));
  }

  async updateCallLog(crmId: string, log: CallLog): Promise<void> {
    const ownerId = await this.ownerId(log.userEmail);
    await this.update('Task', crmId, callLogTaskFields(log, 'update', { ownerId }, await this.taskValues()));
  }

  /** Updates several call logs with sObject Collections (PATCH /composite/sobjects, 200 per request). */
  async updateCallLogs(updates: readonly CallLogUpdate[]): Promise<void> {
    const values = await this.taskValues();
    for (let i = 0; i < updates.length; i += COLLECTION_LIMIT) {
      const records: ({ Id: string } & TaskFields)[] = [];
      for (const u of updates.slice(i, i + COLLECTION_LIMIT)) {
        const ownerId = await this.ownerId(u.log.userEmail);
        records.push({ Id: u.crmId, ...callLogTaskFields(u.log, 'update', { ownerId }, values) });
      }
      const results = await this.batch.sendTasks('update', records);
      const failed = results.filter((r) => !r?.success);
      if (failed.length > 0) throw saveError(failed[0] ?? { success: false, errors: [] }, failed.length);
    }
  }

  findTask(key: string): Promise<string | null> {
    return this.findByKey(key, 'Task');
  }

  /** An SMS or voice message: a Task of subtype Task, found by its key in CallObject. */
  findMessageLog(key: string): Promise<string | null> {
    return this.findByKey(key, 'Task');
  }

  async createMessageLog(log: MessageLog): Promise<string> {
    const ownerId = await this.ownerId(log.userEmail);
    return this.create('Task', messageTaskFields(log, 'create', ownerId, await this.taskValues()));
  }

  async updateMessageLog(crmId: string, log: MessageLog): Promise<void> {
    const ownerId = await this.ownerId(log.userEmail);
    await this.update('Task', crmId, messageTaskFields(log, 'update', ownerId, await this.taskValues()));
  }

  async createTask(task: CallbackTask): Promise<string> {
    const ownerId = await this.ownerId(task.assigneeEmail);
    const values = await this.taskValues();
    return this.create(
      'Task',
      callbackTaskFields(task, 'create', { ownerId }, this.config.taskPriority, values),
    );
  }

  async updateTask(crmId: string, task: CallbackTask): Promise<void> {
    const ownerId = await this.ownerId(task.assigneeEmail);
    await this.update(
      'Task',
      crmId,
      callbackTaskFields(task, 'update', { ownerId }, this.config.taskPriority, await this.taskValues()),
    );
  }
}
