// HubSpot's batch endpoints for callsync's call logs and tasks, and searches for many numbers or keys:
// batch/create (100 inputs, with the contact association inline), batch/update, search by
// callsync_key over the search's lag (key-search.ts), and contact search with IN over the phone
// properties, split by body size. Batch create results come back in no promised order, so they are
// matched by key.
import type { Client } from '@hubspot/api-client';
import type { FilterOperatorEnum } from '@hubspot/api-client/lib/codegen/crm/objects/calls';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type {
  BatchOutcome,
  CallbackTask,
  CallLog,
  CallLogUpdate,
  CrmBatchOps,
  CrmContact,
  TaskUpdate,
} from '../crm/crm-connector';
import { CrmError } from '../crm/errors';
import { DESTINATION } from './errors';
import { findByKeys, type KeySearchContext } from './key-search';
import { splitBySearchBody } from './search-body';
import {
  CALL_TO_CONTACT,
  CONTACT_PROPERTIES,
  KEY_PROPERTY,
  TASK_TO_CONTACT,
  callProperties,
  contactAssociations,
  taskProperties,
  toCrmContact,
  type HubSpotObject,
} from './properties';

/** Most inputs (and IN values) HubSpot accepts in one batch or filter. */
export const BATCH_LIMIT = 100;
/** Most results one search page returns. */
const SEARCH_PAGE = 200;

/** What the batch side needs from the connector: its client, its paced senders, owner lookup. */
export interface HubSpotBatchContext {
  client: Client;
  call<T>(send: () => Promise<T>): Promise<T>;
  search<T>(send: () => Promise<T>): Promise<T>;
  /** Finding objects by callsync_key through search, over its lag. */
  keySearch: KeySearchContext;
  ownerId(email: string | null): Promise<string | null>;
  taskPriority: 'LOW' | 'MEDIUM' | 'HIGH';
}

type Kind = 'calls' | 'tasks';
type Association = ReturnType<typeof contactAssociations>[number];

/** The digits HubSpot keeps in hs_searchable_calculated_*_number: the number without country code. */
const nationalOf = (e164: string) => parsePhoneNumberFromString(e164)?.nationalNumber ?? null;

export class HubSpotBatch implements CrmBatchOps {
  readonly maxBatch = BATCH_LIMIT;

  constructor(private readonly ctx: HubSpotBatchContext) {}

  private api(kind: Kind) {
    return kind === 'calls' ? this.ctx.client.crm.objects.calls : this.ctx.client.crm.objects.tasks;
  }

  async findContactsByPhones(numbers: readonly string[]): Promise<Map<string, CrmContact[]>> {
    const found = new Map<string, CrmContact[]>();
    if (numbers.length === 0) return found;
    const inFilter = (propertyName: string, values: string[]) => ({
      filters: [{ propertyName, operator: 'IN' as FilterOperatorEnum, values }],
    });
    const properties = [
      ...CONTACT_PROPERTIES,
      'hs_searchable_calculated_phone_number',
      'hs_searchable_calculated_mobile_number',
    ];
    // As many numbers a search as its body holds (HubSpot takes 3,000 characters; long numbers
    // fill it well before the IN filter's 100 values).
    const searches = splitBySearchBody([...new Set(numbers)], (run) => {
      const nationals = [...new Set(run.map(nationalOf).filter((n): n is string => n !== null))];
      const filterGroups = [inFilter('phone', run), inFilter('mobilephone', run)];
      if (nationals.length > 0) {
        filterGroups.push(inFilter('hs_searchable_calculated_phone_number', nationals));
        filterGroups.push(inFilter('hs_searchable_calculated_mobile_number', nationals));
      }
      return { filterGroups, properties, limit: SEARCH_PAGE };
    });
    const hits: HubSpotObject[] = [];
    for (const { body } of searches) {
      let after: string | undefined;
      do {
        const page = await this.ctx.search(() =>
          this.ctx.client.crm.contacts.searchApi.doSearch({ ...body, ...(after ? { after } : {}) }),
        );
        hits.push(...page.results);
        after = page.paging?.next?.after;
      } while (after);
    }
    for (const number of numbers) {
      const national = nationalOf(number);
      const matches = hits.filter((h) => {
        const p = h.properties;
        return (
          p.phone === number ||
          p.mobilephone === number ||
          (national !== null &&
            (p.hs_searchable_calculated_phone_number === national ||
              p.hs_searchable_calculated_mobile_number === national))
        );
      });
      if (matches.length > 0)
        found.set(
          number,
          matches.map((m) => toCrmContact(m)),
        );
    }
    return found;
  }

