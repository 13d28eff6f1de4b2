// Batched CRM writes keep the exactly-once rules of single writes, against the vendors' test servers
// and a real PostgreSQL mapping table: a lost mapping is found again (HubSpot's search by key, over
// its lag; Salesforce's SOQL), one bad record fails alone, concurrent batches of the same keys
// create each object once, lookups for many numbers take one search, and shared rate slots pace
// every connector together.
import { upsertCallLogBatch, upsertTaskBatch } from '../../connectors/crm/batch-upsert';
import { Coalescer } from '../../connectors/crm/coalescer';
import type { CrmContact } from '../../connectors/crm/crm-connector';
import { getMappings } from '../../connectors/crm/mapping';
import { sharedRateLimiters } from '../../connectors/crm/shared-rate-limiter';
import { HubSpotConnector, hubspotConfigSchema } from '../../connectors/hubspot';
import { SalesforceConnector, salesforceConfigSchema } from '../../connectors/salesforce';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';
import { maxInWindow } from '../support/sliding-window';
import { callbackTask, callLog } from '../unit/crm-fixtures';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

let w: MigratedWarehouse;
beforeAll(async () => {
  w = await createMigratedWarehouse('crm_batch_upsert');
});
afterAll(() => w.dispose());

const contact = (crmId: string): CrmContact => ({
  crmId,
  kind: 'contact',
  name: null,
  ownerId: null,
  updatedAt: null,
});

describe('batched writes to HubSpot', () => {
  let fake: FakeHubSpot;
  let hubspot: HubSpotConnector;
  beforeAll(async () => {
    fake = await startFakeHubSpot();
    hubspot = new HubSpotConnector(
      hubspotConfigSchema.parse({
        type: 'hubspot',
        accessToken: fake.token,
        basePath: fake.url,
        searchLagSeconds: 2,
      }),
    );
    await hubspot.prepare();
  });
  afterAll(() => fake.close());

  it('creates many logs in one request, then updates them in one request', async () => {
    const logs = [callLog(), callLog(), callLog()];
    const before = fake.counters.requests;
    const created = await upsertCallLogBatch(
      w.db,
      'hubspot',
      hubspot.batch,
      logs.map((item) => ({ item, mayExist: false })),
    );
    expect(fake.counters.requests - before).toBe(1);
    expect([...created.values()].map((r) => !(r instanceof Error) && r.outcome)).toEqual([
      'created',
      'created',
      'created',
    ]);
    const updated = await upsertCallLogBatch(
      w.db,
      'hubspot',
      hubspot.batch,
      logs.map((l) => ({ item: { ...l, summary: 'Asked for a quote' }, mayExist: false })),
    );
    expect(fake.counters.requests - before).toBe(2);
    for (const l of logs) {
      const r = updated.get(l.key);
      expect(r).toMatchObject({ outcome: 'updated', crmId: (created.get(l.key) as { crmId: string }).crmId });
      const objs = fake.objects('calls').filter((o) => o.properties.callsync_key === l.key);
      expect(objs).toHaveLength(1);
      expect(objs[0]!.properties.hs_call_body).toContain('Asked for a quote');
    }
  });

  it('finds a log whose mapping was lost by its key, created a moment before, and records it', async () => {
    const lost = callLog();
    const fresh = callLog();
    // An earlier attempt created it, then died before recording the mapping; the retry (which may
    // find it) comes at once, before HubSpot's search sees the create.
    await hubspot.batch.createCallLogs([lost]);
    const results = await upsertCallLogBatch(w.db, 'hubspot', hubspot.batch, [
      { item: lost, mayExist: true },
      { item: fresh, mayExist: false },
    ]);
    expect(results.get(lost.key)).toMatchObject({ outcome: 'recovered' });
    expect(results.get(fresh.key)).toMatchObject({ outcome: 'created' });
    for (const key of [lost.key, fresh.key]) {
      expect(fake.objects('calls').filter((o) => o.properties.callsync_key === key)).toHaveLength(1);
    }
    const mapped = await getMappings(w.db, 'hubspot', 'call_log', [lost.key, fresh.key]);
    expect(mapped.size).toBe(2);
  });

  it('fails only the bad record of a batch', async () => {
    const good = callLog();
    const bad = callLog({ contact: contact('999999999') });
    const results = await upsertCallLogBatch(w.db, 'hubspot', hubspot.batch, [
      { item: good, mayExist: false },
      { item: bad, mayExist: false },
    ]);
    expect(results.get(good.key)).toMatchObject({ outcome: 'created' });
    expect(results.get(bad.key)).toBeInstanceOf(Error);
    expect(fake.objects('calls').filter((o) => o.properties.callsync_key === bad.key)).toHaveLength(0);
  });

  it('creates each task once when two batches of the same keys race', async () => {
    const tasks = [callbackTask(), callbackTask()];
    const entries = tasks.map((item) => ({ item, mayExist: true }));
    const [a, b] = await Promise.all([
      upsertTaskBatch(w.db, 'hubspot', hubspot.batch, entries),
      upsertTaskBatch(w.db, 'hubspot', hubspot.batch, entries),
    ]);
    for (const t of tasks) {
      expect(fake.objects('tasks').filter((o) => o.properties.callsync_key === t.key)).toHaveLength(1);
      expect((a.get(t.key) as { crmId: string }).crmId).toBe((b.get(t.key) as { crmId: string }).crmId);
    }
  });

  it('looks many numbers up in one search', async () => {
    const ids = ['+442079460101', '+442079460102', '+14155550103'].map((phone) =>
      fake.seedContact({ phone }),
    );
    const before = fake.requests.length;
    const found = await hubspot.batch.findContactsByPhones([
      '+442079460101',
      '+442079460102',
      '+14155550103',
      '+442079469999',
    ]);
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual(['/crm/v3/objects/contacts/search']);
    expect([...found.entries()].map(([n, c]) => [n, c.map((x) => x.crmId)])).toEqual([
      ['+442079460101', [ids[0]]],
      ['+442079460102', [ids[1]]],
      ['+14155550103', [ids[2]]],
    ]);
  });

  it('paces connectors together through the shared rate slots', async () => {
    const limited = await startFakeHubSpot({ limits: false });
    try {
      const config = hubspotConfigSchema.parse({
        type: 'hubspot',
        accessToken: limited.token,
        basePath: limited.url,
        requestsPer10Seconds: 20,
      });
      const limiters = sharedRateLimiters(w.db, 'hubspot');
      const two = [new HubSpotConnector(config, { limiters }), new HubSpotConnector(config, { limiters })];
      const started = Date.now();
      // 30 requests from two connectors (two workers): more than one 10-second window allows.
      await Promise.all(
        two.flatMap((c) => Array.from({ length: 15 }, (_, i) => c.ownerId(`user${i}@example.com`))),
      );
      const times = limited.requests.filter((r) => r.at >= started).map((r) => r.at);
      expect(times).toHaveLength(30);
      expect(maxInWindow(times, 10_000)).toBeLessThanOrEqual(20);
    } finally {
      await limited.close();
    }
  }, 60_000);
});

