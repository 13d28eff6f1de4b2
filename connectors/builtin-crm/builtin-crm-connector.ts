// The built-in CRM destination, used when no CRM is configured (the `npm start` default): call logs,
// callback tasks and SMS and voice messages in warehouse tables, contacts from the synced `contacts`
// table plus the ones it creates for unknown callers. Every write is keyed, so retries change nothing.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { CallbackTask, CallLog, CrmConnector, CrmContact, MessageLog } from '../crm/crm-connector';
import { CrmError } from '../crm/errors';
import type { Database } from '../postgres/tables';
import { CREATED_PREFIX, callLogRow, messageRow, syncedContact, taskRow } from './rows';

export const DESTINATION = 'builtin';

const PHONE_COLUMNS = ['tel', 'tel_1', 'tel_2', 'mobile', 'mobile_1', 'mobile_2'] as const;

function toId(crmId: string): number {
  const id = Number(crmId);
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound('object', crmId);
  return id;
}

export class BuiltinCrmConnector implements CrmConnector {
  readonly name = DESTINATION;

  /** `account` is the platform account whose contacts are searched and whose rows are written. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly account: string,
  ) {}

  async findContactsByPhone(e164: string): Promise<CrmContact[]> {
    const digits = e164.replace(/\D/g, '');
    // Synced contacts hold numbers as the platform wrote them: E.164, or its digits with punctuation.
    const synced = await this.db
      .selectFrom('contacts')
      .select(['id', 'first_name', 'last_name', 'user_id', 'synced_at'])
      .where('account', '=', this.account)
      .where((eb) =>
        eb.or(
          PHONE_COLUMNS.flatMap((c): Expression<SqlBool>[] => [
            eb(c, '=', e164),
            eb(sql<string>`regexp_replace(${sql.ref(c)}, '[^0-9]', '', 'g')`, '=', digits),
          ]),
        ),
      )
      .orderBy('id')
      .execute();
    const created = await this.db
      .selectFrom('builtin_contacts')
      .select(['id', 'name', 'updated_at'])
      .where('account', '=', this.account)
      .where('phone', '=', e164)
      .orderBy('id')
      .execute();
    return [
      ...synced.map(syncedContact),
      ...created.map((r): CrmContact => ({
        crmId: `${CREATED_PREFIX}${r.id}`,
        kind: 'contact',
        name: r.name,
        ownerId: null,
        updatedAt: r.updated_at.toISOString(),
      })),
    ];
  }

  async createContact(input: { phone: string; name: string | null }): Promise<CrmContact> {
    const row = await this.db
      .insertInto('builtin_contacts')
      .values({ account: this.account, phone: input.phone, name: input.name })
      .returning(['id', 'name', 'updated_at'])
      .executeTakeFirstOrThrow();
    return {
      crmId: `${CREATED_PREFIX}${row.id}`,
      kind: 'contact',
      name: row.name,
      ownerId: null,
      updatedAt: row.updated_at.toISOString(),
    };
  }

  findCallLog(key: string): Promise<string | null> {
    return this.idByKey('builtin_call_logs', key);
  }

  /** Inserts the log; a second create of the same key updates the first row (the key is unique). */
  async createCallLog(log: CallLog): Promise<string> {
    const { account: _a, key: _k, ...changes } = callLogRow(this.account, log);
    const row = await this.db
      .insertInto('builtin_call_logs')
      .values(callLogRow(this.account, log))
      .onConflict((oc) => oc.column('key').doUpdateSet({ ...changes, updated_at: sql<Date>`now()` }))
      .returning('id')
      .executeTakeFirstOrThrow();
    return String(row.id);
  }

  async updateCallLog(crmId: string, log: CallLog): Promise<void> {
    const { account: _a, key: _k, ...changes } = callLogRow(this.account, log);
    const res = await this.db
      .updateTable('builtin_call_logs')
      .set({ ...changes, updated_at: sql<Date>`now()` })
      .where('id', '=', toId(crmId))
      .executeTakeFirst();
    if (res.numUpdatedRows === 0n) throw notFound('call log', crmId);
  }

  findTask(key: string): Promise<string | null> {
    return this.idByKey('builtin_tasks', key);
  }

