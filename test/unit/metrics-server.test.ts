import { createMetrics } from '../../lib/metrics';
import { startMetricsServer } from '../../runtime/metrics-server';

describe("a worker's metrics server", () => {
  it('serves the registry at /metrics and nothing else', async () => {
    const m = createMetrics();
    m.streamRecords.inc({ account: 'acme', stream: 'cdrs' }, 42);
    const server = await startMetricsServer(m.registry, 0, '127.0.0.1');
    try {
      const res = await fetch(server.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await res.text()).toContain('callsync_stream_records_total{account="acme",stream="cdrs"} 42');
      expect((await fetch(server.url.replace('/metrics', '/other'))).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('with a token, answers 401 to a scrape without it', async () => {
    const m = createMetrics();
    const token = 'a-metrics-token-0123456789';
    const server = await startMetricsServer(m.registry, 0, '127.0.0.1', { token });
    try {
      expect((await fetch(server.url)).status).toBe(401);
      expect((await fetch(server.url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const ok = await fetch(server.url, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
