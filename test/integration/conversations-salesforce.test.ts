// SMS and voice messages on the Salesforce contact, through the product's wiring (the worker's
// conversations workflow and activities, the schedule `callsync schedules apply` creates) against the
// emulator, real Temporal and PostgreSQL and the Salesforce test server: an SMS a user sent and a
// voice message with its transcript become completed Tasks on the Contact, once each; a second pass
// writes nothing; a Task whose create answer was lost is found again by its key, not created twice.
import { destinationIdOf } from '../../connectors/crm/crm-connector';
import { SalesforceConnector, salesforceConfigSchema } from '../../connectors/salesforce';
import { conversationsWorkflow, syncStreamWorkflow } from '../../contracts';
import { applyConversationsSchedules } from '../../runtime/conversations-schedule';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';
import { startSyncHarness, type SyncHarness } from './sync-harness';
import { emulatorControl } from '../support/emulator-control';

jest.setTimeout(300_000);

describe('SMS and voicemail on the Salesforce contact', () => {
  let fake: FakeSalesforce;
  let h: SyncHarness;
  let runs = 0;

  const control = emulatorControl(() => h.emulator.origin);
  const sync = (stream: string) =>
    h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `conv-sf-sync-${stream}-${++runs}`,
      args: [{ account: 'acme', stream }],
    });
  const pass = () =>
    h.client.workflow.execute(conversationsWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `conv-sf-pass-${++runs}`,
      args: [{ account: 'acme' }],
    });
  const logged = (key: string) => fake.records('Task').filter((r) => r.fields.CallObject === key);

  beforeAll(async () => {
    fake = await startFakeSalesforce();
    h = await startSyncHarness({
      label: 'conversations-salesforce',
      cdrs: 20,
      config: {
        crm: {
          destination: {
            type: 'salesforce',
            instanceUrl: fake.url,
            accessToken: fake.token,
            apiVersion: fake.version,
            requestsPerSecond: 100,
          },
        },
      },
    });
    await control('PATCH', '/simulator', { speed: 30, advance_clock: false });
  }, 240_000);

  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it('logs an SMS a user sent and a voice message as Tasks on the contact, once, and recovers a lost create by key', async () => {
    const customer = '+447911123499';
    const grace = fake.seed('Contact', { FirstName: 'Grace', LastName: 'Hopper', Phone: customer });
    const sent = await h.deps
      .platform('acme')
      .storage.sms.create({ to: customer, message: 'Your order shipped' });
    const placed = (await control('POST', '/simulator/calls', {
      scenario: 'inbound_voicemail',
      caller: customer,
    })) as { call_id: number; ends_in_ms: number };
    await new Promise((r) => setTimeout(r, placed.ends_in_ms + 1000));
    await sync('sms');
    await sync('voicemessages');
    const vm = await h.deps.warehouse.db
      .selectFrom('voicemessages')
      .select(['id', 'transcript'])
      .where('live_id', '=', placed.call_id)
      .executeTakeFirstOrThrow();

    const first = await pass();
    expect(first.sms).toBeGreaterThanOrEqual(1);
    expect(first.voicemail).toBe(1);
    const [sms] = logged(`acme:sms:${sent.id}`);
    expect(sms!.fields).toMatchObject({
      TaskSubtype: 'Task',
      Status: 'Completed',
      WhoId: grace,
      Subject: `SMS to ${customer}`,
      Description: 'Your order shipped',
    });
    const [voicemail] = logged(`acme:voicemail:${vm.id}`);
    expect(voicemail!.fields).toMatchObject({ TaskSubtype: 'Task', Status: 'Completed', WhoId: grace });
    expect(String(voicemail!.fields.Subject)).toMatch(new RegExp(`^Voicemail from \\${customer}`));
    expect(voicemail!.fields.Description).toContain(
      vm.transcript ? `Transcript: ${vm.transcript}` : 'Transcript: none yet',
    );

    // Again: nothing new to log, nothing written twice.
    expect(await pass()).toEqual({ sms: 0, voicemail: 0, noContact: expect.any(Number) });
    expect(logged(`acme:sms:${sent.id}`)).toHaveLength(1);
    expect(logged(`acme:voicemail:${vm.id}`)).toHaveLength(1);

    // A Task created in Salesforce whose answer never reached callsync (no mapping row): the pass
    // finds it by its key in CallObject and keeps it, instead of creating a second one.
    const again = await h.deps
      .platform('acme')
      .storage.sms.create({ to: customer, message: 'Out for delivery' });
    const direct = new SalesforceConnector(
      salesforceConfigSchema.parse({
        type: 'salesforce',
        instanceUrl: fake.url,
        accessToken: fake.token,
        apiVersion: fake.version,
      }),
    );
    const lost = await direct.createMessageLog({
      key: `acme:sms:${again.id}`,
      channel: 'sms',
      direction: 'outbound',
      at: new Date().toISOString(),
      fromNumber: null,
      toNumber: customer,
      title: `SMS to ${customer}`,
      body: 'Out for delivery',
      userEmail: null,
      contact: { crmId: grace, kind: 'contact', name: 'Grace Hopper', ownerId: null, updatedAt: null },
    });
    await sync('sms');
    expect((await pass()).sms).toBe(1);
    expect(logged(`acme:sms:${again.id}`).map((r) => r.Id)).toEqual([lost]);
    const mapped = await h.deps.warehouse.db
      .selectFrom('crm_objects')
      .selectAll()
      .where('source_key', '=', `acme:sms:${again.id}`)
      .execute();
    expect(mapped).toEqual([
      expect.objectContaining({
        destination: destinationIdOf(h.deps.crm('acme')),
        crm_id: lost,
        kind: 'sms',
      }),
    ]);
  });

  // Last, so the schedule's own runs cannot meet the passes above.
  it('has a conversations schedule for the account', async () => {
    expect(await applyConversationsSchedules(h.client, h.config)).toEqual({ acme: 'created' });
  });
});
