// Accounts kept apart, end to end: four accounts of one platform share their callers' numbers, each
// with its own CRM: acme on a HubSpot portal, hooli on another HubSpot portal, globex on a Salesforce
// org, initech on the built-in CRM. The product's wiring runs throughout (createActivityDeps, the
// worker, the receiver and its fast path): each account's screen-pop, SMS and call log find its own
// CRM's contact for the same caller, a "nobody" cached for one account never hides another's
// contact, record ids stay in their portal, and per-account settings (accounts[].overrides) decide
// the match rule, the owners and whether unknown callers become contacts. A fifth account, umbrella,
// shares acme's portal but not its conversations settings: its screen-pop links by its own template,
// and it logs no SMS, while acme, on the same contacts, does.
import { Client, Connection } from '@temporalio/client';
import {
  conversationsWorkflow,
  screenPopWorkflowId,
  smsReceivedWorkflowId,
  type ScreenPopResult,
  type SmsReceivedResult,
} from '../../contracts';
import { silentLogger } from '../../lib/logger';
import { startServer, type RunningServer } from '../../server';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';
import { missedCall } from '../integration/missed-call';
import { temporalDataConverter } from '../../runtime/temporal-encryption';
import { startSyncHarness, type SyncHarness } from '../integration/sync-harness';
import { emulatorControl } from '../support/emulator-control';
import { eventually } from '../support/eventually';
import { workflowResult } from '../support/workflow-result';

jest.setTimeout(300_000);

const ACCOUNTS = ['acme', 'hooli', 'globex', 'initech'] as const;
/** Every account the receiver serves: the four, and umbrella (acme's portal, its own conversations). */
const RECEIVING = [...ACCOUNTS, 'umbrella'] as const;
const UMBRELLA_POP = 'https://umbrella.example/people/{id}?caller={e164}';
const secret = (account: string) => `${account}-webhook-secret-0123456789`;

