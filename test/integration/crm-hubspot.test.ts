// The HubSpot connector through the official client against the local HubSpot (test/fakes): what only
// HubSpot has (its properties and association types, the key property, batch update, its 429s and
// errors). What every destination does (matching, one call log, task and message per key, lost
// answers, owners, outcomes, erasure, rate limits, token renewal) is test/conformance/hubspot.test.ts.
import { HubSpotConnector, hubspotConfigSchema } from '../../connectors/hubspot';
import { CrmError, CrmRateLimitedError } from '../../connectors/crm/errors';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { callbackTask, callLog, contact } from '../unit/crm-fixtures';

let fake: FakeHubSpot;
let hubspot: HubSpotConnector;

function connector(extra: Record<string, unknown> = {}, maxRetryAfterMs?: number) {
  const config = hubspotConfigSchema.parse({
    type: 'hubspot',
    accessToken: fake.token,
    basePath: fake.url,
    // The test server's search sees writes after 1 s: a lookup searches again after 2.
    searchLagSeconds: 2,
    ...extra,
  });
  return new HubSpotConnector(config, maxRetryAfterMs === undefined ? {} : { maxRetryAfterMs });
}

beforeAll(async () => {
  fake = await startFakeHubSpot();
  hubspot = connector();
  await hubspot.prepare();
});
afterAll(() => fake.close());

