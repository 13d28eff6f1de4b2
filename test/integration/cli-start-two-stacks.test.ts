// Two clones running `npm start` on one machine at the same time, both preferring the same
// Temporal port: each gets a Temporal of its own (one takes another port and says so), each
// server has only its own worker polling, and each warehouse fills from its own workflows.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { freePort } from '../../lib/free-port';
import { eventually } from '../support/eventually';
import { cliEnv, runCli, startCli, stopCli, type StartedCli } from './cli-process';

jest.setTimeout(240_000);

describe('two local stacks side by side', () => {
  const stacks: StartedCli[] = [];
  afterAll(async () => {
    await Promise.all(
      stacks.map(async (s) => {
        if (s.child.exitCode === null) await stopCli(s, 'SIGINT').catch(() => undefined);
      }),
    );
  });

  it('each runs its own Temporal and sees only its own worker and data', async () => {
    const port = await freePort();
    const dirs = [0, 1].map((i) => join(mkdtempSync(join(tmpdir(), `callsync-clone${i}-`)), 'data'));
    const envs = dirs.map((d) => cliEnv({ CALLSYNC_DATA_DIR: d, CALLSYNC_LOG_LEVEL: 'info' }));
    for (const env of envs)
      stacks.push(startCli(['start', '--emulator-cdrs', '300', '--temporal-port', String(port)], env));
    await Promise.all(stacks.map((s) => s.banner(150_000)));

    const addresses = stacks.map((s) => s.bannerValue('Temporal'));
    expect(addresses[0]).not.toBe(addresses[1]);
    const onPreferred = addresses.indexOf(`127.0.0.1:${port}`);
    expect(onPreferred).toBeGreaterThanOrEqual(0);
    const other = stacks[1 - onPreferred]!;
    expect(other.stderr()).toMatch(
      new RegExp(`port ${port} \\(Temporal\\) is taken|could not start on 127\\.0\\.0\\.1:${port}`),
    );

    // Each Temporal has exactly its own stack's worker polling the task queue.
    for (const [i, stack] of stacks.entries()) {
      const connection = await Connection.connect({ address: addresses[i]! });
      try {
        const pollers = await eventually(async () => {
          const res = await connection.workflowService.describeTaskQueue({
            namespace: 'default',
            taskQueue: { name: 'callsync' },
          });
          return res.pollers.length ? res.pollers : undefined;
        }, `a worker polling on ${addresses[i]}`);
        for (const p of pollers) expect(p.identity).toMatch(new RegExp(`^${stack.child.pid}@`));
      } finally {
        await connection.close();
      }
    }

    // Each warehouse fills from its own stack's schedules.
    for (const env of envs) {
      await eventually(
        async () => {
          const status = runCli(['status', '--json'], env);
          if (status.status !== 0) throw new Error(`status failed: ${status.stderr}`);
          const rows = JSON.parse(status.stdout) as Array<{ stream: string; records: number }>;
          return rows.find((r) => r.stream === 'cdrs' && r.records >= 300);
        },
        'the CDRs in each warehouse',
        90_000,
      );
    }

    for (const stack of stacks) expect(await stopCli(stack, 'SIGINT')).toBe(0);
  });
});
