// Sync schedules against the real Temporal dev server: apply creates, re-apply changes nothing,
// a changed interval updates, a removed stream deletes; every schedule skips overlapping runs.
import { Client, Connection, ScheduleOverlapPolicy } from '@temporalio/client';
import { parseTestConfig } from '../support/test-config';
import type { CallsyncConfigInput } from '../../config/schema';
import { startTemporalDevServer, type RunningTemporal } from '../../local/temporal-dev-server';
import { applySchedules, desiredSchedules } from '../../runtime/schedules';

jest.setTimeout(90_000);

const account = (name: string) => ({
  name,
  platform: {
    baseUrl: 'http://127.0.0.1:9/v1.1/voipstudio',
    credentials: { type: 'apiKey' as const, userId: 1, apiKey: 'k' },
  },
});

const config = (over: Partial<CallsyncConfigInput['sync']> = {}, accounts = ['acme', 'globex']) =>
  parseTestConfig({
    accounts: accounts.map(account),
    temporal: { address: 'unused', taskQueue: 'schedules-test' },
    sync: { streams: ['cdrs', 'recordings', 'users'], ...over },
  });

describe('sync schedules', () => {
  let temporal: RunningTemporal;
  let connection: Connection;
  let client: Client;

  beforeAll(async () => {
    temporal = await startTemporalDevServer();
    connection = await Connection.connect({ address: temporal.address });
    client = new Client({ connection });
  }, 90_000);

  afterAll(async () => {
    await connection?.close();
    await temporal?.stop();
  });

  it('derives one schedule per account × stream with the interval of its kind', () => {
    const d = desiredSchedules(config({ historyInterval: '5m', settingsInterval: '1h' }));
    expect(d.map((s) => [s.id, s.intervalMs])).toEqual([
      ['sync-acme-cdrs', 300_000],
      ['sync-acme-recordings', 300_000],
      ['sync-acme-users', 3_600_000],
      ['sync-globex-cdrs', 300_000],
      ['sync-globex-recordings', 300_000],
      ['sync-globex-users', 3_600_000],
    ]);
    expect(desiredSchedules(parseTestConfig({ accounts: [account('a')] }))).toHaveLength(14);
  });

  it('creates, leaves unchanged, updates and deletes schedules to match the config', async () => {
    // No worker polls this task queue: triggered runs just wait, which is all this test needs.
    const first = await applySchedules(client, config(), { triggerImmediately: false });
    expect(first.created).toHaveLength(6);
    expect(first.updated).toEqual([]);
    expect(first.deleted).toEqual([]);

    const again = await applySchedules(client, config());
    expect(again.unchanged).toHaveLength(6);
    expect(again.created).toEqual([]);
    expect(again.updated).toEqual([]);

    const description = await client.schedule.getHandle('sync-acme-cdrs').describe();
    expect(description.policies.overlap).toBe(ScheduleOverlapPolicy.SKIP);
    expect(description.spec.intervals?.[0]?.every).toBe(300_000);
    expect(description.action.workflowType).toBe('syncStream');
    expect(description.action.workflowId).toBe('sync-acme-cdrs');
    expect(description.action.args).toEqual([{ account: 'acme', stream: 'cdrs' }]);
    expect(description.action.taskQueue).toBe('schedules-test');

    const changed = await applySchedules(client, config({ historyInterval: '2m' }));
    expect(changed.updated.sort()).toEqual([
      'sync-acme-cdrs',
      'sync-acme-recordings',
      'sync-globex-cdrs',
      'sync-globex-recordings',
    ]);
    expect(changed.unchanged.sort()).toEqual(['sync-acme-users', 'sync-globex-users']);
    const updated = await client.schedule.getHandle('sync-globex-recordings').describe();
    expect(updated.spec.intervals?.[0]?.every).toBe(120_000);
    expect(updated.policies.overlap).toBe(ScheduleOverlapPolicy.SKIP);

    const removed = await applySchedules(
      client,
      config({ historyInterval: '2m', streams: ['cdrs'] }, ['acme']),
    );
    expect(removed.deleted.sort()).toEqual([
      'sync-acme-recordings',
      'sync-acme-users',
      'sync-globex-cdrs',
      'sync-globex-recordings',
      'sync-globex-users',
    ]);
    expect(removed.unchanged).toEqual(['sync-acme-cdrs']);
  });
});