describe('HubSpotConnector', () => {
  it('callsync_key is a plain property: HubSpot has no unique values on calls and tasks', async () => {
    // https://developers.hubspot.com/docs/api/crm/properties: unique-value properties are for
    // contacts, companies, deals, tickets and custom objects.
    const bare = await startFakeHubSpot();
    try {
      const headers = { authorization: `Bearer ${bare.token}`, 'content-type': 'application/json' };
      const create = (type: string, groupName: string) =>
        fetch(`${bare.url}/crm/v3/properties/${type}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            name: 'unique_attempt',
            label: 'unique attempt',
            type: 'string',
            fieldType: 'text',
            groupName,
            hasUniqueValue: true,
          }),
        });
      for (const [type, group] of [
        ['calls', 'callinformation'],
        ['tasks', 'task'],
      ] as const) {
        const res = await create(type, group);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
      }
      expect((await create('contacts', 'contactinformation')).status).toBe(201);
      // What prepare() creates is a plain text property, which HubSpot takes on both.
      await new HubSpotConnector(
        hubspotConfigSchema.parse({ type: 'hubspot', accessToken: bare.token, basePath: bare.url }),
      ).prepare();
      for (const type of ['calls', 'tasks']) {
        const res = await fetch(`${bare.url}/crm/v3/properties/${type}/callsync_key`, { headers });
        expect(await res.json()).toMatchObject({ name: 'callsync_key', hasUniqueValue: false });
      }
    } finally {
      await bare.close();
    }
  });

  it('refuses writes of a property the portal does not have, as HubSpot does', async () => {
    const bare = await startFakeHubSpot();
    try {
      const fresh = new HubSpotConnector(
        hubspotConfigSchema.parse({ type: 'hubspot', accessToken: bare.token, basePath: bare.url }),
      );
      await expect(fresh.createCallLog(callLog())).rejects.toThrow(
        /callsync_key.*does not exist|does not exist.*callsync_key/,
      );
      await expect(fresh.findCallLog('acme:1')).rejects.toMatchObject({ status: 400 });
      await fresh.prepare();
      await fresh.prepare();
      expect(bare.customProperties('calls')).toEqual(['callsync_key']);
      await expect(fresh.createCallLog(callLog())).resolves.toMatch(/^\d+$/);
    } finally {
      await bare.close();
    }
  });

  it('creates callsync_key on calls, tasks, communications and notes once (a second run is a no-op)', async () => {
    await hubspot.prepare();
    const created = fake.requests.filter((r) => r.path.startsWith('/crm/v3/properties/') && r.status === 201);
    expect(created.map((r) => r.path).sort()).toEqual([
      '/crm/v3/properties/calls',
      '/crm/v3/properties/calls/groups',
      '/crm/v3/properties/communications',
      '/crm/v3/properties/communications/groups',
      '/crm/v3/properties/notes',
      '/crm/v3/properties/notes/groups',
      '/crm/v3/properties/tasks',
      '/crm/v3/properties/tasks/groups',
    ]);
  });

  it("writes a call in HubSpot's properties, associated with the contact, and the recording link on update", async () => {
    const contactId = fake.seedContact({ firstname: 'Ada', lastname: 'Lovelace', phone: '+442079460000' });
    const ownerId = fake.seedOwner('agent@example.com');
    const log = callLog({ contact: contact(contactId), userEmail: 'Agent@example.com' });
    const id = await hubspot.createCallLog(log);

    const call = fake.objects('calls').find((o) => o.id === id)!;
    expect(call.properties).toMatchObject({
      hs_timestamp: '2026-11-20T10:15:00.000Z',
      hs_call_direction: 'INBOUND',
      hs_call_status: 'COMPLETED',
      hs_call_duration: '125000',
      hs_call_from_number: '+442079460000',
      hubspot_owner_id: ownerId,
      callsync_key: log.key,
    });
    expect(call.associations).toEqual([{ toId: contactId, category: 'HUBSPOT_DEFINED', typeId: 194 }]);
    const sent = fake.requests.find((r) => r.method === 'POST' && r.path === '/crm/v3/objects/calls')!
      .body as {
      associations: unknown[];
    };
    expect(sent.associations).toEqual([
      { to: { id: contactId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 194 }] },
    ]);

    await hubspot.updateCallLog(id, {
      ...log,
      recordingUrl: 'https://rec.example/1.mp3',
      summary: 'Asked about the invoice.',
      transcriptExcerpt: 'Hello, I am calling about…',
    });
    expect(call.properties.hs_call_recording_url).toBe('https://rec.example/1.mp3');
    expect(call.properties.hs_call_body).toContain('Recording: https://rec.example/1.mp3');
  });

  it('updates several calls with one batch/update request', async () => {
    const a = callLog();
    const b = callLog({ status: 'missed', durationSeconds: 0 });
    const ids = [await hubspot.createCallLog(a), await hubspot.createCallLog(b)];
    const before = fake.requests.length;
    await hubspot.updateCallLogs([
      { crmId: ids[0]!, log: { ...a, summary: 'first' } },
      { crmId: ids[1]!, log: { ...b, summary: 'second' } },
    ]);
    const sent = fake.requests.slice(before);
    expect(sent.map((r) => r.path)).toEqual(['/crm/v3/objects/calls/batch/update']);
    const byId = new Map(fake.objects('calls').map((o) => [o.id, o]));
    expect(byId.get(ids[0]!)!.properties.hs_call_body).toBe('Summary: first');
    expect(byId.get(ids[1]!)!.properties.hs_call_status).toBe('NO_ANSWER');
  });

  it('writes a callback task as a HubSpot call task; an expired one is deferred', async () => {
    const contactId = fake.seedContact({ firstname: 'Grace', lastname: 'Hopper', phone: '+33612345678' });
    const task = callbackTask({ contact: contact(contactId) });
    const id = await hubspot.createTask(task);
    const stored = fake.objects('tasks').find((o) => o.id === id)!;
    expect(stored.properties).toMatchObject({
      hs_task_status: 'NOT_STARTED',
      hs_task_type: 'CALL',
      hs_task_priority: 'HIGH',
      hs_timestamp: '2026-11-20T11:15:00.000Z',
      callsync_key: task.key,
    });
    expect(stored.associations).toEqual([{ toId: contactId, category: 'HUBSPOT_DEFINED', typeId: 204 }]);
    // An expired callback (nobody reached the caller) is deferred, a status HubSpot's tasks accept.
    await hubspot.updateTask(id, { ...task, status: 'expired' });
    expect(stored.properties.hs_task_status).toBe('DEFERRED');
  });

  it('finds contacts by phone or mobile, and creates one for an unknown caller', async () => {
    const byPhone = fake.seedContact(
      { firstname: 'Alan', lastname: 'Turing', phone: '+441632960001' },
      '2026-01-01T00:00:00.000Z',
    );
    const byMobile = fake.seedContact({
      lastname: 'Kay',
      mobilephone: '+441632960001',
      hubspot_owner_id: '7',
    });
    fake.seedContact({ lastname: 'Other', phone: '+441632960002' });
    const found = await hubspot.findContactsByPhone('+441632960001');
    expect(found.map((c) => c.crmId).sort()).toEqual([byPhone, byMobile].sort());
    expect(found.find((c) => c.crmId === byMobile)).toMatchObject({
      kind: 'contact',
      name: 'Kay',
      ownerId: '7',
    });
    const search = fake.requests.filter((r) => r.path === '/crm/v3/objects/contacts/search').pop()!.body as {
      filterGroups: { filters: { propertyName: string }[] }[];
    };
    expect(search.filterGroups.map((g) => g.filters[0]!.propertyName)).toEqual([
      'phone',
      'mobilephone',
      'hs_searchable_calculated_phone_number',
      'hs_searchable_calculated_mobile_number',
    ]);

    const created = await hubspot.createContact({ phone: '+441632960003', name: 'Ada King Lovelace' });
    expect(created).toMatchObject({ kind: 'contact', name: 'Ada King Lovelace' });
    const stored = fake.objects('contacts').find((o) => o.id === created.crmId)!;
    expect(stored.properties).toMatchObject({
      phone: '+441632960003',
      firstname: 'Ada King',
      lastname: 'Lovelace',
    });
  });

  it('waits out a 429 with Retry-After and then succeeds', async () => {
    const throttled = hubspot.throttled;
    fake.rateLimitNext(1, 1);
    const started = Date.now();
    const id = await hubspot.createCallLog(callLog());
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(id).toMatch(/^\d+$/);
    expect(hubspot.throttled).toBe(throttled + 1);
  });

  it('throws a retryable CrmRateLimitedError when Retry-After is longer than it may wait', async () => {
    const impatient = connector({}, 500);
    fake.rateLimitNext(1, 30);
    const err = await impatient.createCallLog(callLog()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrmRateLimitedError);
    expect(err).toMatchObject({ retryable: true, retryAfterMs: 30_000, status: 429 });
  });

  it('turns HubSpot validation errors into non-retryable CrmErrors', async () => {
    const err = await hubspot.updateCallLog('999999', callLog()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrmError);
    expect(err).toMatchObject({ status: 404, retryable: false, code: 'OBJECT_NOT_FOUND' });

    const bad = await hubspot.createCallLog(callLog({ startedAt: 'not a date' })).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(RangeError);

    const unauthorised = new HubSpotConnector(
      hubspotConfigSchema.parse({ type: 'hubspot', accessToken: 'wrong', basePath: fake.url }),
    );
    const denied = await unauthorised.findCallLog('acme:1').catch((e: unknown) => e);
    expect(denied).toMatchObject({ status: 401, retryable: false, code: 'INVALID_AUTHENTICATION' });
  });
});