  /**
   * callsync's objects by key. callsync_key cannot be a unique-value property on calls and tasks
   * (schema-setup.ts), so there is no batch/read by it: search, and search again for what it did not
   * find once the search lag has passed (key-search.ts).
   */
  private findByKeys(kind: Kind, keys: readonly string[]): Promise<Map<string, string>> {
    return findByKeys(this.ctx.keySearch, kind, keys);
  }

  private async create(
    kind: Kind,
    inputs: { key: string; properties: Record<string, string>; associations: Association[] }[],
  ): Promise<BatchOutcome> {
    const res = await this.ctx.call(() =>
      this.api(kind).batchApi.create({
        inputs: inputs.map((i) => ({
          properties: i.properties,
          associations: i.associations.map((a) => ({
            to: a.to,
            types: a.types.map((t) => ({
              associationTypeId: t.associationTypeId,
              associationCategory: t.associationCategory as never,
            })),
          })),
        })),
      }),
    );
    const out: BatchOutcome = new Map();
    for (const r of res.results) {
      const key = r.properties[KEY_PROPERTY];
      if (key) out.set(key, r.id);
    }
    for (const i of inputs) {
      if (!out.has(i.key)) out.set(i.key, batchError(`no result for ${i.key} in the batch create answer`));
    }
    return out;
  }

  private async update(kind: Kind, inputs: { id: string; properties: Record<string, string> }[]) {
    const res = await this.ctx.call(() => this.api(kind).batchApi.update({ inputs }));
    const errors = 'errors' in res ? (res.errors ?? []) : [];
    if (errors.length > 0) {
      throw batchError(`batch update failed for ${errors.length} ${kind}: ${errors[0]?.message ?? ''}`, 207);
    }
  }

  findCallLogs(keys: readonly string[]): Promise<Map<string, string>> {
    return this.findByKeys('calls', keys);
  }

  async createCallLogs(logs: readonly CallLog[]): Promise<BatchOutcome> {
    const inputs = [];
    for (const log of logs) {
      inputs.push({
        key: log.key,
        properties: callProperties(log, await this.ctx.ownerId(log.userEmail)),
        associations: contactAssociations(log.contact, CALL_TO_CONTACT),
      });
    }
    return this.create('calls', inputs);
  }

  async updateCallLogs(updates: readonly CallLogUpdate[]): Promise<void> {
    const inputs = [];
    for (const u of updates) {
      inputs.push({
        id: u.crmId,
        properties: callProperties(u.log, await this.ctx.ownerId(u.log.userEmail), 'update'),
      });
    }
    await this.update('calls', inputs);
  }

  findTasks(keys: readonly string[]): Promise<Map<string, string>> {
    return this.findByKeys('tasks', keys);
  }

  async createTasks(tasks: readonly CallbackTask[]): Promise<BatchOutcome> {
    const inputs = [];
    for (const task of tasks) {
      const owner = await this.ctx.ownerId(task.assigneeEmail);
      inputs.push({
        key: task.key,
        properties: taskProperties(task, owner, this.ctx.taskPriority),
        associations: contactAssociations(task.contact, TASK_TO_CONTACT),
      });
    }
    return this.create('tasks', inputs);
  }

  async updateTasks(updates: readonly TaskUpdate[]): Promise<void> {
    const inputs = [];
    for (const u of updates) {
      const owner = await this.ctx.ownerId(u.task.assigneeEmail);
      inputs.push({ id: u.crmId, properties: taskProperties(u.task, owner, this.ctx.taskPriority) });
    }
    await this.update('tasks', inputs);
  }
}

function batchError(message: string, status?: number): CrmError {
  return new CrmError({ destination: DESTINATION, status, message, retryable: false });
}
