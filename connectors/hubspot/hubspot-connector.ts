// HubSpot destination through the official client (@hubspot/api-client): call engagements with the
// contact association, callback tasks, contact search by phone and creation. callsync's idempotency
// key is stored in the custom property `callsync_key` on calls and tasks (prepare() creates it at
// worker start, a plain text property: HubSpot has no unique values on engagements); findCallLog and
// findTask search on it. HubSpot's search index trails writes by a few seconds, so the mapping table
// is what prevents duplicates; the search recovers lost mappings, searching again once the lag has
// passed before it reports a key missing (key-search.ts).
import type { Client } from '@hubspot/api-client';
import { lazyPackage } from '../../lib/lazy-package';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { realTime, type TimeSource } from '../../lib/rate-limiter';
import { hubspotDestinationId } from './identity';
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
import type { RateGate } from '../crm/rate-gate';
import { BATCH_LIMIT, HubSpotBatch } from './hubspot-batch';
import type { HubSpotConfig } from './config';
import { HubSpotContactBook } from './contact-book';
import { HubSpotOutcomes } from './outcomes';
import { findByKeys, type KeySearchContext } from './key-search';
import {
  createProperty,
  ensureKeyProperty,
  hasProperty,
  setupError,
  type SchemaContext,
} from './schema-setup';
import {
  COMMUNICATION_TO_CONTACT,
  NOTE_TO_CONTACT,
  messageObjectType,
  messageProperties,
  type MessageObjectType,
} from './messages';
import { DESTINATION, hubspotRateLimit, isDailyLimit, toCrmError } from './errors';
import { checkDailyLimit, dailyLimitSpent } from './daily-limit';
import { hubspotGates, type GateOptions } from './gates';
import { HubSpotErasure } from './erasure';
import { toClientAssociations, toClientFilters } from './client-shapes';
import { BearerScope, type BearerTokens } from './bearer';
import {
  CALL_TO_CONTACT,
  CONTACT_PROPERTIES,
  TASK_TO_CONTACT,
  callProperties,
  contactAssociations,
  newContactProperties,
  phoneFilterGroups,
  taskProperties,
  toCrmContact,
} from './properties';

export { BATCH_LIMIT };

/** HubSpot's web app, where screen-pop links point. */
const HUBSPOT_APP = 'https://app.hubspot.com';

/** Object types that carry callsync_key. */
type KeyedObjectType = 'calls' | 'tasks' | MessageObjectType;

/** Options besides the config (gates.ts: a clock for tests, the longest Retry-After, shared limiters). */
export interface HubSpotConnectorOptions extends GateOptions {
  /** An OAuth install's access tokens (required with `oauth`: runtime/crm.ts gives a renewing token). */
  tokens?: BearerTokens;
  /** The account an OAuth install belongs to (part of the destination's identity). */
  account?: string;
}

const hubspotPackage = lazyPackage<typeof import('@hubspot/api-client')>('@hubspot/api-client');

export class HubSpotConnector implements CrmConnector {
  readonly name = DESTINATION;
  readonly destinationId: string;
  private readonly client: Client;
  /** Per-request bearer tokens of an OAuth install; undefined for a private app's fixed token. */
  private readonly bearer: BearerScope | undefined;
  private readonly gate: RateGate;
  private readonly searchGate: RateGate;
  /** What HubSpot counts per portal (search, the daily limit) is counted in this scope. */
  private readonly portalScope: string;
  private readonly time: TimeSource;
  private readonly owners = new Map<string, Promise<string | null>>();
  readonly batch: HubSpotBatch;
  private readonly keySearch: KeySearchContext;
  /** How long HubSpot's search takes to see a write (config searchLagSeconds). */
  readonly searchLagMs: number;
  private readonly schema: SchemaContext;
  private readonly erasure: HubSpotErasure;
  private portal: Promise<string> | undefined;
  private outcomeSource: HubSpotOutcomes | undefined;
  /** Object types prepare() found usable for messages (both until it has run). */
  private readonly messageTypes = new Set<MessageObjectType>(['communications', 'notes']);

