// What only the Dynamics 365 destination has, beyond the CRM conformance suite
// (test/conformance/dynamics.test.ts): contacts found by the many shapes people type numbers in,
// activities created Open and closed by an update (statecode is not valid on create) and opened
// again to be updated (closed ones are read-only), expired callbacks as Canceled tasks, and a 429
// of the service protection limits waited out.
import { upsertCallLog, upsertTask } from '../../connectors/crm';
import { callbackTask, callLog, uniqueKey } from '../unit/crm-fixtures';
import { startDynamicsHarness, type DynamicsHarness } from '../conformance/harness-dynamics';

let h: DynamicsHarness;

beforeAll(async () => {
  h = await startDynamicsHarness();
});
afterAll(async () => {
  await h?.dispose();
});

it('completes a call log, and opens it again to update it, completed once more', async () => {
  const agent = h.server.seedUser('agent.smith@example.com', 'Agent Smith');
  const person = await h.seedContact({ name: 'Called Person', phones: ['020 7946 0123'] });
  const [contact] = await h.connector.findContactsByPhone('+442079460123');
  const log = callLog({
    key: uniqueKey(h.account),
    direction: 'outbound',
    userEmail: 'Agent.Smith@example.com',
    contact: contact!,
  });
  const { crmId } = await upsertCallLog(h.db, h.connector, log, { mayExist: false });
  const stored = () => h.server.rows('phonecalls').find((r) => r.__id === crmId)!;
  expect(stored()).toMatchObject({ statecode: 1, statuscode: 2, directioncode: true, _ownerid_value: agent });
  // Outgoing: the agent (a Dataverse user) called the contact.
  expect(stored().parties).toEqual([
    { participationtypemask: 2, partyType: 'contacts', partyid: person },
    { participationtypemask: 1, partyType: 'systemusers', partyid: agent },
  ]);
  await upsertCallLog(h.db, h.connector, { ...log, summary: 'Called back about the invoice.' });
  expect(stored()).toMatchObject({ statecode: 1, statuscode: 2 });
  expect(String(stored().description)).toContain('Called back about the invoice.');
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
