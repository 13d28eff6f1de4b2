// SMS and voice messages on the HubSpot contact, end to end: the emulator sends sms.received (each
// delivery duplicated), the receiver starts the SMS's workflow at once, which stores it in the
// warehouse's sms table and logs it as a communication on the sender's contact; the SMS stream and
// the scheduled pass then see the same message and log nothing more. An SMS a user sent, and a voice
// message with its transcript, reach the contact through the pass, once.
import type { Client } from '@temporalio/client';
import { HubSpotConnector, hubspotConfigSchema } from '../../connectors/hubspot';
import {
  conversationsWorkflow,
  smsReceivedWorkflowId,
  syncStreamWorkflow,
  type SmsReceivedResult,
} from '../../contracts';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import type { SyncHarness } from '../integration/sync-harness';
import { startHubSpotStack, type HubSpotStack } from './crm-stack';
import { workflowResult } from '../support/workflow-result';

jest.setTimeout(300_000);

describe('SMS and voicemail on the CRM contact', () => {
  let fake: FakeHubSpot;
  let h: SyncHarness;
  let temporal: Client;
  let stack: HubSpotStack;
  let runs = 0;

  const control = (method: string, path: string, body?: unknown) => stack.control(method, path, body);
  const sync = (stream: string) =>
    h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `conv-sync-${stream}-${++runs}`,
      args: [{ account: 'acme', stream }],
    });
  const pass = () =>
    h.client.workflow.execute(conversationsWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `conv-pass-${++runs}`,
      args: [{ account: 'acme' }],
    });
  const logged = (key: string) =>
    [...fake.engagements('communications'), ...fake.engagements('notes')].filter(
      (e) => e.properties.callsync_key === key,
    );

  beforeAll(async () => {
    stack = await startHubSpotStack('conversations', ['sms_received', 'call_state_change']);
    ({ fake, h, temporal } = stack);
    // Every delivery twice: the receiver sees each sms.received again.
    await control('POST', '/webhooks/faults', { duplicate_probability: 1, seed: 3 });
    await control('PATCH', '/simulator', { speed: 30, advance_clock: false });
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('logs a received SMS at once on the sender’s contact, once across redelivery, the stream and the pass', async () => {
    const sender = '+447911123456';
    const ada = fake.seedContact({ firstname: 'Ada', lastname: 'Lovelace', mobilephone: sender });
    const { event } = (await control('POST', '/simulator/sms', {
      from: sender,
      text: 'Running late, sorry',
    })) as {
      event: { id: string };
    };
    const result = await workflowResult<SmsReceivedResult>(temporal, smsReceivedWorkflowId('acme', event.id));
    const key = `acme:sms:${result.smsId}`;
    expect(result.crmId).not.toBeNull();
    const [comm] = logged(key);
    expect(comm).toMatchObject({ type: 'communications', associations: [{ toId: ada, typeId: 81 }] });
    expect(comm!.properties.hs_communication_channel_type).toBe('SMS');
    expect(comm!.properties.hs_communication_body).toContain('Running late, sorry');
    // In the warehouse before any poll of the SMS stream.
    const stored = await h.deps.warehouse.db
      .selectFrom('sms')
      .select(['id', 'message'])
      .where('id', '=', result.smsId)
      .execute();
    expect(stored).toEqual([{ id: result.smsId, message: 'Running late, sorry' }]);

    await control('POST', '/webhooks/deliveries/wait', { timeout_ms: 20_000 });
    await sync('sms');
    expect(await pass()).toMatchObject({ sms: expect.any(Number) });
    expect(logged(key)).toHaveLength(1);
  });

  it('logs an SMS a user sent, and a voice message with its transcript, through the pass, once', async () => {
    const customer = '+447911123499';
    const grace = fake.seedContact({ firstname: 'Grace', lastname: 'Hopper', phone: customer });
    const sent = await h.deps
      .platform('acme')
      .storage.sms.create({ to: customer, message: 'Your order shipped' });
    const placed = (await control('POST', '/simulator/calls', {
      scenario: 'inbound_voicemail',
      caller: customer,
    })) as {
      call_id: number;
      ends_in_ms: number;
    };
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
    const [out] = logged(`acme:sms:${sent.id}`);
    expect(out).toMatchObject({ type: 'communications', associations: [{ toId: grace, typeId: 81 }] });
    expect(out!.properties.hs_communication_body).toContain(`SMS to ${customer}`);
    const [note] = logged(`acme:voicemail:${vm.id}`);
    expect(note).toMatchObject({ type: 'notes', associations: [{ toId: grace, typeId: 202 }] });
    expect(note!.properties.hs_note_body).toContain(`Voicemail from ${customer}`);
    expect(note!.properties.hs_note_body).toContain(
      vm.transcript ? `Transcript: ${vm.transcript}` : 'Transcript: none yet',
    );

    // Again: nothing new to log, nothing written twice.
    expect(await pass()).toEqual({ sms: 0, voicemail: 0, noContact: expect.any(Number) });
    expect(logged(`acme:sms:${sent.id}`)).toHaveLength(1);
    expect(logged(`acme:voicemail:${vm.id}`)).toHaveLength(1);
  });
});

describe('SMS on a HubSpot portal without communications', () => {
  it('are notes on the contact', async () => {
    const fake = await startFakeHubSpot({ communications: false });
    try {
      const hubspot = new HubSpotConnector(
        hubspotConfigSchema.parse({ type: 'hubspot', accessToken: fake.token, basePath: fake.url }),
      );
      await hubspot.prepare();
      const contact = fake.seedContact({ firstname: 'Ada', phone: '+447911123789' });
      const id = await hubspot.createMessageLog({
        key: 'acme:sms:1',
        channel: 'sms',
        direction: 'inbound',
        at: '2026-11-24T10:00:00.000Z',
        fromNumber: '+447911123789',
        toNumber: '+442071838750',
        title: 'SMS from +447911123789',
        body: 'See you at 3',
        userEmail: null,
        contact: { crmId: contact, kind: 'contact', name: 'Ada', ownerId: null, updatedAt: null },
      });
      expect(fake.engagements('communications')).toEqual([]);
      expect(fake.engagements('notes')).toEqual([
        expect.objectContaining({ id, associations: [{ toId: contact, typeId: 202 }] }),
      ]);
      expect(await hubspot.findMessageLog('acme:sms:1', { channel: 'sms' } as never)).toBe(id);
    } finally {
      await fake.close();
    }
  });
});