  constructor(
    private readonly config: HubSpotConfig,
    opts: HubSpotConnectorOptions = {},
  ) {
    // No numberOfApiCallRetries / limiterOptions: the client's own retry ignores Retry-After and its
    // limiter is process-wide; the RateGate below does both per connector.
    const basePath = config.basePath.replace(/\/$/, '');
    if (config.oauth) {
      if (!opts.tokens)
        throw new Error(
          'crm.destination.oauth: the HubSpot connector needs the token store (runtime/crm.ts)',
        );
      this.bearer = new BearerScope(opts.tokens);
      this.client = new (hubspotPackage().Client)({ basePath, middleware: [this.bearer.middleware] });
      this.bearer.wrapApiRequest(this.client);
    } else {
      this.client = new (hubspotPackage().Client)({
        ...(config.accessToken !== undefined ? { accessToken: config.accessToken } : {}),
        basePath,
      });
    }
    this.destinationId = hubspotDestinationId(config, opts.account);
    const gates = hubspotGates(config, opts, this.destinationId);
    this.gate = gates.gate;
    this.searchGate = gates.searchGate;
    this.portalScope = gates.portal;
    this.time = opts.time ?? realTime;
    this.schema = { client: this.client, call: (send) => this.call(send) };
    this.erasure = new HubSpotErasure({ ...this.schema, messageTypes: this.messageTypes });
    this.searchLagMs = config.searchLagSeconds * 1000;
    this.keySearch = {
      client: this.client,
      search: (send) => this.search(send),
      sleep: (ms) => (opts.time ?? realTime).sleep(ms),
      lagMs: config.searchLagSeconds * 1000,
    };
    this.batch = new HubSpotBatch({
      client: this.client,
      call: (send) => this.call(send),
      keySearch: this.keySearch,
      search: (send) => this.search(send),
      ownerId: (email) => this.ownerId(email),
      taskPriority: config.taskPriority,
    });
  }

  /** Rate-limited answers seen so far. */
  get throttled(): number {
    return this.gate.throttled;
  }

  private async call<T>(send: () => Promise<T>): Promise<T> {
    // The portal's daily limit spent: nothing is sent until it may have reset (daily-limit.ts).
    checkDailyLimit(this.portalScope, this.time.now());
    const rateLimited = (err: unknown) => {
      const signal = hubspotRateLimit(err, this.time.now());
      if (signal && isDailyLimit(err))
        return { ...signal, retryAfterMs: dailyLimitSpent(this.portalScope, this.time.now()) };
      return signal;
    };
    try {
      const bearer = this.bearer;
      return await this.gate.run(bearer ? () => bearer.run(send) : send, rateLimited);
    } catch (err) {
      throw toCrmError(err);
    }
  }

  private search<T>(send: () => Promise<T>): Promise<T> {
    return this.searchGate.run(
      () => this.call(send),
      () => null,
    );
  }

  /**
   * Makes sure the portal has what callsync writes: the `callsync_key` property (in a `callsync`
   * property group) on calls and tasks, a plain text property (schema-setup.ts). Reads first, so a
   * portal where an admin created it needs no schema write scope; creates what is missing.
   * Idempotent (a 409 from a concurrent start is fine). Throws a non-retryable CrmError naming the
   * missing scope when the token may not read or create it.
   */
  async prepare(): Promise<void> {
    for (const objectType of ['calls', 'tasks'] as const) await ensureKeyProperty(this.schema, objectType);
    // Messages are optional: a portal without communications gets SMS as notes, and one where
    // callsync may not write notes either logs no messages (each attempt then says why).
    for (const objectType of ['communications', 'notes'] as const) {
      try {
        await ensureKeyProperty(this.schema, objectType);
        this.messageTypes.add(objectType);
      } catch (err) {
        if (!(err instanceof CrmError && (err.status === 403 || err.status === 404))) throw err;
        this.messageTypes.delete(objectType);
      }
    }
  }

