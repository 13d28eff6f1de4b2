// PostgreSQL ending the relay's connection (a restart) while a batch waits on Temporal: the batch
// fails and rolls back, the receiver process lives on (it used to die of an unhandled 'error' event
// of the checked-out client, found by the chaos run), and the rows are relayed by the next batch.
import pino from 'pino';
import { InboxWriter } from '../../server/inbox-writer';
import { Relay } from '../../server/relay';
import { eventually } from '../support/eventually';
import { storeWebhook } from './inbox-fixtures';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

describe('relay when PostgreSQL ends its connection mid-batch', () => {
  let w: MigratedWarehouse;

  beforeAll(async () => {
    w = await createMigratedWarehouse('relay_connection_lost');
  });

  afterAll(async () => {
    await w?.dispose();
  });

  it('fails the batch, keeps the rows pending, and relays them next time', async () => {
    const inbox = new InboxWriter(w.pool);
    await storeWebhook(
      inbox,
      'acme',
      JSON.stringify({ id: 'ev-lost-1', event_name: 'call.hangup', call_id: 4242, state: 'HANGUP' }),
    );
    let terminated = 0;
    let signalled = 0;
    const logged: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
    const relay = new Relay({
      pool: w.pool,
      logger,
      signal: async () => {
        if (terminated === 0) {
          // The batch's own backend: the one inside a transaction that is not this query's.
          const { rows } = await w.pool.query<{ n: number }>(
            `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND state = 'idle in transaction' AND pid <> pg_backend_pid()`,
          );
          terminated = rows[0]!.n;
          // The 'error' event arrives while the batch still waits here: the relay logs it.
          await eventually(
            async () =>
              logged.some((l) => l.includes('relay connection lost mid-batch')) ? true : undefined,
            "the relay to hear the connection's 'error' event",
            10_000,
          );
        }
        signalled++;
      },
    });
    await expect(relay.runOnce()).rejects.toThrow();
    expect(terminated).toBe(1);
    const pending = await w.pool.query<{ status: string }>(
      "SELECT status FROM webhook_inbox WHERE event_id = 'ev-lost-1'",
    );
    expect(pending.rows).toEqual([{ status: 'pending' }]);

    expect(await relay.runOnce()).toBe(1);
    const done = await w.pool.query<{ status: string }>(
      "SELECT status FROM webhook_inbox WHERE event_id = 'ev-lost-1'",
    );
    expect(done.rows).toEqual([{ status: 'done' }]);
    expect(signalled).toBe(2);
  });
});

describe('any checked-out connection of the warehouse pool when PostgreSQL ends it', () => {
  let w: MigratedWarehouse;
  const idleErrors: Error[] = [];

  beforeAll(async () => {
    w = await createMigratedWarehouse('connection_lost_checked_out', 10, {
      onIdleError: (err) => void idleErrors.push(err),
    });
  });

  afterAll(async () => {
    await w?.dispose();
  });

  // The chaos run found a worker that died of it: a connection held between two queries (a key
  // lock around a CRM call, a COPY's connection) got PostgreSQL's "terminating connection" while no
  // query was running, and the client's 'error' event had no listener.
  it("does not crash the process: the holder's next query fails, and the pool goes on", async () => {
    const client = await w.pool.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await w.pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    // The 'error' event arrives while the client is held and idle: the pool's listener hears it.
    await eventually(
      async () => (idleErrors.length > 0 ? true : undefined),
      "the held connection's 'error' event",
      10_000,
    );
    await expect(client.query('SELECT 1')).rejects.toThrow();
    client.release(true);
    const after = await w.pool.query<{ one: number }>('SELECT 1 AS one');
    expect(after.rows).toEqual([{ one: 1 }]);
  });
});
