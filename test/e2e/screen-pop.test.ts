// Screen-pop end to end: the emulator's simulator rings inbound calls and sends call.ringing to the
// receiver; the receiver starts the call's screen-pop at once, which finds the caller in HubSpot (the
// local fake) and puts the contact's page, or "create contact" for an unknown caller, on the live
// call. A redelivered call.ringing starts nothing more, and a second call from the same number is
// answered from the contact cache without searching HubSpot again.
import type { Client } from '@temporalio/client';
import { findCrmContactByPhone } from '../../connectors/postgres';
import { screenPopWorkflowId, type ScreenPopResult } from '../../contracts';
import type { RunningServer } from '../../server';
import type { FakeHubSpot } from '../fakes/hubspot-server';
import type { SyncHarness } from '../integration/sync-harness';
import { startHubSpotStack, type HubSpotStack } from './crm-stack';
import { eventually } from '../support/eventually';
import { workflowResult } from '../support/workflow-result';
import { destinationIdOf } from '../../connectors/crm/crm-connector';

jest.setTimeout(240_000);

describe('screen-pop on ringing inbound calls', () => {
  let fake: FakeHubSpot;
  let h: SyncHarness;
  // The account's own contact cache, at its destination (portal or org).
  const cacheOf = (account: string) => ({ account, destination: destinationIdOf(h.deps.crm(account)) });
  let server: RunningServer;
  let temporal: Client;
  let stack: HubSpotStack;

  const control = (method: string, path: string, body?: unknown) => stack.control(method, path, body);
  const ring = async (caller: string) =>
    (await control('POST', '/simulator/calls', { scenario: 'inbound_answered', caller, talk_s: 120 })) as {
      call_id: number;
    };
  // The screen-pop starts when call.ringing reaches the receiver, a moment after the call is placed.
  const result = (callId: number) =>
    workflowResult<ScreenPopResult>(temporal, screenPopWorkflowId('acme', callId));
  const searches = () => fake.requests.filter((r) => r.path === '/crm/v3/objects/contacts/search').length;

  beforeAll(async () => {
    stack = await startHubSpotStack('screen-pop', ['call_state_change']);
    ({ fake, h, server, temporal } = stack);
    await control('PATCH', '/simulator', { speed: 2, advance_clock: false });
  }, 200_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("links a known caller's ringing call to their HubSpot page, once, and the next call from the cache", async () => {
    const caller = '+442079460321';
    const ada = fake.seedContact({ firstname: 'Ada', lastname: 'Lovelace', phone: caller });
    const { call_id: callId } = await ring(caller);
    const popped = await result(callId);
    expect(popped).toMatchObject({ outcome: 'contact', crmId: ada, source: 'crm' });
    // It ran at the highest priority, ahead of any backlog of call workflows on the queue.
    const described = await temporal.workflow.getHandle(screenPopWorkflowId('acme', callId)).describe();
    expect(described.priority?.priorityKey).toBe(1);

    const live = await h.deps.platform('acme').calls.get(callId);
    expect(live).toMatchObject({
      action_url: `https://app.hubspot.com/contacts/${fake.portalId}/record/0-1/${ada}`,
      action_text: 'Open Ada Lovelace in the CRM',
    });
    // The answer went into the contact cache.
    const cached = await findCrmContactByPhone(h.deps.warehouse.db, cacheOf('acme'), caller);
    expect(cached?.contacts.map((c) => c.crmId)).toEqual([ada]);

    // A redelivered call.ringing reaches the receiver again: no second screen-pop, no second search.
    const before = searches();
    const redelivered = {
      id: `redelivery-${callId}`,
      event_name: 'call.ringing',
      event_time: '2026-11-24 10:00:00',
      call_id: callId,
      state: 'RINGING',
      destination: 'in',
      src: caller,
      dst: '101',
    };
    const res = await fetch(server.webhookUrl('acme', stack.secret), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(redelivered),
    });
    expect(res.status).toBe(200);

    // Another call from the same number, rung after the redelivery was acknowledged (the receiver hands
    // a delivery to its fast path before answering): linked from the cache, HubSpot not searched. Once
    // its screen-pop has answered, the redelivery's had its turn before it.
    const second = await ring(caller);
    expect(await result(second.call_id)).toMatchObject({ outcome: 'contact', crmId: ada });
    expect(searches()).toBe(before);
    // The redelivery started no second run: the call's screen-pop is still its first run.
    const again = await temporal.workflow.getHandle(screenPopWorkflowId('acme', callId)).describe();
    expect(again.runId).toBe(described.runId);
    const runs = [];
    for await (const w of temporal.workflow.list({
      query: `WorkflowId = '${screenPopWorkflowId('acme', callId)}'`,
    }))
      runs.push(w);
    expect(runs).toHaveLength(1);
  });

  it('links an unknown caller to HubSpot’s contacts page to create them', async () => {
    const caller = '+442079460999';
    const { call_id: callId } = await ring(caller);
    expect(await result(callId)).toMatchObject({ outcome: 'create' });
    const live = await eventually(async () => {
      const call = await h.deps.platform('acme').calls.get(callId);
      return call.action_url ? call : undefined;
    }, 'the link on the live call');
    expect(live.action_url).toBe(
      `https://app.hubspot.com/contacts/${fake.portalId}/objects/0-1/views/all/list`,
    );
    expect(live.action_text).toBe(`Create a contact for ${caller}`);
    // The miss is remembered, so the next ring does not search again at once.
    expect((await findCrmContactByPhone(h.deps.warehouse.db, cacheOf('acme'), caller))?.contacts).toEqual([]);
  });
});
