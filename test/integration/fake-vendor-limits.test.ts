// The CRM test servers enforce the vendors' documented limits, so callsync's pacing and batching are
// measured against the real thing: HubSpot's rolling 10-second and per-second search limits and batch
// size, Salesforce's collection size and daily allowance.
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';

describe('HubSpot test server limits', () => {
  let fake: FakeHubSpot;
  const send = (path: string, body: unknown) =>
    fetch(`${fake.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const search = () =>
    send('/crm/v3/objects/contacts/search', {
      filterGroups: [{ filters: [{ propertyName: 'phone', operator: 'IN', values: ['+1', '+2'] }] }],
    });

  beforeEach(async () => {
    fake = await startFakeHubSpot({ limits: { per10Seconds: 12 } });
  });
  afterEach(() => fake.close());

  it('answers 429 TEN_SECONDLY_ROLLING with HubSpot headers beyond the rolling limit', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 14; i++) {
      last = await send('/crm/v3/objects/calls/batch/read', { inputs: [{ id: '1' }] });
      statuses.push(last.status);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    expect(statuses.slice(0, 12).every((s) => s !== 429)).toBe(true);
    expect(last!.headers.get('x-hubspot-ratelimit-max')).toBe('12');
    expect(last!.headers.get('x-hubspot-ratelimit-remaining')).toBe('0');
    expect(last!.headers.get('x-hubspot-ratelimit-interval-milliseconds')).toBe('10000');
    expect(await last!.json()).toMatchObject({ errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING' });
    expect(fake.counters).toMatchObject({ requests: 14, limited: 2, byPolicy: { TEN_SECONDLY_ROLLING: 2 } });
  });

  it('allows 5 searches a second, and matches IN over many values', async () => {
    fake.seedContact({ phone: '+1' });
    const answers = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => search()));
    const limited = answers.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(await limited[0]!.json()).toMatchObject({ policyName: 'SECONDLY' });
    const ok = answers.find((r) => r.status === 200)!;
    expect(((await ok.json()) as { total: number }).total).toBe(1);
  });

  it('refuses a batch of more than 100 inputs', async () => {
    const fakeFull = await startFakeHubSpot();
    try {
      const res = await fetch(`${fakeFull.url}/crm/v3/objects/calls/batch/update`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fakeFull.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          inputs: Array.from({ length: 101 }, (_, i) => ({ id: String(i), properties: {} })),
        }),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/limit is 100/);
    } finally {
      await fakeFull.close();
    }
  });
});

describe('Salesforce test server limits', () => {
  let fake: FakeSalesforce;
  const base = () => `${fake.url}/services/data/v${fake.version}`;
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${base()}${path}`, {
      method,
      headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  beforeEach(async () => {
    fake = await startFakeSalesforce({ dailyApiRequests: 5 });
  });
  afterEach(() => fake.close());

  it('refuses a collection of more than 200 records, and creates up to 200 in order', async () => {
    const task = (i: number) => ({ attributes: { type: 'Task' }, Subject: `t${i}` });
    const big = await call('POST', '/composite/sobjects', {
      records: Array.from({ length: 201 }, (_, i) => task(i)),
    });
    expect(big.status).toBe(400);
    expect(await big.json()).toEqual([expect.objectContaining({ errorCode: 'EXCEEDED_ID_LIMIT' })]);
    const ok = await call('POST', '/composite/sobjects', { records: [task(1), task(2)] });
    const saved = (await ok.json()) as { id: string; success: boolean }[];
    expect(saved.map((r) => r.success)).toEqual([true, true]);
    expect(fake.records('Task').map((r) => [r.Id, r.fields.Subject])).toEqual([
      [saved[0]!.id, 't1'],
      [saved[1]!.id, 't2'],
    ]);
  });

  it('counts every call against the daily allowance, reports it, and refuses beyond it', async () => {
    const first = await call('GET', '/limits');
    expect(first.headers.get('sforce-limit-info')).toBe('api-usage=1/5');
    expect(await first.json()).toEqual({ DailyApiRequests: { Max: 5, Remaining: 4 } });
    for (let i = 0; i < 4; i++) expect((await call('GET', '/limits')).status).toBe(200);
    const refused = await call('GET', '/limits');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual([expect.objectContaining({ errorCode: 'REQUEST_LIMIT_EXCEEDED' })]);
    expect(fake.counters).toMatchObject({ requests: 6, limited: 1 });
  });
});
