// HubSpot destination through the official client (@hubspot/api-client): call engagements with the
// contact association, callback tasks, contact search by phone and creation. callsync's idempotency
// key is stored in the custom property `callsync_key` on calls and tasks (prepare() creates
// it at worker start); findCallLog/findTask search on it. HubSpot's search index trails writes by a few seconds, so
// the mapping table, not the search, is what prevents duplicates; the search recovers lost mappings.
import { Client } from '@hubspot/api-client';
import { FilterOperatorEnum } from '@hubspot/api-client/lib/codegen/crm/objects/calls';
import { AssociationSpecAssociationCategoryEnum } from '@hubspot/api-client/lib/codegen/crm/objects/calls';
import {
  PropertyCreateFieldTypeEnum,
  PropertyCreateTypeEnum,
} from '@hubspot/api-client/lib/codegen/crm/properties';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { TimeSource } from '../../lib/rate-limiter';
import type { CallbackTask, CallLog, CallLogUpdate, CrmConnector, CrmContact } from '../crm/crm-connector';
import { CrmError } from '../crm/errors';
import { RateGate } from '../crm/rate-gate';
import type { HubSpotConfig } from './config';
import { DESTINATION, hubspotRateLimit, isConflict, toCrmError } from './errors';
import {
  CALL_TO_CONTACT,
  CONTACT_PROPERTIES,
  KEY_PROPERTY,
  TASK_TO_CONTACT,
  callProperties,
  contactAssociations,
  newContactProperties,
  phoneFilterGroups,
  taskProperties,
  toCrmContact,
} from './properties';

/** Most inputs HubSpot accepts in one batch request. */
export const BATCH_LIMIT = 100;

type Filters = ReturnType<typeof phoneFilterGroups>;

/** Options besides the config (tests inject a clock). */
export interface HubSpotConnectorOptions {
  time?: TimeSource;
  /** Longest Retry-After waited inside the connector (default 15 s). */
  maxRetryAfterMs?: number;
}

export class HubSpotConnector implements CrmConnector {
  readonly name = DESTINATION;
  private readonly client: Client;
  private readonly gate: RateGate;
  private readonly searchGate: RateGate;
  private readonly owners = new Map<string, string | null>();

  constructor(
    private readonly config: HubSpotConfig,
    opts: HubSpotConnectorOptions = {},
  ) {
    // No numberOfApiCallRetries / limiterOptions: the client's own retry ignores Retry-After and its
    // limiter is process-wide; the RateGate below does both per connector.
    this.client = new Client({
      accessToken: config.accessToken,
      basePath: config.basePath.replace(/\/$/, ''),
    });
    const perSecond = config.requestsPer10Seconds / 10;
    // A bucket of burst B and rate r lets through at most B + 10r requests in any 10 s window.
    const burst = Math.max(1, Math.floor(perSecond));
    const gateOpts = {
      destination: DESTINATION,
      ...(opts.time ? { time: opts.time } : {}),
      ...(opts.maxRetryAfterMs !== undefined ? { maxRetryAfterMs: opts.maxRetryAfterMs } : {}),
    };
    this.gate = new RateGate({
      ...gateOpts,
      requestsPerSecond: (config.requestsPer10Seconds - burst) / 10,
      burst,
    });
    const search = config.searchRequestsPerSecond;
    this.searchGate = new RateGate({ ...gateOpts, requestsPerSecond: Math.max(1, search - 1), burst: 1 });
  }

  /** Rate-limited answers seen so far. */
  get throttled(): number {
    return this.gate.throttled;
  }