  /** The contact sync's view of this portal's contacts, through this connector's rate gates. */
  contactBook({ country }: Pick<ContactBookOptions, 'country'>): HubSpotContactBook {
    return new HubSpotContactBook(
      {
        client: this.client,
        call: (send) => this.call(send),
        search: (send) => this.search(send),
        searchLagMs: this.keySearch.lagMs,
        ensureProperty: async (objectType, name, label, description) => {
          if (await hasProperty(this.schema, objectType, name)) return;
          try {
            await createProperty(this.schema, objectType, name, label, description);
          } catch (err) {
            throw setupError(err, `create the property ${name} on ${objectType}`);
          }
        },
      },
      country,
    );
  }

  /** The outcomes agents set on callsync's calls, through this connector's rate gates. */
  outcomes(): HubSpotOutcomes {
    this.outcomeSource ??= new HubSpotOutcomes({
      client: this.client,
      call: (send) => this.call(send),
      search: (send) => this.search(send),
      searchLagMs: this.keySearch.lagMs,
    });
    return this.outcomeSource;
  }

  /** The HubSpot owner id of a user e-mail (cached; null when unknown or not readable). */
  ownerId(email: string | null): Promise<string | null> {
    if (!email) return Promise.resolve(null);
    const key = email.toLowerCase();
    // The promise is cached, so a burst of calls by one user asks HubSpot once.
    let pending = this.owners.get(key);
    if (!pending) {
      pending = this.lookupOwner(key);
      this.owners.set(key, pending);
      pending.catch(() => this.owners.delete(key));
    }
    return pending;
  }

  private async lookupOwner(email: string): Promise<string | null> {
    try {
      const page = await this.call(() =>
        this.client.crm.owners.ownersApi.getPage(email, undefined, 1, false),
      );
      return page.results[0]?.id ?? null;
    } catch (err) {
      // Without the owners scope the call is still logged, just without an owner.
      if (!(err instanceof CrmError && (err.status === 403 || err.status === 404))) throw err;
      return null;
    }
  }

  async findContactsByPhone(e164: string): Promise<CrmContact[]> {
    const national = parsePhoneNumberFromString(e164)?.nationalNumber ?? null;
    const res = await this.search(() =>
      this.client.crm.contacts.searchApi.doSearch({
        filterGroups: toClientFilters(phoneFilterGroups(e164, national)),
        properties: CONTACT_PROPERTIES,
        limit: 20,
      }),
    );
    return res.results.map((r) => toCrmContact(r));
  }

  async createContact(input: { phone: string; name: string | null }): Promise<CrmContact> {
    const created = await this.call(() =>
      this.client.crm.contacts.basicApi.create({ properties: newContactProperties(input), associations: [] }),
    );
    return toCrmContact(created);
  }

  /** The portal (hub) id, read once from account-info: HubSpot's record pages are under it. */
  private portalId(): Promise<string> {
    this.portal ??= this.call(async () => {
      const res = await this.client.apiRequest({ method: 'GET', path: '/account-info/v3/details' });
      const body = (await res.json()) as { portalId?: number | string };
      if (body.portalId === undefined) throw new Error('account-info answered no portalId');
      return String(body.portalId);
    }).catch((err: unknown) => {
      this.portal = undefined;
      throw err;
    });
    return this.portal;
  }

  async contactPageUrl(contact: CrmContact): Promise<string> {
    return `${HUBSPOT_APP}/contacts/${await this.portalId()}/record/0-1/${encodeURIComponent(contact.crmId)}`;
  }

  /** The call's record page (calls are object type 0-48). */
  async callLogPageUrl(crmId: string): Promise<string> {
    return `${HUBSPOT_APP}/contacts/${await this.portalId()}/record/0-48/${encodeURIComponent(crmId)}`;
  }

  /** HubSpot has no prefilled create form by URL: the contacts index, whose "Create contact" opens it. */
  async newContactPageUrl(): Promise<string> {
    return `${HUBSPOT_APP}/contacts/${await this.portalId()}/objects/0-1/views/all/list`;
  }

  private async findByKey(objectType: KeyedObjectType, key: string): Promise<string | null> {
    return (await findByKeys(this.keySearch, objectType, [key])).get(key) ?? null;
  }

