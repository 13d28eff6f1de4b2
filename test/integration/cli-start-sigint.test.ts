// Ctrl-C of `callsync start` under webhook load stops things in order: the receiver stops taking
// webhooks and finishes its inbox commits, then the worker, Temporal, and PostgreSQL last. Every
// webhook it acknowledged is in the inbox, it exits 0, and nothing fails on a closed database.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../local/embedded-postgres';
import { cliEnv, startCli, stopCli, type StartedCli } from './cli-process';

jest.setTimeout(180_000);

describe('callsync start on Ctrl-C', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'callsync-sigint-')), 'data');
  const env = cliEnv({ CALLSYNC_DATA_DIR: dataDir, CALLSYNC_LOG_LEVEL: 'info' });
  let cli: StartedCli | undefined;

  afterAll(async () => {
    if (cli && cli.child.exitCode === null) await stopCli(cli, 'SIGKILL').catch(() => undefined);
  });

  it('keeps every acknowledged webhook, exits 0 and reports no error when stopped under load', async () => {
    cli = startCli(['start', '--emulator-cdrs', '300'], env);
    await cli.banner();
    const receiver = cli.bannerValue('webhook receiver').replace(/\/webhooks\/.*$/, '');
    const stackFile = JSON.parse(readFileSync(join(dataDir, 'local-stack.json'), 'utf8')) as {
      config: { accounts: Array<{ name: string; webhookSecret: string }> };
    };
    const account = stackFile.config.accounts[0]!;
    const url = `${receiver}/webhooks/${account.name}/${account.webhookSecret}`;

    const acknowledged: string[] = [];
    let seq = 0;
    let exited = false;
    void cli.exited.then(() => (exited = true));
    const sender = async (): Promise<void> => {
      while (!exited) {
        seq += 1;
        const id = `sigint-${process.pid}-${seq}`;
        const body = JSON.stringify({
          id,
          event_time: '2026-11-30 10:00:00',
          event_name: 'call.ringing',
          call_id: 700_000 + (seq % 50),
          state: 'RINGING',
          src: '+442071234567',
          dst: '101',
        });
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          if (res.ok) acknowledged.push(id);
          else await res.arrayBuffer();
        } catch {
          await new Promise((r) => setTimeout(r, 20)); // refused once the receiver has stopped
        }
      }
    };
    const senders = Array.from({ length: 8 }, () => sender());
    while (acknowledged.length < 300) await new Promise((r) => setTimeout(r, 50));

    const code = await stopCli(cli, 'SIGINT');
    await Promise.all(senders);
    expect(code).toBe(0);
    expect(cli.stderr()).not.toMatch(/unhandled|uncaught|Connection terminated|terminating connection/i);
    expect(cli.stderr()).not.toMatch(/"level":(50|60)/);
    expect(cli.stderr()).toMatch(/"msg":"stopped"/);

    // The inbox, read from the stopped stack's own PostgreSQL.
    const pg = await startEmbeddedPostgres({ dataDir: join(dataDir, 'postgres'), persistent: true });
    const client = new Client({ connectionString: pg.url });
    try {
      await client.connect();
      const { rows } = await client.query<{ event_id: string }>(
        "select event_id from webhook_inbox where account = $1 and event_id like 'sigint-%'",
        [account.name],
      );
      const stored = new Set(rows.map((r) => r.event_id));
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
      expect(stored.size).toBeGreaterThanOrEqual(acknowledged.length);
    } finally {
      await client.end();
      await pg.stop();
    }
  });
});