describe('batched writes to Salesforce', () => {
  let fake: FakeSalesforce;
  let salesforce: SalesforceConnector;
  beforeAll(async () => {
    fake = await startFakeSalesforce();
    salesforce = new SalesforceConnector(
      salesforceConfigSchema.parse({ type: 'salesforce', instanceUrl: fake.url, accessToken: fake.token }),
    );
  });
  afterAll(() => fake.close());

  it('creates in one collection request, finds a lost mapping on retry, and fails a bad record alone', async () => {
    const lost = callLog();
    await salesforce.batch.createCallLogs([lost]);
    const fresh = callLog();
    const bad = callLog({ contact: contact('003000000999999AAA') });
    const before = fake.counters.requests;
    const results = await upsertCallLogBatch(w.db, 'salesforce', salesforce.batch, [
      { item: lost, mayExist: true },
      { item: fresh, mayExist: true },
      { item: bad, mayExist: true },
    ]);
    // One SOQL for the three keys, one collection create, one collection update (the recovered log).
    expect(fake.counters.requests - before).toBe(3);
    expect(results.get(lost.key)).toMatchObject({ outcome: 'recovered' });
    expect(results.get(fresh.key)).toMatchObject({ outcome: 'created' });
    expect(results.get(bad.key)).toBeInstanceOf(Error);
    const calls = fake.records('Task').filter((r) => r.fields.TaskSubtype === 'Call');
    for (const key of [lost.key, fresh.key]) {
      expect(calls.filter((r) => r.fields.CallObject === key)).toHaveLength(1);
    }
    expect(calls.filter((r) => r.fields.CallObject === bad.key)).toHaveLength(0);
  });

  it('looks many numbers up in one SOSL search', async () => {
    const a = fake.seed('Contact', { LastName: 'A', Phone: '+44 20 7946 0201' });
    const b = fake.seed('Lead', { LastName: 'B', Company: 'B Ltd', MobilePhone: '020 7946 0202' });
    const before = fake.requests.length;
    const found = await salesforce.batch.findContactsByPhones([
      '+442079460201',
      '+442079460202',
      '+442079460203',
    ]);
    expect(fake.requests.slice(before)).toHaveLength(1);
    expect(found.get('+442079460201')?.map((c) => c.crmId)).toEqual([a]);
    expect(found.get('+442079460202')?.map((c) => [c.crmId, c.kind])).toEqual([[b, 'lead']]);
    expect(found.has('+442079460203')).toBe(false);
  });
});

describe('coalescing concurrent requests', () => {
  it('flushes what arrived within the wait as one batch, one item per key (the last wins)', async () => {
    const flushed: string[][] = [];
    const c = new Coalescer<{ key: string; v: number }, number>(
      (i) => i.key,
      async (items) => {
        flushed.push(items.map((i) => `${i.key}=${i.v}`));
        return new Map(items.map((i) => [i.key, i.v]));
      },
      { maxItems: 3, lingerMs: 50 },
    );
    const results = await Promise.all([
      c.submit({ key: 'a', v: 1 }),
      c.submit({ key: 'b', v: 2 }),
      c.submit({ key: 'a', v: 3 }),
    ]);
    expect(results).toEqual([3, 2, 3]);
    expect(flushed).toEqual([['a=3', 'b=2']]);
    // A full batch goes at once, without waiting.
    await Promise.all(['x', 'y', 'z', 'w'].map((key, v) => c.submit({ key, v })));
    expect(flushed.slice(1)).toEqual([['x=0', 'y=1', 'z=2'], ['w=3']]);
  });
});
