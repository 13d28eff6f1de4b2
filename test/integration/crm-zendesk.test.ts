// What only Zendesk has, on its test server through the conformance harness: a changed text is a new
// private comment written once, an expired callback is solved and tagged, a ticket Zendesk closed is
// left alone, a 429 caused by others is waited out, and a refused API token is no retry.
import { CrmError } from '../../connectors/crm/errors';
import { upsertCallLog, upsertTask } from '../../connectors/crm/upsert';
import { createCrmConnectors } from '../../runtime/crm';
import type { FakeZendesk } from '../fakes/zendesk-server';
import { parseTestConfig } from '../support/test-config';
import {
  conformanceCallLog,
  conformanceTask,
  onlyWithKey,
  seededContact,
} from '../conformance/conformance-fixtures';
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import type { DestinationHarness } from '../conformance/destination-harness';
import { zendeskHarnessWithServer } from '../conformance/harness-zendesk';

describe('Zendesk tickets', () => {
  let h: DestinationHarness;
  let fake: FakeZendesk;
  let anotherWorker: () => CrmConnector;
  beforeAll(async () => {
    ({ harness: h, fake, anotherWorker } = await zendeskHarnessWithServer());
  });
  afterAll(async () => {
    await h?.dispose();
  });
  const ticket = (crmId: string) => fake.tickets().find((t) => String(t.id) === crmId)!;

  it('adds a changed text as one private comment, and an unchanged one not again', async () => {
    const { contact, e164 } = await seededContact(h, 'Comment Caller');
    const log = conformanceCallLog(h.account, e164, contact);
    const { crmId } = await upsertCallLog(h.db, h.connector, log, { mayExist: false });
    const later = { ...log, summary: 'Wants a quote.' };
    await upsertCallLog(h.db, h.connector, later);
    await upsertCallLog(h.db, h.connector, later);
    const t = ticket(crmId);
    expect(t.comments.map((c) => c.public)).toEqual([false, false]);
    expect(t.comments[1]!.body).toContain('Summary: Wants a quote.');
    expect(t).toMatchObject({ status: 'solved', external_id: log.key });
  });

  it('solves an expired callback with the callsync_expired tag, and keeps it one ticket of type task', async () => {
    const { contact, e164 } = await seededContact(h, 'Expired Caller');
    const task = conformanceTask(h.account, e164, contact);
    const { crmId } = await upsertTask(h.db, h.connector, task, { mayExist: false });
    await upsertTask(h.db, h.connector, { ...task, status: 'expired' });
    expect(onlyWithKey(await h.tasks(), task.key).crmId).toBe(crmId);
    expect(ticket(crmId)).toMatchObject({ type: 'task', status: 'solved', due_at: task.dueAt });
    expect(ticket(crmId).tags).toEqual(
      expect.arrayContaining(['callsync', 'callsync_callback', 'callsync_expired']),
    );
  });

  it('leaves a ticket Zendesk has closed as it is (closed tickets cannot be updated)', async () => {
    const { contact, e164 } = await seededContact(h, 'Closed Caller');
    const log = conformanceCallLog(h.account, e164, contact);
    const { crmId } = await upsertCallLog(h.db, h.connector, log, { mayExist: false });
    ticket(crmId).status = 'closed';
    await upsertCallLog(h.db, h.connector, { ...log, summary: 'Too late.' });
    expect(ticket(crmId).comments).toHaveLength(1);
  });

  it('waits out a 429 others caused (Retry-After), and the write lands once', async () => {
    const { contact, e164 } = await seededContact(h, 'Crowded Account');
    const before = fake.counters.limited;
    // Other integrations spent the account's minute: two requests a second are left for callsync.
    fake.setRateLimit(2, 1000);
    const logs = [1, 2, 3, 4].map(() => conformanceCallLog(h.account, e164, contact));
    const results = await Promise.all(
      logs.map((l) => upsertCallLog(h.db, h.connector, l, { mayExist: false })),
    );
    fake.setRateLimit(2500);
    expect(fake.counters.limited).toBeGreaterThan(before);
    expect(results.map((r) => r.outcome)).toEqual(['created', 'created', 'created', 'created']);
    const held = await h.callLogs();
    for (const l of logs) onlyWithKey(held, l.key);
  });

  it('renews an expired OAuth pair once for two workers: Zendesk takes each refresh token once', async () => {
    const { contact, e164 } = await seededContact(h, 'Two Workers');
    const second = anotherWorker();
    const refreshes = fake.oauth.refreshes;
    fake.oauth.expireAll();
    const logs = [1, 2, 3, 4].map(() => conformanceCallLog(h.account, e164, contact));
    const results = await Promise.all(
      logs.map((l, i) => upsertCallLog(h.db, i % 2 ? second : h.connector, l, { mayExist: false })),
    );
    expect(results.map((r) => r.outcome)).toEqual(['created', 'created', 'created', 'created']);
    expect(fake.oauth.refreshes - refreshes).toBe(1);
  });

  it('refuses a wrong API token without retrying, and without the token in the message', async () => {
    const config = parseTestConfig({
      accounts: [
        {
          name: 'acme',
          platform: {
            baseUrl: 'http://127.0.0.1:1/v1.1/voipstudio',
            credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
          },
        },
      ],
      crm: {
        destination: {
          type: 'zendesk',
          subdomain: 'acme',
          baseUrl: fake.url,
          auth: { type: 'api-token', email: fake.admin.email, apiToken: 'not-the-token-4711' },
        },
      },
      logLevel: 'silent',
    });
    const err = await createCrmConnectors(
      config,
      h.db,
    )('acme')
      .findCallLog('acme:1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrmError);
    expect(err).toMatchObject({ status: 401, retryable: false });
    expect((err as Error).message).not.toContain('not-the-token-4711');
  });
});