  async createTask(task: CallbackTask): Promise<string> {
    const { account: _a, key: _k, ...changes } = taskRow(this.account, task);
    const closedAt = task.status === 'closed' ? sql<Date>`now()` : null;
    const row = await this.db
      .insertInto('builtin_tasks')
      .values({ ...taskRow(this.account, task), closed_at: closedAt })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({ ...changes, closed_at: this.closedAt(task), updated_at: sql<Date>`now()` }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    return String(row.id);
  }

  async updateTask(crmId: string, task: CallbackTask): Promise<void> {
    const { account: _a, key: _k, ...changes } = taskRow(this.account, task);
    const res = await this.db
      .updateTable('builtin_tasks')
      .set({ ...changes, closed_at: this.closedAt(task), updated_at: sql<Date>`now()` })
      .where('id', '=', toId(crmId))
      .executeTakeFirst();
    if (res.numUpdatedRows === 0n) throw notFound('task', crmId);
  }

  findMessageLog(key: string): Promise<string | null> {
    return this.idByKey('builtin_messages', key);
  }

  /** Inserts the message; a second create of the same key updates the first row (the key is unique). */
  async createMessageLog(log: MessageLog): Promise<string> {
    const { account: _a, key: _k, ...changes } = messageRow(this.account, log);
    const row = await this.db
      .insertInto('builtin_messages')
      .values(messageRow(this.account, log))
      .onConflict((oc) => oc.column('key').doUpdateSet({ ...changes, updated_at: sql<Date>`now()` }))
      .returning('id')
      .executeTakeFirstOrThrow();
    return String(row.id);
  }

  async updateMessageLog(crmId: string, log: MessageLog): Promise<void> {
    const { account: _a, key: _k, ...changes } = messageRow(this.account, log);
    const res = await this.db
      .updateTable('builtin_messages')
      .set({ ...changes, updated_at: sql<Date>`now()` })
      .where('id', '=', toId(crmId))
      .executeTakeFirst();
    if (res.numUpdatedRows === 0n) throw notFound('message', crmId);
  }

  /** The id of the row of `table` written under the idempotency key, if any. */
  private async idByKey(table: KeyedTable, key: string): Promise<string | null> {
    const row = await this.db.selectFrom(table).select('id').where('key', '=', key).executeTakeFirst();
    return row ? String(row.id) : null;
  }

  /** Erasure: the call log goes (gone already counts as deleted). */
  async deleteCallLog(crmId: string): Promise<void> {
    await this.db.deleteFrom('builtin_call_logs').where('id', '=', toId(crmId)).execute();
  }

  /** Erasure: the task goes (gone already counts as deleted). */
  async deleteTask(crmId: string): Promise<void> {
    await this.db.deleteFrom('builtin_tasks').where('id', '=', toId(crmId)).execute();
  }

  /** Erasure: a contact callsync created goes (gone already counts as deleted); synced ones are not its to delete. */
  async deleteContact(crmId: string): Promise<void> {
    if (!crmId.startsWith(CREATED_PREFIX)) return;
    await this.db
      .deleteFrom('builtin_contacts')
      .where('account', '=', this.account)
      .where('id', '=', toId(crmId.slice(CREATED_PREFIX.length)))
      .execute();
  }

  /** Erasure: the message goes (gone already counts as deleted). */
  async deleteMessageLog(crmId: string): Promise<void> {
    await this.db.deleteFrom('builtin_messages').where('id', '=', toId(crmId)).execute();
  }

  /** closed_at keeps the first close time; reopening clears it. */
  private closedAt(task: CallbackTask) {
    return task.status === 'closed' ? sql<Date>`coalesce(builtin_tasks.closed_at, now())` : null;
  }
}

/** The builtin CRM's tables whose rows carry callsync's idempotency key. */
type KeyedTable = 'builtin_call_logs' | 'builtin_tasks' | 'builtin_messages';

/** An update of a row that is gone: not retryable (the caller creates it again under its key). */
function notFound(what: string, crmId: string): CrmError {
  return new CrmError({
    destination: DESTINATION,
    status: 404,
    message: `no ${what} ${crmId}`,
    retryable: false,
  });
}
