// The Zendesk destination against its test server, through the harness the conformance suite uses:
// exactly-once writes through connectors/crm/upsert.ts (create once, update in place, a lost answer
// recovered by external_id), callers found by phone however Zendesk holds them, callbacks' states,
// messages, erasure, OAuth renewal and the account's rate limit.
import { CrmError, CrmRateLimitedError } from '../../connectors/crm/errors';
import type { CallbackTask, CallLog, MessageLog } from '../../connectors/crm/crm-connector';
import {
  ensureUnknownContact,
  upsertCallLog,
  upsertMessageLog,
  upsertTask,
} from '../../connectors/crm/upsert';
import type { DestinationHarness } from './destination-harness';
import { zendeskHarness } from './harness-zendesk';

let h: DestinationHarness;
beforeAll(async () => {
  h = await zendeskHarness();
});
afterAll(async () => {
  await h?.dispose();
});

let seq = 0;
function callLog(over: Partial<CallLog> = {}): CallLog {
  seq++;
  return {
    key: `acme:${9000 + seq}`,
    title: 'Inbound call from +44 20 7946 0011',
    direction: 'inbound',
    status: 'completed',
    startedAt: '2026-11-20T09:00:00Z',
    durationSeconds: 192,
    fromNumber: '+442079460011',
    toNumber: '+442079460999',
    userEmail: null,
    contact: null,
    recordingUrl: null,
    summary: null,
    transcriptExcerpt: null,
    sentiment: null,
    ivrDigits: null,
    ...over,
  };
}

function callback(over: Partial<CallbackTask> = {}): CallbackTask {
  seq++;
  return {
    key: `acme:callback:+442079460022:${seq}`,
    subject: 'Call back +44 20 7946 0022',
    body: 'Missed call at 09:00',
    status: 'open',
    dueAt: '2026-11-20T10:00:00Z',
    callerNumber: '+442079460022',
    assigneeEmail: null,
    contact: null,
    ...over,
  };
}