describe('accounts on different CRMs sharing callers', () => {
  let acmePortal: FakeHubSpot;
  let hooliPortal: FakeHubSpot;
  let sf: FakeSalesforce;
  let h: SyncHarness;
  let server: RunningServer;
  let temporal: Client;
  let control: ReturnType<typeof emulatorControl>;

  // One caller, known to acme twice (the newer contact is Bob's), to globex twice (the older one is
  // owned by the call's user), to initech once, and to nobody at hooli's portal.
  const caller = '+442079460555';
  const ids = { ann: '', bob: '', sfOwned: '', sfNewer: '', ivy: '' };
  const SF_OWNER = '005000000000OWN';

  beforeAll(async () => {
    acmePortal = await startFakeHubSpot({ token: 'pat-acme-portal' });
    hooliPortal = await startFakeHubSpot({ token: 'pat-hooli-portal' });
    sf = await startFakeSalesforce();
    // hooli's portal has other contacts first, so equal ids in two portals cannot pass for a match.
    for (let i = 0; i < 5; i++) hooliPortal.seedContact({ firstname: 'Filler', lastname: String(i) });
    ids.ann = acmePortal.seedContact(
      { firstname: 'Ann', lastname: 'Acme', phone: caller },
      '2026-01-01T00:00:00.000Z',
    );
    ids.bob = acmePortal.seedContact(
      { firstname: 'Bob', lastname: 'Acme', phone: caller },
      '2026-11-01T00:00:00.000Z',
    );
    ids.sfOwned = sf.seed(
      'Contact',
      { FirstName: 'Gil', LastName: 'Owned', Phone: caller, OwnerId: SF_OWNER },
      '2026-01-01T00:00:00.000Z',
    );
    ids.sfNewer = sf.seed(
      'Contact',
      { FirstName: 'Gus', LastName: 'Newer', MobilePhone: caller, OwnerId: '005000000000OTH' },
      '2026-11-01T00:00:00.000Z',
    );

    h = await startSyncHarness({
      label: 'accounts-apart',
      cdrs: 10,
      // globex's owner of the call's user (by platform user id) is in its own Salesforce org.
      accounts: (admin) => [
        {
          name: 'acme',
          webhookSecret: secret('acme'),
          crm: { type: 'hubspot', accessToken: acmePortal.token, basePath: acmePortal.url },
        },
        {
          name: 'hooli',
          webhookSecret: secret('hooli'),
          crm: { type: 'hubspot', accessToken: hooliPortal.token, basePath: hooliPortal.url },
          overrides: { crm: { createUnknownContacts: true } },
        },
        {
          name: 'globex',
          webhookSecret: secret('globex'),
          crm: {
            type: 'salesforce',
            instanceUrl: sf.url,
            accessToken: sf.token,
            apiVersion: sf.version,
            requestsPerSecond: 100,
          },
          overrides: { crm: { matchRule: 'call_owner', owners: { [String(admin.user_id)]: SF_OWNER } } },
        },
        { name: 'initech', webhookSecret: secret('initech') },
        {
          name: 'umbrella',
          webhookSecret: secret('umbrella'),
          crm: { type: 'hubspot', accessToken: acmePortal.token, basePath: acmePortal.url },
          overrides: {
            conversations: {
              sms: false,
              screenPop: { contactUrl: UMBRELLA_POP, contactText: 'Umbrella: {name}' },
            },
          },
        },
      ],
      // The global settings: the most recent contact, no contacts created for unknown callers.
      config: { crm: { matchRule: 'most_recent', createUnknownContacts: false } },
    });
    const [ivy] = await h.deps.warehouse.db
      .insertInto('builtin_contacts')
      .values({ account: 'initech', phone: caller, name: 'Ivy Initech' })
      .returning('id')
      .execute();
    ids.ivy = `builtin:${ivy!.id}`;

    temporal = new Client({
      connection: await Connection.connect({ address: h.temporal.address }),
      dataConverter: temporalDataConverter(h.config.temporal),
    });
    server = await startServer({
      accounts: RECEIVING.map((name) => ({ name, webhookSecret: secret(name) })),
      databaseUrl: h.database.url,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      temporal: { client: temporal, taskQueue: h.taskQueue },
    });
    control = emulatorControl(() => h.emulator.origin);
    // Every account hears of received SMS (the same platform, so the same SMS).
    for (const account of RECEIVING) {
      await control('POST', '/webhooks', {
        name: `callsync-${account}`,
        categories: ['sms_received'],
        url: server.webhookUrl(account, secret(account)),
      });
    }
    await control('PATCH', '/simulator', { speed: 2, advance_clock: false });
  }, 240_000);

  afterAll(async () => {
    await server?.close();
    await temporal?.connection.close();
    await h?.close();
    await Promise.all([acmePortal?.close(), hooliPortal?.close(), sf?.close()]);
  }, 60_000);

  /** call.ringing of `callId` delivered to one account's receiver, as the platform sends it. */
  const ringAt = async (account: string, callId: number) => {
    const res = await fetch(server.webhookUrl(account, secret(account)), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: `ringing-${account}-${callId}`,
        event_name: 'call.ringing',
        event_time: '2026-11-24 10:00:00',
        call_id: callId,
        state: 'RINGING',
        destination: 'in',
        src: caller,
        dst: '101',
      }),
    });
    expect(res.status).toBe(200);
    return workflowResult<ScreenPopResult>(temporal, screenPopWorkflowId(account, callId));
  };

  it("pops each account's own contact: hooli's cached nobody does not hide acme's contact", async () => {
    // A live call (long enough to outlast the test) that every account's screen-pop can link.
    const { call_id: callId } = (await control('POST', '/simulator/calls', {
      scenario: 'inbound_answered',
      caller,
      talk_s: 7200,
    })) as { call_id: number };
    // hooli first: its portal has nobody with the number, and that answer is cached.
    expect(await ringAt('hooli', callId)).toMatchObject({ outcome: 'create', source: 'crm' });
    // acme, on another portal, still gets its own contact from its own portal (the newest, its rule).
    expect(await ringAt('acme', callId)).toMatchObject({ outcome: 'contact', crmId: ids.bob, source: 'crm' });
    // globex: a contact of its Salesforce org (no call owner is known while ringing: the newest).
    expect(await ringAt('globex', callId)).toMatchObject({ outcome: 'contact', crmId: ids.sfNewer });
    // The cache holds each account's own answers: hooli's nobody, acme's two contacts.
    const hooliCache = await h.deps.warehouse.db
      .selectFrom('crm_contact_cache')
      .select(['account', 'crm_id'])
      .where('e164', '=', caller)
      .execute();
    expect(hooliCache.filter((r) => r.account === 'hooli').map((r) => r.crm_id)).toEqual(['']);
    expect(
      hooliCache
        .filter((r) => r.account === 'acme')
        .map((r) => r.crm_id)
        .sort(),
    ).toEqual([ids.ann, ids.bob].sort());
  });

  it("logs a received SMS on each account's own contact, and on none where its CRM has nobody", async () => {
    const { event } = (await control('POST', '/simulator/sms', {
      from: caller,
      text: 'Please call me back',
    })) as { event: { id: string } };
    const results = Object.fromEntries(
      await Promise.all(
        ACCOUNTS.map(
          async (a) =>
            [
              a,
              await workflowResult<SmsReceivedResult>(temporal, smsReceivedWorkflowId(a, event.id)),
            ] as const,
        ),
      ),
    );
    // acme: on Bob, in acme's portal.
    const acmeSms = acmePortal.engagements('communications').find((e) => e.id === results.acme!.crmId);
    expect(acmeSms?.associations.map((a) => a.toId)).toEqual([ids.bob]);
    // hooli: nobody at its portal, so nothing logged there (acme's Bob is not hooli's).
    expect(results.hooli!.crmId).toBeNull();
    expect(hooliPortal.engagements('communications')).toHaveLength(0);
    expect(hooliPortal.engagements('notes')).toHaveLength(0);
    // globex: a Task on its own Contact.
    const task = sf.records('Task').find((t) => t.Id === results.globex!.crmId);
    expect(task?.fields.WhoId).toBe(ids.sfNewer);
    // initech: in the built-in CRM, on Ivy.
    expect(results.initech!.crmId).not.toBeNull();
    const [message] = await h.deps.warehouse.db
      .selectFrom('builtin_messages')
      .selectAll()
      .where('account', '=', 'initech')
      .execute();
    expect(message).toMatchObject({ contact_id: ids.ivy });
    expect(
      await h.deps.warehouse.db
        .selectFrom('builtin_messages')
        .select('account')
        .where('account', '!=', 'initech')
        .execute(),
    ).toEqual([]);
  });

  it("logs a missed call on each account's own contact, by each account's own rules", async () => {
    const callId = await missedCall(h, caller, { userId: h.emulator.admin.user_id, accounts: [...ACCOUNTS] });
    const hubspotCall = (portal: FakeHubSpot, account: string) =>
      eventually(
        async () => portal.objects('calls').find((o) => o.properties.callsync_key === `${account}:${callId}`),
        `${account}'s call log`,
        120_000,
      );
    // acme: the global rule (most recent): Bob; no contact created.
    expect((await hubspotCall(acmePortal, 'acme')).associations.map((a) => a.toId)).toEqual([ids.bob]);
    // hooli: its own createUnknownContacts made the caller a contact in hooli's portal, and the call
    // is on it; acme's portal got neither the contact nor the call.
    const hooliCall = await hubspotCall(hooliPortal, 'hooli');
    const created = hooliPortal.objects('contacts').filter((c) => c.properties.phone === caller);
    expect(created).toHaveLength(1);
    expect(hooliCall.associations.map((a) => a.toId)).toEqual([created[0]!.id]);
    expect(
      acmePortal.objects('calls').filter((o) => o.properties.callsync_key?.startsWith('hooli:')),
    ).toEqual([]);
    expect(
      hooliPortal.objects('calls').filter((o) => o.properties.callsync_key?.startsWith('acme:')),
    ).toEqual([]);
    expect(acmePortal.objects('contacts').filter((c) => c.properties.phone === caller)).toHaveLength(2);
    // globex: its own rule (call_owner) and owners: the older Contact its call's user owns.
    const sfCall = await eventually(
      async () => sf.records('Task').find((t) => t.fields.CallObject === `globex:${callId}`),
      "globex's call log",
      120_000,
    );
    expect(sfCall.fields.WhoId).toBe(ids.sfOwned);
    // initech: the built-in CRM, on Ivy.
    const log = await eventually(
      async () =>
        h.deps.warehouse.db
          .selectFrom('builtin_call_logs')
          .select(['account', 'contact_id'])
          .where('key', '=', `initech:${callId}`)
          .executeTakeFirst(),
      "initech's call log",
      120_000,
    );
    expect(log).toEqual({ account: 'initech', contact_id: ids.ivy });
    // The contact hooli created is hooli's alone in the cache; acme's cache still holds acme's contacts.
    const cache = await h.deps.warehouse.db
      .selectFrom('crm_contact_cache')
      .select(['account', 'crm_id'])
      .where('e164', '=', caller)
      .execute();
    expect(cache.filter((r) => r.account === 'hooli').map((r) => r.crm_id)).toEqual([created[0]!.id]);
    expect(
      cache
        .filter((r) => r.account === 'acme')
        .map((r) => r.crm_id)
        .sort(),
    ).toEqual([ids.ann, ids.bob].sort());
  });

  it("pops and logs by each account's own conversations settings, on the same portal and contacts", async () => {
    const { call_id: callId } = (await control('POST', '/simulator/calls', {
      scenario: 'inbound_answered',
      caller,
      talk_s: 7200,
    })) as { call_id: number };
    const linkOnCall = async () => {
      const call = await h.deps.platform('acme').calls.get(callId);
      return { url: call.action_url, text: call.action_text };
    };
    // acme: the global settings, its destination's own page for Bob.
    expect(await ringAt('acme', callId)).toMatchObject({ outcome: 'contact', crmId: ids.bob });
    expect(await linkOnCall()).toEqual({
      url: `https://app.hubspot.com/contacts/${acmePortal.portalId}/record/0-1/${ids.bob}`,
      text: 'Open Bob Acme in the CRM',
    });
    // umbrella: the same contact in the same portal, linked by its own template and text.
    expect(await ringAt('umbrella', callId)).toMatchObject({ outcome: 'contact', crmId: ids.bob });
    expect(await linkOnCall()).toEqual({
      url: `https://umbrella.example/people/${ids.bob}?caller=${encodeURIComponent(caller)}`,
      text: 'Umbrella: Bob Acme',
    });

    // One SMS from the caller (every account hears of it): acme logs it on Bob; umbrella stores it and
    // logs nothing.
    const { event } = (await control('POST', '/simulator/sms', {
      from: caller,
      text: 'Umbrella or acme?',
    })) as { event: { id: string } };
    const acme = await workflowResult<SmsReceivedResult>(temporal, smsReceivedWorkflowId('acme', event.id));
    const umbrella = await workflowResult<SmsReceivedResult>(
      temporal,
      smsReceivedWorkflowId('umbrella', event.id),
    );
    const logged = acmePortal.engagements('communications').find((e) => e.id === acme.crmId);
    expect(logged?.associations.map((a) => a.toId)).toEqual([ids.bob]);
    expect(umbrella).toEqual({ smsId: acme.smsId, crmId: null });
    // The scheduled pass does not log it either: umbrella's SMS stays in its warehouse rows alone.
    const pass = await temporal.workflow.execute(conversationsWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `accounts-apart-conversations-umbrella-${event.id}`,
      args: [{ account: 'umbrella' }],
    });
    expect(pass.sms).toBe(0);
    const db = h.deps.warehouse.db;
    expect(await db.selectFrom('sms').select('account').where('id', '=', acme.smsId).execute()).toEqual(
      expect.arrayContaining([{ account: 'acme' }, { account: 'umbrella' }]),
    );
    expect(
      await db
        .selectFrom('crm_objects')
        .select('source_key')
        .where('source_key', 'like', 'umbrella:sms:%')
        .execute(),
    ).toEqual([]);
  });
});
