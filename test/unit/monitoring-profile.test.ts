// The docker-compose `monitoring` profile, checked on paper (no Docker engine here): the files parse,
// Prometheus scrapes the ports callsync serves metrics on, Grafana is provisioned with the dashboard,
// and every callsync_* metric the dashboard queries exists in lib/metrics.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createMetrics } from '../../lib/metrics';

const root = join(__dirname, '..', '..');
const yamlFile = <T>(path: string): T => parse(readFileSync(join(root, path), 'utf8')) as T;

interface Compose {
  services: Record<string, { profiles?: string[]; volumes?: string[]; command?: string[] }>;
}
interface ScrapeJob {
  job_name: string;
  static_configs?: { targets: string[] }[];
  dns_sd_configs?: { names: string[]; port: number }[];
}
interface Provisioning {
  datasources: Record<string, unknown>[];
  providers: { options: { path: string } }[];
}

describe('monitoring profile', () => {
  const compose = yamlFile<Compose>('docker-compose.yml');

  it('adds Prometheus and Grafana under the monitoring profile only, with their files mounted', () => {
    expect(compose.services.prometheus!.profiles).toEqual(['monitoring']);
    expect(compose.services.grafana!.profiles).toEqual(['monitoring']);
    expect(compose.services.prometheus!.volumes).toContain(
      './monitoring/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
    );
    expect(compose.services.grafana!.volumes).toEqual([
      './monitoring/grafana/provisioning:/etc/grafana/provisioning:ro',
      './monitoring/grafana/dashboards:/var/lib/grafana/dashboards:ro',
    ]);
    expect(compose.services.server!.profiles).toBeUndefined();
  });

  it('scrapes the server, the workers and the Temporal SDK', () => {
    const prom = yamlFile<{ scrape_configs: ScrapeJob[] }>('monitoring/prometheus.yml');
    const jobs = Object.fromEntries(prom.scrape_configs.map((j) => [j.job_name, j]));
    // The server's metrics port, not its public receiver port (8788).
    expect(jobs['callsync-server']!.static_configs![0]!.targets).toEqual(['server:9466']);
    expect(jobs['callsync-worker']!.dns_sd_configs![0]).toMatchObject({ names: ['worker'], port: 9465 });
    expect(jobs['temporal-sdk']!.dns_sd_configs![0]).toMatchObject({ names: ['worker'], port: 9464 });
    // The example config's workers serve on the ports scraped.
    const example = JSON.parse(readFileSync(join(root, 'callsync.example.json'), 'utf8')) as {
      metrics: { serverPort: number; workerPort: number; temporalSdkBindAddress: string };
    };
    expect(example.metrics.serverPort).toBe(9466);
    expect(example.metrics.workerPort).toBe(9465);
    expect(example.metrics.temporalSdkBindAddress).toMatch(/:9464$/);
    // The server's receiver port in compose is published; its metrics port is not.
    expect(compose.services.server!.command).toContain('8788');
    expect(JSON.stringify(compose.services.server)).not.toContain('9466');
  });

  it('provisions the data source and a dashboard whose queries name real metrics', () => {
    const ds = yamlFile<Provisioning>('monitoring/grafana/provisioning/datasources/prometheus.yml');
    expect(ds.datasources[0]).toMatchObject({
      type: 'prometheus',
      url: 'http://prometheus:9090',
      uid: 'callsync-prometheus',
    });
    const provider = yamlFile<Provisioning>('monitoring/grafana/provisioning/dashboards/callsync.yml');
    expect(provider.providers[0]!.options.path).toBe('/var/lib/grafana/dashboards');
    const dash = JSON.parse(
      readFileSync(join(root, 'monitoring/grafana/dashboards/callsync.json'), 'utf8'),
    ) as {
      uid: string;
      panels: { title: string; datasource: { uid: string }; targets: { expr: string }[] }[];
    };
    expect(dash.uid).toBe('callsync-overview');
    const known = new Set(
      createMetrics()
        .registry.getMetricsAsArray()
        .flatMap((m) =>
          String(m.type) === 'histogram'
            ? [`${m.name}_bucket`, `${m.name}_sum`, `${m.name}_count`]
            : [m.name],
        ),
    );
    const used = new Set<string>();
    for (const panel of dash.panels) {
      expect(panel.datasource.uid).toBe('callsync-prometheus');
      for (const t of panel.targets) for (const m of t.expr.matchAll(/\bcallsync_[a-z_]+/g)) used.add(m[0]);
    }
    expect([...used].filter((m) => !known.has(m))).toEqual([]);
    // Every metric the issue lists has a panel.
    for (const name of [
      'callsync_webhooks_received_total',
      'callsync_webhooks_rejected_total',
      'callsync_webhook_duration_seconds_bucket',
      'callsync_inbox_backlog',
      'callsync_relay_lag_seconds',
      'callsync_stream_records_total',
      'callsync_stream_errors_total',
      'callsync_stream_lag_seconds',
      'callsync_api_requests_total',
      'callsync_api_throttled_total',
      'callsync_crm_writes_total',
      'callsync_callbacks_opened_total',
      'callsync_callbacks_closed_total',
      'callsync_report_runs_total',
    ]) {
      expect(used).toContain(name);
    }
  });
});
