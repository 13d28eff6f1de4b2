// The chaos run at a small size (bench/chaos/, `npm run chaos` at full size): two worker and two
// receiver processes on one PostgreSQL and one Temporal, a CDR backfill and simulated calls, while
// workers are killed with SIGKILL three times, a receiver, PostgreSQL and Temporal are restarted,
// and the platform, the webhooks and the CRM inject faults. Every fault must have happened, and
// nothing may be lost, duplicated or leaked into a log.
import { runChaos, type ChaosReport } from '../../bench/chaos/run';

// Generous: on a quiet machine the run takes a few minutes, but each of its seven process starts
// (the five worker starts bundle the workflows) can take a minute or more on a busy two-core one.
// The run's own deadline fails it loudly first, naming its last step.
jest.setTimeout(1_560_000);

describe('chaos run (small)', () => {
  let report: ChaosReport;

  beforeAll(async () => {
    report = await runChaos(
      { cdrs: 3_000, calls: 20, rate: 0.25, seed: 3, deadlineSeconds: 1_500, keep: false },
      (m) => process.stderr.write(`[chaos] ${m}\n`),
    );
  }, 1_560_000);

  it('injected every fault and made every kill and restart', () => {
    expect(report.notHappened).toEqual([]);
    for (const [name, count] of Object.entries(report.faults)) {
      expect([name, count > 0]).toEqual([name, true]);
    }
    expect(Object.keys(report.faults).sort()).toEqual(
      [
        'crm_429',
        'crm_5xx',
        'platform_429',
        'platform_500',
        'platform_503',
        'platform_reset',
        'platform_token_expiry',
        'webhook_dropped',
        'webhook_duplicate',
        'webhook_reordered',
      ].sort(),
    );
    expect(report.line.kills).toBe(3);
    expect(report.line.restarts).toBe(3);
  });

  it('lost, duplicated and leaked nothing', () => {
    const l = report.line;
    const found = {
      missing: l.missing,
      duplicates: l.duplicates,
      extra_crm_logs: l.extra_crm_logs,
      lost_webhooks: l.lost_webhooks,
      secrets_in_logs: l.secrets_in_logs,
    };
    const zero = { missing: 0, duplicates: 0, extra_crm_logs: 0, lost_webhooks: 0, secrets_in_logs: 0 };
    // On failure the run's own account says where.
    expect({ ...found, detail: found }).toEqual({ ...zero, detail: zero });
    expect(report.secretsFound).toEqual([]);
    // The run really covered something: every call, the acknowledged webhooks, the missed callers.
    expect(l.calls).toBeGreaterThanOrEqual(20);
    expect(report.detail.cdrs_platform).toBeGreaterThan(3_000);
    // At least ringing and hang-up of every call were acknowledged, drops injected or not.
    expect(report.detail.webhooks_acknowledged).toBeGreaterThanOrEqual(2 * l.calls);
    expect(report.detail.missed_calls).toBeGreaterThan(0);
    expect(report.detail.placed_recorded).toBeGreaterThan(0);
  });
});