describe('Zendesk through upsert', () => {
  it('creates a call ticket once, updates it in place, and writes an unchanged text only once', async () => {
    const log = callLog();
    const first = await upsertCallLog(h.db, h.connector, log);
    expect(first.outcome).toBe('created');
    const later = { ...log, summary: 'Wants a quote', recordingUrl: 'https://rec.example/1.mp3' };
    expect(await upsertCallLog(h.db, h.connector, later)).toEqual({ crmId: first.crmId, outcome: 'updated' });
    await upsertCallLog(h.db, h.connector, later);
    const held = (await h.callLogs()).filter((r) => r.key === log.key);
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({
      crmId: first.crmId,
      title: log.title,
      status: 'solved',
      contactId: null,
    });
    expect(held[0]!.body.match(/Summary: Wants a quote/g)).toHaveLength(1);
    expect(held[0]!.body).toContain('Recording: https://rec.example/1.mp3');
  });

  it('recovers a create whose answer was lost by its external_id, instead of creating a second', async () => {
    const log = callLog();
    h.loseNextAnswer('callLog');
    const lost = await upsertCallLog(h.db, h.connector, log).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(CrmError);
    expect((lost as CrmError).retryable).toBe(true);
    const again = await upsertCallLog(h.db, h.connector, log);
    expect(again.outcome).toBe('recovered');
    expect((await h.callLogs()).filter((r) => r.key === log.key).map((r) => r.crmId)).toEqual([again.crmId]);
  });

  it('finds a caller however the number was typed, and creates an unknown caller once', async () => {
    const id = await h.seedContact({ name: 'Ada Lovelace', phones: ['020 7946 0033'] });
    await h.seedContact({ name: 'Not Her', phones: ['+1 202 794 60033'] });
    const found = await h.connector.findContactsByPhone('+442079460033');
    expect(found.map((c) => [c.crmId, c.name])).toEqual([[id, 'Ada Lovelace']]);

    const caller = { account: h.account, e164: '+442079460044' };
    const [a, b] = await Promise.all([
      ensureUnknownContact(h.db, h.connector, caller),
      ensureUnknownContact(h.db, h.connector, caller),
    ]);
    expect(a.contact.crmId).toBe(b.contact.crmId);
    expect((await h.contactsWithPhone('+442079460044')).map((r) => r.crmId)).toEqual([a.contact.crmId]);
  });

  it('keeps a callback as one follow-up ticket: open, solved when reached, solved and tagged when expired', async () => {
    const contact = { crmId: await h.seedContact({ name: 'Grace', phones: ['+442079460022'] }) };
    const task = callback({
      contact: { ...contact, kind: 'contact', name: 'Grace', ownerId: null, updatedAt: null },
    });
    const created = await upsertTask(h.db, h.connector, task);
    expect((await h.tasks()).find((t) => t.key === task.key)).toMatchObject({
      status: 'open',
      contactId: contact.crmId,
    });
    await upsertTask(h.db, h.connector, { ...task, status: 'closed' });
    expect((await h.tasks()).find((t) => t.key === task.key)?.status).toBe('solved');

    const expiring = callback();
    await upsertTask(h.db, h.connector, expiring);
    await upsertTask(h.db, h.connector, { ...expiring, status: 'expired' });
    const tasks = await h.tasks();
    expect(tasks.filter((t) => t.key === expiring.key)).toHaveLength(1);
    expect(tasks.find((t) => t.key === expiring.key)?.status).toBe('solved');
    expect(created.outcome).toBe('created');
  });

  it('logs an SMS as a ticket of its contact, once', async () => {
    const crmId = await h.seedContact({ name: 'Alan', phones: ['+442079460055'] });
    const sms: MessageLog = {
      key: 'acme:sms:77',
      channel: 'sms',
      direction: 'inbound',
      at: '2026-11-20T09:05:00Z',
      fromNumber: '+442079460055',
      toNumber: '+442079460999',
      title: 'SMS from +44 20 7946 0055',
      body: 'Please call me back',
      userEmail: null,
      contact: { crmId, kind: 'contact', name: 'Alan', ownerId: null, updatedAt: null },
    };
    h.loseNextAnswer('message');
    await expect(upsertMessageLog(h.db, h.connector, sms)).rejects.toBeInstanceOf(CrmError);
    expect((await upsertMessageLog(h.db, h.connector, sms))?.outcome).toBe('recovered');
    const held = (await h.messages()).filter((m) => m.key === sms.key);
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ contactId: crmId, status: 'open', body: 'Please call me back' });
  });

  it('erases what callsync created; erasing again counts as done', async () => {
    const log = callLog();
    const { crmId } = await upsertCallLog(h.db, h.connector, log);
    await h.connector.deleteCallLog!(crmId);
    await h.connector.deleteCallLog!(crmId);
    expect((await h.callLogs()).some((r) => r.crmId === crmId)).toBe(false);
    expect(await h.connector.findCallLog(log.key)).toBeNull();
  });

  it('renews an expired OAuth access token and goes on', async () => {
    h.expireTokens!();
    const log = callLog();
    expect((await upsertCallLog(h.db, h.connector, log)).outcome).toBe('created');
    expect((await h.callLogs()).filter((r) => r.key === log.key)).toHaveLength(1);
  });

  it("waits out Zendesk's 429 and Retry-After, and every write still lands once", async () => {
    const before = h.tooManyRequests!();
    h.tightenRateLimit!();
    const logs = Array.from({ length: 8 }, () => callLog());
    const results = await Promise.allSettled(logs.map((l) => upsertCallLog(h.db, h.connector, l)));
    expect(h.tooManyRequests!()).toBeGreaterThan(before);
    // A request refused too often is a retryable CrmRateLimitedError (Temporal retries it): once more.
    for (const [i, r] of results.entries()) {
      if (r.status === 'rejected') {
        expect(r.reason).toBeInstanceOf(CrmRateLimitedError);
        await upsertCallLog(h.db, h.connector, logs[i]!);
      }
    }
    const keys = (await h.callLogs()).map((r) => r.key);
    for (const l of logs) expect(keys.filter((k) => k === l.key)).toHaveLength(1);
  });
});
