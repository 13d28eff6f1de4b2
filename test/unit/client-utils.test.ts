// Pure helpers of the platform client: filter builder, dates, paths, backoff; its rate limiting.
import {
  backoffDelay,
  encodeFilter,
  expandPath,
  filter,
  toPlatformDate,
  type Cdr,
} from '../../connectors/platform';
import { json, testClient } from './client-fakes';

describe('filter builder', () => {
  it('builds the platform filter JSON with each operator', () => {
    const json = filter<Cdr>()
      .eq('type', 'M')
      .like('src', '+44%')
      .gt('billsec', 0)
      .gte('calldate', '2025-01-01 00:00:00')
      .lt('id', 100)
      .lte('charge', 1.5)
      .build();
    expect(JSON.parse(json)).toEqual([
      { property: 'type', operator: 'eq', value: 'M' },
      { property: 'src', operator: 'like', value: '+44%' },
      { property: 'billsec', operator: 'gt', value: 0 },
      { property: 'calldate', operator: 'gte', value: '2025-01-01 00:00:00' },
      { property: 'id', operator: 'lt', value: 100 },
      { property: 'charge', operator: 'lte', value: 1.5 },
    ]);
  });

  it('formats Date values as platform dates and is immutable', () => {
    const base = filter<Cdr>().gte('calldate', new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
    const narrower = base.lt('calldate', '2026-02-01 00:00:00');
    expect(base.toArray()).toEqual([{ property: 'calldate', operator: 'gte', value: '2026-01-02 03:04:05' }]);
    expect(narrower.toArray()).toHaveLength(2);
  });

  it('accepts a builder, a plain array or JSON text, and drops empty filters', () => {
    const conds = [{ property: 'live_id', operator: 'eq' as const, value: 99 }];
    expect(encodeFilter(conds)).toBe(JSON.stringify(conds));
    expect(encodeFilter(filter().eq('live_id', 99))).toBe(JSON.stringify(conds));
    expect(encodeFilter('[{"property":"a","operator":"=","value":1}]')).toBe(
      '[{"property":"a","operator":"=","value":1}]',
    );
    expect(encodeFilter([])).toBeUndefined();
    expect(encodeFilter(filter())).toBeUndefined();
    expect(encodeFilter(undefined)).toBeUndefined();
  });

  it('formats dates in UTC and rejects invalid ones', () => {
    expect(toPlatformDate(new Date('2026-11-01T12:00:00.999Z'))).toBe('2026-11-01 12:00:00');
    expect(() => toPlatformDate(new Date('nope'))).toThrow(RangeError);
  });
});

describe('expandPath', () => {
  it('encodes each parameter', () => {
    expect(expandPath('/cdrs/{id}.trace', { id: 12 })).toBe('/cdrs/12.trace');
    expect(expandPath('/ddis/{e164}', { e164: '+44 20/7' })).toBe('/ddis/%2B44%2020%2F7');
    expect(expandPath('/users/{id}/smsthreads/{from}/{to}', { id: 1, from: 'a?b', to: 'c#d' })).toBe(
      '/users/1/smsthreads/a%3Fb/c%23d',
    );
  });

  it('joins {ids} lists with commas and accepts a single id', () => {
    expect(expandPath('/monitors/{ids}', { ids: [1, 2, 3] })).toBe('/monitors/1,2,3');
    expect(expandPath('/monitors/{ids}', { ids: 5 })).toBe('/monitors/5');
    expect(expandPath('/contacts/{ids}', { ids: ['7', 'x,y'] })).toBe('/contacts/7,x%2Cy');
  });

  it('rejects missing, unused, empty, dot-segment and non-finite parameters', () => {
    expect(() => expandPath('/cdrs/{id}', {})).toThrow(/missing/);
    expect(() => expandPath('/cdrs', { id: 1 })).toThrow(/not in/);
    expect(() => expandPath('/monitors/{ids}', { ids: [] })).toThrow(/empty/);
    expect(() => expandPath('/cdrs/{id}', { id: '' })).toThrow(/empty/);
    expect(() => expandPath('/users/{id}', { id: '..' })).toThrow(/dot/);
    expect(() => expandPath('/cdrs/{id}', { id: Number.NaN })).toThrow(/finite/);
  });

  it('stops a client call with a bad id before any request', async () => {
    const { client, seen } = testClient(() => new Response(null, { status: 204 }));
    await expect(client.history.monitors.delete([])).rejects.toThrow(TypeError);
    expect(seen).toHaveLength(0);
  });
});

describe('backoff', () => {
  it('backs off exponentially with full jitter under a cap', () => {
    const opts = { baseMs: 250, capMs: 5000 };
    expect(backoffDelay(0, { ...opts, random: () => 0.999 })).toBe(249);
    expect(backoffDelay(3, { ...opts, random: () => 0.999 })).toBe(1998);
    expect(backoffDelay(10, { ...opts, random: () => 0.999 })).toBe(4995);
    expect(backoffDelay(2, { ...opts, random: () => 0 })).toBe(0);
  });
});

describe('rate limiting', () => {
  it('spaces client requests by requestsPerSecond', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const sentAt: number[] = [];
      const { client } = testClient(
        () => {
          sentAt.push(Date.now() - 1_000_000);
          return json(200, { data: { id: 1 }, links: {} });
        },
        {
          requestsPerSecond: 5,
          burst: 1,
          now: () => Date.now(),
          sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        },
      );
      const all = Promise.all([
        client.history.cdrs.get(1),
        client.history.cdrs.get(2),
        client.history.cdrs.get(3),
      ]);
      await jest.advanceTimersByTimeAsync(1000);
      await all;
      expect(sentAt).toEqual([0, 200, 400]);
    } finally {
      jest.useRealTimers();
    }
  });
});
