import { RateGate, statusOfError } from '../../connectors/crm/rate-gate';
import { metrics } from '../../lib/metrics';

const counted = async (name: 'apiRequests' | 'apiThrottled' | 'apiErrors', labels: Record<string, string>) =>
  (await metrics()[name].get()).values
    .filter((v) => Object.entries(labels).every(([k, x]) => (v.labels as Record<string, unknown>)[k] === x))
    .reduce((n, v) => n + v.value, 0);

describe('CRM requests in callsync_api_* metrics', () => {
  it('counts each answer of a vendor by status class, 429s and failures', async () => {
    const time = { now: () => 0, sleep: async () => undefined };
    const gate = new RateGate({ destination: 'gate-metrics', requestsPerSecond: 1000, burst: 1000, time });
    const limited = (err: unknown) =>
      (err as { status?: number }).status === 429 ? { retryAfterMs: 1, message: 'slow down' } : null;
    let calls = 0;
    // 429 once (retried here), then OK; then a 503 and a 404 that pass through.
    await gate.run(async () => {
      if (calls++ === 0) throw Object.assign(new Error('429'), { status: 429 });
      return 'ok';
    }, limited);
    await expect(
      gate.run(() => Promise.reject(Object.assign(new Error('x'), { code: 503 })), limited),
    ).rejects.toThrow();
    await expect(
      gate.run(() => Promise.reject(Object.assign(new Error('y'), { statusCode: 404 })), limited),
    ).rejects.toThrow();
    const vendor = 'gate-metrics';
    expect(await counted('apiRequests', { vendor })).toBe(4);
    expect(await counted('apiRequests', { vendor, status: '2xx' })).toBe(1);
    expect(await counted('apiRequests', { vendor, status: '4xx' })).toBe(2);
    expect(await counted('apiThrottled', { vendor })).toBe(1);
    expect(await counted('apiErrors', { vendor })).toBe(1);
    expect(statusOfError(new Error('network'))).toBeUndefined();
  });
});