  findCallLog(key: string): Promise<string | null> {
    return this.findByKey('calls', key);
  }

  async createCallLog(log: CallLog): Promise<string> {
    const properties = callProperties(log, await this.ownerId(log.userEmail));
    const associations = toClientAssociations(contactAssociations(log.contact, CALL_TO_CONTACT));
    const created = await this.call(() =>
      this.client.crm.objects.calls.basicApi.create({ properties, associations }),
    );
    return created.id;
  }

  async updateCallLog(crmId: string, log: CallLog): Promise<void> {
    const properties = callProperties(log, await this.ownerId(log.userEmail), 'update');
    await this.call(() => this.client.crm.objects.calls.basicApi.update(crmId, { properties }));
  }

  /** Updates several call logs with HubSpot's batch/update (100 per request). */
  async updateCallLogs(updates: readonly CallLogUpdate[]): Promise<void> {
    for (let i = 0; i < updates.length; i += BATCH_LIMIT) {
      await this.batch.updateCallLogs(updates.slice(i, i + BATCH_LIMIT));
    }
  }

  private messageType(log: MessageLog): MessageObjectType {
    const type = messageObjectType(log, this.messageTypes.has('communications'));
    if (!this.messageTypes.has(type)) {
      throw new CrmError({
        destination: DESTINATION,
        status: 403,
        code: 'MISSING_SCOPES',
        message: `cannot log ${log.channel} messages: this token may not write ${type} (grant crm.objects.${type}.write)`,
        retryable: false,
      });
    }
    return type;
  }

  findMessageLog(key: string, log: MessageLog): Promise<string | null> {
    return this.findByKey(this.messageType(log), key);
  }

  async createMessageLog(log: MessageLog): Promise<string> {
    const type = this.messageType(log);
    const properties = messageProperties(log, type, await this.ownerId(log.userEmail));
    const associationTypeId = type === 'communications' ? COMMUNICATION_TO_CONTACT : NOTE_TO_CONTACT;
    const associations = toClientAssociations(contactAssociations(log.contact, associationTypeId));
    const created = await this.call(() =>
      this.client.crm.objects.basicApi.create(type, { properties, associations }),
    );
    return created.id;
  }

  async updateMessageLog(crmId: string, log: MessageLog): Promise<void> {
    const type = this.messageType(log);
    const properties = messageProperties(log, type, await this.ownerId(log.userEmail));
    await this.call(() => this.client.crm.objects.basicApi.update(type, crmId, { properties }));
  }

  findTask(key: string): Promise<string | null> {
    return this.findByKey('tasks', key);
  }

  async createTask(task: CallbackTask): Promise<string> {
    const properties = taskProperties(task, await this.ownerId(task.assigneeEmail), this.config.taskPriority);
    const associations = toClientAssociations(contactAssociations(task.contact, TASK_TO_CONTACT));
    const created = await this.call(() =>
      this.client.crm.objects.tasks.basicApi.create({ properties, associations }),
    );
    return created.id;
  }

  async updateTask(crmId: string, task: CallbackTask): Promise<void> {
    const properties = taskProperties(task, await this.ownerId(task.assigneeEmail), this.config.taskPriority);
    await this.call(() => this.client.crm.objects.tasks.basicApi.update(crmId, { properties }));
  }

  /** Erasure: archives (HubSpot's delete) a call callsync created; one already gone counts as deleted. */
  deleteCallLog(crmId: string): Promise<void> {
    return this.erasure.callLog(crmId);
  }

  /** Erasure: archives a contact callsync created for an unknown caller (gone counts as deleted). */
  deleteContact(crmId: string): Promise<void> {
    return this.erasure.contact(crmId);
  }

  /** Erasure: archives a task callsync created; one already gone counts as deleted. */
  deleteTask(crmId: string): Promise<void> {
    return this.erasure.task(crmId);
  }

  /** Erasure: archives an SMS or voice message log callsync created (erasure.ts). */
  deleteMessageLog(crmId: string, channel: MessageLog['channel']): Promise<void> {
    return this.erasure.messageLog(crmId, channel);
  }
}
