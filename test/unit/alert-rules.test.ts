// monitoring/'s Prometheus files checked by Prometheus's own promtool: the config (and the rule
// files it names) is valid, and every alert rule fires on the series of monitoring/alerts.test.yml
// and stays quiet on the others. The rules only watch metrics callsync exports.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createMetrics } from '../../lib/metrics';

const monitoring = join(__dirname, '..', '..', 'monitoring');
const PROMTOOL = process.env.CALLSYNC_PROMTOOL ?? 'promtool';

interface Rule {
  alert?: string;
  expr: string;
}

function promtool(args: string[]): { status: number | null; output: string } {
  const run = spawnSync(PROMTOOL, args, { cwd: monitoring, encoding: 'utf8', timeout: 60_000 });
  if (run.error) {
    throw new Error(
      `this test needs promtool (${PROMTOOL}): apt-get install prometheus (Debian's package has it; ` +
        `scripts/debian-packages.sh installs it), or set CALLSYNC_PROMTOOL to its path. ${run.error.message}`,
    );
  }
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const rules = (
  parse(readFileSync(join(monitoring, 'alerts.yml'), 'utf8')) as { groups: { rules: Rule[] }[] }
).groups.flatMap((g) => g.rules);

describe('alert rules', () => {
  it('prometheus.yml is valid and loads alerts.yml (promtool check config)', () => {
    const { status, output } = promtool(['check', 'config', 'prometheus.yml']);
    expect(output).toContain('alerts.yml');
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') as string });
  });

  it('every rule passes its unit tests (promtool test rules)', () => {
    const { status, output } = promtool(['test', 'rules', 'alerts.test.yml']);
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') as string });
  });

  it('covers what operators need, each rule tested firing', () => {
    const names = rules.map((r) => r.alert);
    for (const alert of [
      'CallsyncSyncLag',
      'CallsyncQuarantineGrowing',
      'CallsyncCallFailures',
      'CallsyncCrmSetupFailing',
      'CallsyncArchiveBacklog',
      'CallsyncTokenRefreshFailing',
    ])
      expect(names).toContain(alert);
    const tests = parse(readFileSync(join(monitoring, 'alerts.test.yml'), 'utf8')) as {
      tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
    };
    const firing = new Set(
      tests.tests.flatMap((t) =>
        t.alert_rule_test.filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname),
      ),
    );
    expect([...firing].sort()).toEqual([...names].sort());
  });

  it('watches only metrics callsync exports', async () => {
    const exported = new Set((await createMetrics().registry.getMetricsAsJSON()).map((m) => m.name));
    const watched = new Set(rules.flatMap((r) => r.expr.match(/\bcallsync_[a-z_]+/g) ?? []));
    expect(watched.size).toBeGreaterThan(5);
    for (const name of watched) expect(exported).toContain(name);
  });
});
