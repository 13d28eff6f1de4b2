// Salesforce's bulk paths for callsync's call logs and tasks: sObject Collections create and update
// (up to 200 records a request, allOrNone false so one bad record fails alone), SOQL `IN` to find
// Tasks by key (SOQL reads its own writes, so a retry finds what an earlier attempt created), and one
// SOSL search for many numbers.
import type { Connection } from 'jsforce';
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
import {
  callbackTaskFields,
  callLogTaskFields,
  CONVERTED_LEAD,
  isLeadId,
  hitPhones,
  phoneHitsSosl,
  tasksByKeysQuery,
  toCrmContact,
  type SalesforceRecord,
  type TaskFields,
} from './fields';
import { searchNumbers } from './phone-search';
import type { TaskValues } from './task-values';

/** Records per request callsync sends (sObject Collections take 200; SOQL IN lists stay short). */
export const SALESFORCE_BATCH = 100;

export interface SalesforceBatchContext {
  connection: Connection;
  call<T>(send: () => Promise<T>): Promise<T>;
  ownerId(email: string | null): Promise<string | null>;
  taskPriority: 'High' | 'Normal' | 'Low';
  /** The org's Task Status and Priority values (read once per connector). */
  taskValues(): Promise<TaskValues>;
  /** The Contact each converted Lead became. */
  convertedContacts(leadIds: readonly string[]): Promise<Map<string, string>>;
}

interface SaveResult {
  id?: string | undefined;
  success: boolean;
  errors: { message?: string; errorCode?: string; statusCode?: string }[];
}

export class SalesforceBatch implements CrmBatchOps {
  readonly maxBatch = SALESFORCE_BATCH;

  constructor(private readonly ctx: SalesforceBatchContext) {}

  async findContactsByPhones(numbers: readonly string[]): Promise<Map<string, CrmContact[]>> {
    const hits = await searchNumbers(
      numbers,
      async (find) =>
        (await this.ctx.call(() => this.ctx.connection.search(phoneHitsSosl(find))))
          .searchRecords as SalesforceRecord[],
      hitPhones,
    );
    const found = new Map<string, CrmContact[]>();
    for (const [number, mine] of hits) {
      const contacts = mine.map(toCrmContact).filter((c): c is CrmContact => c !== null);
      if (contacts.length > 0) found.set(number, contacts);
    }
    return found;
  }

  private async findByKeys(keys: readonly string[], subtype: 'Call' | 'Task'): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (keys.length === 0) return found;
    const res = await this.ctx.call(
      async () =>
        await this.ctx.connection.query<{ Id: string; CallObject: string }>(tasksByKeysQuery(keys, subtype)),
    );
    for (const r of res.records) if (!found.has(r.CallObject)) found.set(r.CallObject, r.Id);
    return found;
  }

  /**
   * Sends Task records with sObject Collections (answers in request order); those refused because
   * their WhoId is a Lead converted since callsync matched it are sent once more on the Contact the
   * Lead became.
   */
  async sendTasks<R extends TaskFields>(
    method: 'create' | 'update',
    records: R[],
  ): Promise<(SaveResult | undefined)[]> {
    const write = async (rs: R[]) =>
      (await this.ctx.call(() =>
        method === 'create'
          ? this.ctx.connection.sobject('Task').create(rs, { allOrNone: false })
          : this.ctx.connection.sobject('Task').update(rs as ({ Id: string } & R)[], { allOrNone: false }),
      )) as SaveResult[];
    const results: (SaveResult | undefined)[] = await write(records);
    const converted = records
      .map((r, n) => ({ r, n }))
      .filter(
        ({ r, n }) =>
          isLeadId(r.WhoId) &&
          results[n]?.errors.some((e) => (e.statusCode ?? e.errorCode) === CONVERTED_LEAD),
      );
    if (converted.length === 0) return results;
    const contacts = await this.ctx.convertedContacts([
      ...new Set(converted.map(({ r }) => r.WhoId as string)),
    ]);
    const again = converted.filter(({ r }) => contacts.has(r.WhoId as string));
    if (again.length === 0) return results;
    const retried = await write(again.map(({ r }) => ({ ...r, WhoId: contacts.get(r.WhoId as string)! })));
    again.forEach(({ n }, i) => (results[n] = retried[i]));
    return results;
  }

  private async create(items: { key: string; fields: TaskFields }[]): Promise<BatchOutcome> {
    const results = await this.sendTasks(
      'create',
      items.map((i) => i.fields),
    );
    const out: BatchOutcome = new Map();
    items.forEach((item, n) => {
      const r = results[n];
      out.set(item.key, r?.success && r.id ? r.id : saveError(r));
    });
    return out;
  }

  private async update(records: ({ Id: string } & TaskFields)[]): Promise<void> {
    const results = await this.sendTasks('update', records);
    const failed = results.filter((r) => !r?.success);
    if (failed.length > 0) throw saveError(failed[0], failed.length);
  }

  findCallLogs(keys: readonly string[]): Promise<Map<string, string>> {
    return this.findByKeys(keys, 'Call');
  }

  async createCallLogs(logs: readonly CallLog[]): Promise<BatchOutcome> {
    const values = await this.ctx.taskValues();
    const items = [];
    for (const log of logs) {
      const ownerId = await this.ctx.ownerId(log.userEmail);
      items.push({ key: log.key, fields: callLogTaskFields(log, 'create', { ownerId }, values) });
    }
    return this.create(items);
  }

  async updateCallLogs(updates: readonly CallLogUpdate[]): Promise<void> {
    const values = await this.ctx.taskValues();
    const records = [];
    for (const u of updates) {
      const ownerId = await this.ctx.ownerId(u.log.userEmail);
      records.push({ Id: u.crmId, ...callLogTaskFields(u.log, 'update', { ownerId }, values) });
    }
    await this.update(records);
  }

  findTasks(keys: readonly string[]): Promise<Map<string, string>> {
    return this.findByKeys(keys, 'Task');
  }

  async createTasks(tasks: readonly CallbackTask[]): Promise<BatchOutcome> {
    const values = await this.ctx.taskValues();
    const items = [];
    for (const task of tasks) {
      const ownerId = await this.ctx.ownerId(task.assigneeEmail);
      items.push({
        key: task.key,
        fields: callbackTaskFields(task, 'create', { ownerId }, this.ctx.taskPriority, values),
      });
    }
    return this.create(items);
  }

  async updateTasks(updates: readonly TaskUpdate[]): Promise<void> {
    const values = await this.ctx.taskValues();
    const records = [];
    for (const u of updates) {
      const ownerId = await this.ctx.ownerId(u.task.assigneeEmail);
      records.push({
        Id: u.crmId,
        ...callbackTaskFields(u.task, 'update', { ownerId }, this.ctx.taskPriority, values),
      });
    }
    await this.update(records);
  }
}

function saveError(res: SaveResult | undefined, count = 1): CrmError {
  const first = res?.errors[0];
  return new CrmError({
    destination: DESTINATION,
    status: 400,
    code: first?.statusCode ?? first?.errorCode,
    message: `${count} record(s) not saved: ${first?.message ?? 'no result for the record'}`,
    retryable: false,
  });
}
