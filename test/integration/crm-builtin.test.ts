// The built-in CRM destination against a real PostgreSQL warehouse: what only it has (synced contacts
// of the account, unique keys, close times, its errors). What every destination does is
// test/conformance/builtin.test.ts.
import { BuiltinCrmConnector } from '../../connectors/builtin-crm';
import { CrmError } from '../../connectors/crm/errors';
import { upsertCallLog, upsertTask } from '../../connectors/crm/upsert';
import { callbackTask, callLog } from '../unit/crm-fixtures';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

let w: MigratedWarehouse;
let crm: BuiltinCrmConnector;

beforeAll(async () => {
  w = await createMigratedWarehouse('crm_builtin');
  crm = new BuiltinCrmConnector(w.db, 'acme');
  const contact = (id: number, fields: Record<string, unknown>) => ({
    account: 'acme',
    id,
    raw: JSON.stringify({ id }),
    first_name: null,
    last_name: null,
    user_id: null,
    ...fields,
  });
  await w.db
    .insertInto('contacts')
    .values([
      contact(1, { first_name: 'Ada', last_name: 'Lovelace', tel: '+442079460000', user_id: 7 }),
      contact(2, { last_name: 'Mobile', mobile_2: '+44 20 7946 0000' }),
      contact(3, { last_name: 'Other', tel: '+442079460001' }),
    ])
    .execute();
  await w.db
    .insertInto('contacts')
    .values({ account: 'other', id: 1, raw: '{}', tel: '+442079460000' })
    .execute();
});
afterAll(() => w.dispose());

describe('BuiltinCrmConnector', () => {
  it('finds synced contacts by any phone column of the account, E.164 or punctuated', async () => {
    const found = await crm.findContactsByPhone('+442079460000');
    expect(found.map((c) => c.crmId)).toEqual(['contact:1', 'contact:2']);
    expect(found[0]).toMatchObject({ kind: 'contact', name: 'Ada Lovelace', ownerId: '7' });
    expect(await crm.findContactsByPhone('+15550000000')).toEqual([]);
  });

  it('creates a contact for an unknown caller and finds it afterwards', async () => {
    const created = await crm.createContact({ phone: '+15551230000', name: 'New Caller' });
    expect(created.crmId).toMatch(/^builtin:\d+$/);
    expect(await crm.findContactsByPhone('+15551230000')).toEqual([created]);
  });

  it('closes a callback task with a close time; an expired one stays expired, with none', async () => {
    const row = (key: string) =>
      w.db.selectFrom('builtin_tasks').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
    const reached = callbackTask();
    await upsertTask(w.db, crm, reached);
    expect((await row(reached.key)).closed_at).toBeNull();
    await upsertTask(w.db, crm, { ...reached, status: 'closed' });
    expect(await row(reached.key)).toMatchObject({ status: 'closed', closed_at: expect.any(Date) });
    // Nobody reached the caller: expired, not closed.
    const task = callbackTask();
    await upsertTask(w.db, crm, task);
    await upsertTask(w.db, crm, { ...task, status: 'expired' });
    expect(await row(task.key)).toMatchObject({ status: 'expired', closed_at: null });
  });

  it('a blind retry of a create keeps the same row: the key is unique', async () => {
    const log = callLog();
    const { crmId } = await upsertCallLog(w.db, crm, log);
    expect(await crm.createCallLog({ ...log, summary: 'Again.' })).toBe(crmId);
    const sms = {
      key: 'acme:sms:41',
      channel: 'sms' as const,
      direction: 'inbound' as const,
      at: '2026-11-24T10:00:00.000Z',
      fromNumber: '+447911123456',
      toNumber: '+442071838750',
      title: 'SMS from +447911123456',
      body: 'Running late',
      userEmail: null,
      contact: { crmId: 'contact:1', kind: 'contact' as const, name: null, ownerId: null, updatedAt: null },
    };
    const first = await crm.createMessageLog(sms);
    expect(await crm.createMessageLog({ ...sms, body: 'Running very late' })).toBe(first);
    const rows = await w.db
      .selectFrom('builtin_messages')
      .select('body')
      .where('key', '=', sms.key)
      .execute();
    expect(rows).toEqual([{ body: 'Running very late' }]);
    await expect(crm.updateMessageLog('999999', sms)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses updates of objects that do not exist', async () => {
    await expect(crm.updateCallLog('999999', callLog())).rejects.toBeInstanceOf(CrmError);
    await expect(crm.updateTask('nope', callbackTask())).rejects.toMatchObject({
      status: 404,
      retryable: false,
    });
  });
});
