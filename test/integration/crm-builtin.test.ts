// The built-in CRM destination against a real PostgreSQL warehouse.
import { BuiltinCrmConnector } from '../../connectors/builtin-crm';
import { CrmError } from '../../connectors/crm/errors';
import { upsertCallLog, upsertMessageLog, upsertTask } from '../../connectors/crm/upsert';
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

  it('writes one call log per key and updates it in place', async () => {
    const log = callLog({
      contact: { crmId: 'contact:1', kind: 'contact', name: 'Ada Lovelace', ownerId: '7', updatedAt: null },
    });
    const first = await upsertCallLog(w.db, crm, log);
    const again = await crm.createCallLog(log); // a blind retry of the create keeps the same row
    expect(again).toBe(first.crmId);
    expect(await crm.findCallLog(log.key)).toBe(first.crmId);
    await upsertCallLog(w.db, crm, {
      ...log,
      summary: 'Invoice question.',
      recordingUrl: 'https://rec.example/a.mp3',
    });
    const rows = await w.db.selectFrom('builtin_call_logs').selectAll().where('key', '=', log.key).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      account: 'acme',
      direction: 'inbound',
      status: 'completed',
      duration_seconds: 125,
      contact_id: 'contact:1',
      summary: 'Invoice question.',
      recording_url: 'https://rec.example/a.mp3',
      body: 'Summary: Invoice question.\n\nRecording: https://rec.example/a.mp3',
    });
    expect(rows[0]!.started_at.toISOString()).toBe('2026-11-20T10:15:00.000Z');
  });

  it('keeps callback tasks open, then closes them with a close time', async () => {
    const task = callbackTask();
    const { crmId } = await upsertTask(w.db, crm, task);
    expect(await crm.findTask(task.key)).toBe(crmId);
    let row = await w.db
      .selectFrom('builtin_tasks')
      .selectAll()
      .where('key', '=', task.key)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'open', closed_at: null, caller_number: '+442079460000' });
    await upsertTask(w.db, crm, { ...task, status: 'closed', body: 'Reached on 2nd attempt.' });
    row = await w.db
      .selectFrom('builtin_tasks')
      .selectAll()
      .where('key', '=', task.key)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('closed');
    expect(row.closed_at).toBeInstanceOf(Date);
    expect(row.body).toBe('Reached on 2nd attempt.');
  });

  it('keeps an expired callback task as expired, not closed (nobody reached the caller)', async () => {
    const task = callbackTask();
    await upsertTask(w.db, crm, task);
    await upsertTask(w.db, crm, { ...task, status: 'expired' });
    const row = await w.db
      .selectFrom('builtin_tasks')
      .selectAll()
      .where('key', '=', task.key)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'expired', closed_at: null });
  });

  it('logs an SMS and a voicemail once each on the contact, finds a lost create by key, updates in place', async () => {
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
      contact: {
        crmId: 'contact:1',
        kind: 'contact' as const,
        name: 'Ada Lovelace',
        ownerId: null,
        updatedAt: null,
      },
    };
    const voicemail = {
      ...sms,
      key: 'acme:voicemail:9',
      channel: 'voicemail' as const,
      title: 'Voicemail from +447911123456 (12 s)',
      body: 'Transcript: none yet',
    };
    // A create whose answer was lost: no mapping row, but the row is there and found by its key.
    const lost = await crm.createMessageLog(sms);
    expect(await crm.findMessageLog(sms.key)).toBe(lost);
    expect((await upsertMessageLog(w.db, crm, sms, { mayExist: true }))!.crmId).toBe(lost);
    const vm = (await upsertMessageLog(w.db, crm, voicemail))!.crmId;
    // Redelivery and the scheduled pass: same keys, same rows, updated in place.
    await upsertMessageLog(w.db, crm, sms, { mayExist: true });
    await upsertMessageLog(w.db, crm, { ...voicemail, body: 'Transcript: call me back' });
    expect(await crm.createMessageLog(voicemail)).toBe(vm); // a blind retry keeps the same row
    const rows = await w.db
      .selectFrom('builtin_messages')
      .select(['id', 'key', 'channel', 'contact_id', 'title', 'body'])
      .where('key', 'in', [sms.key, voicemail.key])
      .orderBy('key')
      .execute();
    expect(rows).toEqual([
      {
        id: Number(lost),
        key: 'acme:sms:41',
        channel: 'sms',
        contact_id: 'contact:1',
        title: 'SMS from +447911123456',
        body: 'Running late',
      },
      {
        id: Number(vm),
        key: 'acme:voicemail:9',
        channel: 'voicemail',
        contact_id: 'contact:1',
        title: 'Voicemail from +447911123456 (12 s)',
        body: 'Transcript: none yet',
      },
    ]);
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
