// Zendesk Support for the CRM conformance suite: the connector as runtime/crm.ts builds it from a
// parsed config (OAuth tokens that expire and renew through the token store, the shared per-minute
// window), pointed at the in-process test server, and the server's own state as the view of what
// Zendesk holds. The account is on Enterprise Plus (2,500 requests a minute) so the suite runs at
// speed; tightenRateLimit() makes it small enough for the suite's burst to cross.
import { randomBytes } from 'node:crypto';
import { toE164 } from '../../lib/phone';
import { createCrmConnectors } from '../../runtime/crm';
import { startFakeZendesk, type FakeTicket, type LostKind } from '../fakes/zendesk-server';
import { createMigratedWarehouse } from '../integration/warehouse-db';
import { parseTestConfig } from '../support/test-config';
import type { DestinationHarness, HeldRecord } from './destination-harness';

const ACCOUNT = 'acme';
const PLAN_REQUESTS_PER_MINUTE = 2500;

export async function zendeskHarness(): Promise<DestinationHarness> {
  const fake = await startFakeZendesk({ requestsPerMinute: PLAN_REQUESTS_PER_MINUTE });
  const warehouse = await createMigratedWarehouse('zendesk_conformance');
  const pair = fake.oauth.authorize();
  const config = parseTestConfig({
    accounts: [
      {
        name: ACCOUNT,
        platform: {
          baseUrl: 'http://127.0.0.1:1/v1.1/voipstudio',
          credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
        },
      },
    ],
    crm: {
      destination: {
        type: 'zendesk',
        subdomain: fake.subdomain,
        baseUrl: fake.url,
        auth: {
          type: 'oauth',
          clientId: fake.oauth.settings.clientId,
          clientSecret: fake.oauth.settings.clientSecret,
          refreshToken: pair.refreshToken,
          accessToken: pair.accessToken,
        },
        requestsPerMinute: PLAN_REQUESTS_PER_MINUTE,
      },
    },
    temporal: {
      encryption: { keys: [{ id: 'k1', key: randomBytes(32).toString('base64') }], activeKeyId: 'k1' },
    },
    logLevel: 'silent',
  });
  const connector = createCrmConnectors(config, warehouse.db)(ACCOUNT);

  const held = (t: FakeTicket): HeldRecord => ({
    crmId: String(t.id),
    key: t.external_id,
    title: t.subject ?? '',
    status: t.status,
    // A ticket callsync wrote without a contact is requested by the API user.
    contactId: t.requester_id === fake.admin.id ? null : String(t.requester_id),
    body: t.comments.map((c) => c.body).join('\n\n'),
  });
  const tagged = (...tags: string[]) =>
    Promise.resolve(
      fake
        .tickets()
        .filter((t) => tags.some((tag) => t.tags.includes(tag)))
        .map(held),
    );

  return {
    name: 'Zendesk',
    features: {
      createContacts: true,
      // End users have no owner in Zendesk; agents (ownerId) are ticket assignees only.
      owners: false,
      messages: true,
      outcomes: false,
      erasure: true,
      rateLimits: true,
      tokenExpiry: true,
    },
    connector,
    db: warehouse.db,
    account: ACCOUNT,
    seedContact: (contact) => {
      const user = fake.seedUser({
        name: contact.name,
        phone: contact.phones[0] ?? null,
        ...(contact.updatedAt ? { updatedAt: contact.updatedAt } : {}),
      });
      return Promise.resolve(String(user.id));
    },
    callLogs: () => tagged('callsync_call'),
    tasks: () => tagged('callsync_callback'),
    messages: () => tagged('callsync_sms', 'callsync_voicemail'),
    contactsWithPhone: (e164) =>
      Promise.resolve(
        fake
          .users()
          .filter((u) => u.active && u.role === 'end-user' && toE164(u.phone, 'GB') === e164)
          .map((u) => ({
            crmId: String(u.id),
            key: null,
            title: u.name,
            status: null,
            contactId: null,
            body: '',
          })),
      ),
    loseNextAnswer: (kind: LostKind) => fake.loseNextAnswer(kind),
    expireTokens: () => fake.oauth.expireAll(),
    tooManyRequests: () => fake.counters.limited,
    // Five requests a second: a burst of writes crosses it, and Retry-After stays short.
    tightenRateLimit: () => fake.setRateLimit(5, 1000),
    dispose: async () => {
      await fake.close();
      await warehouse.dispose();
    },
  };
}