  private async call<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await this.gate.run(send, (err) => hubspotRateLimit(err));
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
   * property group) on calls and tasks. Reads first, so a portal where an admin created it needs no
   * schema write scope; creates what is missing. Idempotent (a 409 from a concurrent start is fine).
   * Throws a non-retryable CrmError naming the missing scope when the token may not read or create it.
   */
  async prepare(): Promise<void> {
    for (const objectType of ['calls', 'tasks'] as const) {
      if (await this.hasProperty(objectType, KEY_PROPERTY)) continue;
      try {
        await this.createKeyProperty(objectType);
      } catch (err) {
        throw setupError(err, `create the property ${KEY_PROPERTY} on ${objectType}`);
      }
    }
  }

  private async hasProperty(objectType: 'calls' | 'tasks', name: string): Promise<boolean> {
    try {
      await this.call(() => this.client.crm.properties.coreApi.getByName(objectType, name));
      return true;
    } catch (err) {
      if (err instanceof CrmError && err.status === 404) return false;
      throw setupError(err, `read the property ${name} on ${objectType}`);
    }
  }

  private async createKeyProperty(objectType: 'calls' | 'tasks'): Promise<void> {
    try {
      await this.call(() =>
        this.client.crm.properties.groupsApi.create(objectType, { name: 'callsync', label: 'callsync' }),
      );
    } catch (err) {
      if (!(err instanceof CrmError && err.status === 409)) throw err;
    }
    try {
      await this.call(() =>
        this.client.crm.properties.coreApi.create(objectType, {
          name: KEY_PROPERTY,
          label: 'callsync key',
          description: 'Idempotency key written by callsync; do not edit.',
          type: PropertyCreateTypeEnum.String,
          fieldType: PropertyCreateFieldTypeEnum.Text,
          groupName: 'callsync',
        }),
      );
    } catch (err) {
      if (!(err instanceof CrmError && err.status === 409) && !isConflict(err)) throw err;
    }
  }

  /** The HubSpot owner id of a user e-mail (cached; null when unknown or not readable). */
  async ownerId(email: string | null): Promise<string | null> {
    if (!email) return null;
    const key = email.toLowerCase();
    if (this.owners.has(key)) return this.owners.get(key) ?? null;
    let id: string | null = null;
    try {
      const page = await this.call(() => this.client.crm.owners.ownersApi.getPage(key, undefined, 1, false));
      id = page.results[0]?.id ?? null;
    } catch (err) {
      // Without the owners scope the call is still logged, just without an owner.
      if (!(err instanceof CrmError && (err.status === 403 || err.status === 404))) throw err;
    }
    this.owners.set(key, id);
    return id;
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

  private async findByKey(objectType: 'calls' | 'tasks', key: string): Promise<string | null> {
    const request = {
      filterGroups: [
        { filters: [{ propertyName: KEY_PROPERTY, operator: FilterOperatorEnum.Eq, value: key }] },
      ],
      properties: [KEY_PROPERTY],
      limit: 10,
    };
    const res = await this.search(() =>
      objectType === 'calls'
        ? this.client.crm.objects.calls.searchApi.doSearch(request)
        : this.client.crm.objects.tasks.searchApi.doSearch(request),
    );
    // Should a duplicate ever exist, the oldest (smallest id) is the one callsync keeps.
    const ids = res.results.map((r) => r.id).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    return ids[0] ?? null;
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
    const properties = callProperties(log, await this.ownerId(log.userEmail));
    await this.call(() => this.client.crm.objects.calls.basicApi.update(crmId, { properties }));
  }

  /** Updates several call logs with HubSpot's batch/update (100 per request). */
  async updateCallLogs(updates: readonly CallLogUpdate[]): Promise<void> {
    for (let i = 0; i < updates.length; i += BATCH_LIMIT) {
      const inputs: { id: string; properties: Record<string, string> }[] = [];
      for (const u of updates.slice(i, i + BATCH_LIMIT)) {
        inputs.push({ id: u.crmId, properties: callProperties(u.log, await this.ownerId(u.log.userEmail)) });
      }
      const res = await this.call(() => this.client.crm.objects.calls.batchApi.update({ inputs }));
      const errors = 'errors' in res ? (res.errors ?? []) : [];
      if (errors.length > 0) {
        throw new CrmError({
          destination: DESTINATION,
          status: 207,
          code: errors[0]?.category,
          message: `batch update failed for ${errors.length} call(s): ${errors[0]?.message ?? ''}`,
          retryable: false,
        });
      }
    }
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
}

// The generated client types enums as TypeScript enums; the pure mappers use their string values.
function toClientFilters(groups: Filters) {
  return groups.map((g) => ({
    filters: g.filters.map((f) => ({ ...f, operator: f.operator as FilterOperatorEnum })),
  }));
}

/** A setup step that failed, as a CrmError that says what callsync tried and which permission to grant. */
function setupError(err: unknown, what: string): CrmError {
  const e = toCrmError(err);
  if (e.status !== 401 && e.status !== 403) return e;
  return new CrmError({
    destination: DESTINATION,
    status: e.status,
    code: e.code,
    message:
      `cannot ${what}: ${e.message.replace(/^hubspot: /, '')}. Grant the private app the missing ` +
      `scopes, or create the property by hand (internal name ${KEY_PROPERTY}, single-line text)`,
    retryable: false,
  });
}

function toClientAssociations(list: ReturnType<typeof contactAssociations>) {
  return list.map((a) => ({
    to: a.to,
    types: a.types.map((t) => ({
      associationTypeId: t.associationTypeId,
      associationCategory: t.associationCategory as AssociationSpecAssociationCategoryEnum,
    })),
  }));
}
