// The Dynamics 365 destination against its test server, through the product's exactly-once upserts
// (connectors/crm/upsert.ts): one call log and one task per key however often they are written, the
// answer of a create lost and the record found again by its key, contacts found by the numbers as
// people type them, tokens that expire, and the service protection limit waited out.
import { ensureUnknownContact, upsertCallLog, upsertMessageLog, upsertTask } from '../../connectors/crm';
import { callbackTask, callLog, uniqueKey } from '../unit/crm-fixtures';
import { startDynamicsHarness, type DynamicsHarness } from './harness-dynamics';

let h: DynamicsHarness;

beforeAll(async () => {
  h = await startDynamicsHarness();
});
afterAll(async () => {
  await h?.dispose();
});

const onlyWithKey = async (read: () => Promise<{ key: string | null; crmId: string }[]>, key: string) =>
  (await read()).filter((r) => r.key === key);

it('finds a contact by the number in any of its phone columns, typed as people type it', async () => {
  const ada = await h.seedContact({ name: 'Ada Lovelace', phones: ['020 7946 0571'] });
  const bob = await h.seedContact({ name: 'Bob Byron', phones: ['+1 555 0100', '+44 (0)20 7946 0571'] });
  const cy = await h.seedContact({ name: 'Cy Young', phones: ['020-7946-0571'] });
  await h.seedContact({ name: 'Someone Else', phones: ['020 7946 0572'] });
  const found = await h.connector.findContactsByPhone('+442079460571');
  expect(found.map((c) => c.crmId).sort()).toEqual([ada, bob, cy].sort());
  const us = await h.seedContact({ name: 'Dee Fox', phones: ['213-373-4253'] });
  expect((await h.connector.findContactsByPhone('+12133734253')).map((c) => c.crmId)).toEqual([us]);
  expect(found.find((c) => c.crmId === ada)?.name).toBe('Ada Lovelace');
});

it('creates one call log per key, updates it in place, and finds it again when the create answer is lost', async () => {
  const [contact] = await h.connector.findContactsByPhone('+442079460571');
  const log = callLog({ key: uniqueKey(h.account), contact: contact!, status: 'completed' });
  const first = await upsertCallLog(h.db, h.connector, log);
  expect(first.outcome).toBe('created');
  const again = await upsertCallLog(h.db, h.connector, { ...log, summary: 'Asked about the invoice' });
  expect(again).toEqual({ crmId: first.crmId, outcome: 'updated' });
  const [stored] = await onlyWithKey(() => h.callLogs(), log.key);
  expect(stored).toMatchObject({ crmId: first.crmId, status: 'Completed', contactId: contact!.crmId });
  expect((await h.callLogs()).find((r) => r.key === log.key)?.body).toContain('Asked about the invoice');

  const lost = callLog({ key: uniqueKey(h.account) });
  h.loseNextAnswer('callLog');
  await expect(upsertCallLog(h.db, h.connector, lost)).rejects.toMatchObject({ retryable: true });
  const retried = await upsertCallLog(h.db, h.connector, lost);
  expect(retried.outcome).toBe('recovered');
  expect(await onlyWithKey(() => h.callLogs(), lost.key)).toEqual([
    expect.objectContaining({ crmId: retried.crmId }),
  ]);
});

it('keeps one task per callback key: open, then completed when reached, or canceled when expired', async () => {
  const task = callbackTask({ key: uniqueKey(h.account, 'callback:+442079460571:') });
  const created = await upsertTask(h.db, h.connector, task);
  await upsertTask(h.db, h.connector, { ...task, status: 'closed' });
  const [closed] = await onlyWithKey(() => h.tasks(), task.key);
  expect(closed).toMatchObject({ crmId: created.crmId, status: 'Completed' });

  const expiring = callbackTask({ key: uniqueKey(h.account, 'callback:+442079460572:') });
  h.loseNextAnswer('task');
  await expect(upsertTask(h.db, h.connector, expiring)).rejects.toMatchObject({ retryable: true });
  await upsertTask(h.db, h.connector, { ...expiring, status: 'expired' });
  expect(await onlyWithKey(() => h.tasks(), expiring.key)).toEqual([
    expect.objectContaining({ status: 'Canceled' }),
  ]);
});

it('logs an SMS once on its contact, creates an unknown caller once, and erases what it created', async () => {
  const { contact, outcome } = await ensureUnknownContact(h.db, h.connector, {
    account: h.account,
    e164: '+442079460999',
  });
  expect(outcome).toBe('created');
  expect(
    (await ensureUnknownContact(h.db, h.connector, { account: h.account, e164: '+442079460999' })).outcome,
  ).toBe('mapped');
  expect(await h.contactsWithPhone('+442079460999')).toHaveLength(1);
  const sms = {
    key: uniqueKey(h.account, 'sms:'),
    channel: 'sms' as const,
    direction: 'inbound' as const,
    at: '2026-11-24T10:00:00.000Z',
    fromNumber: '+442079460999',
    toNumber: '+442071838750',
    title: 'SMS from +442079460999',
    body: 'Running late',
    userEmail: null,
    contact,
  };
  const first = await upsertMessageLog(h.db, h.connector, sms)!;
  await upsertMessageLog(h.db, h.connector, { ...sms, body: 'Running late, call me after lunch' });
  const [message] = await onlyWithKey(() => h.messages(), sms.key);
  expect(message).toMatchObject({ crmId: first.crmId, contactId: contact.crmId });
  expect(await h.callLogs()).not.toContainEqual(expect.objectContaining({ key: sms.key }));

  await h.connector.deleteMessageLog!(first.crmId, 'sms');
  await h.connector.deleteMessageLog!(first.crmId, 'sms'); // already gone: deleted
  await h.connector.deleteContact!(contact.crmId);
  expect(await h.contactsWithPhone('+442079460999')).toHaveLength(0);
});

it('renews an access token Dataverse no longer accepts, and names the owner by e-mail', async () => {
  await h.seedContact({ name: 'Owned Person', phones: ['07700 900123'], ownerEmail: 'agent@example.com' });
  h.expireTokens!();
  const [owned] = await h.connector.findContactsByPhone('+447700900123');
  expect(owned!.ownerId).toBe(await h.connector.ownerId!('agent@example.com'));
  expect(await h.connector.ownerId!('nobody@example.com')).toBeNull();
});

it('waits out the service protection limit (429 with Retry-After) instead of failing', async () => {
  // The server's window shrinks while the connector keeps its 20 requests a second: it crosses the
  // limit, hears 429 with Retry-After, and waits.
  h.server.limits.tighten(20, 2000);
  const before = h.tooManyRequests!();
  // 12 call logs: 24 requests (create, then complete) against 20 allowed in any 2 s.
  const logs = Array.from({ length: 12 }, () => callLog({ key: uniqueKey(h.account) }));
  const results = await Promise.all(
    logs.map((log) => upsertCallLog(h.db, h.connector, log, { mayExist: false })),
  );
  expect(new Set(results.map((r) => r.crmId)).size).toBe(12);
  expect(h.tooManyRequests!()).toBeGreaterThan(before);
}, 60_000);
