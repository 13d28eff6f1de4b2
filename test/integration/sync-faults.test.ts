// Faults injected in the emulator while syncing (429 with Retry-After, 500s, 503s, connection
// resets, expired tokens): the warehouse still ends up with every record exactly once.
import { sql } from 'kysely';
import { backfillWorkflow, syncStreamWorkflow } from '../../contracts';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(300_000);

interface Fault {
  id: string;
  applied: number;
}

describe('sync under injected faults', () => {
  let h: SyncHarness;

  beforeAll(async () => {
    // Password login, so that expired tokens force real re-logins.
    h = await startSyncHarness({ label: 'faults', cdrs: 12_000, passwordLogin: true });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
  });

  const inject = async (body: Record<string, unknown>): Promise<string> => {
    const res = await fetch(`${h.emulator.origin}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as Fault).id;
  };

  const stats = async (): Promise<Fault[]> =>
    ((await (await fetch(`${h.emulator.origin}/_emulator/faults`)).json()) as { faults: Fault[] }).faults;

  const exactlyTheEmulatorsCdrs = async (): Promise<void> => {
    const customer = h.emulator.admin.customer_id;
    const t = h.emulator.store.tables.cdrs;
    const expected = t
      .query(customer, { page: 1, limit: t.count(customer) + 1, filter: [] })
      .data.map((r) => Number(r.id));
    const stored = await h.deps.warehouse.db.selectFrom('cdrs').select('id').orderBy('id').execute();
    expect(stored.map((r) => Number(r.id))).toEqual(expected);
    const { rows } = await sql<{ dupes: number }>`
      select count(*)::int - count(distinct (account, id))::int as dupes from cdrs`.execute(
      h.deps.warehouse.db,
    );
    expect(rows[0]!.dupes).toBe(0);
  };

  it('backfill and incremental sync lose and duplicate nothing', async () => {
    const ids = [
      await inject({ route: 'GET /cdrs', status: 429, retry_after_s: 1, probability: 0.15 }),
      await inject({ route: 'GET /cdrs', status: 500, probability: 0.15 }),
      await inject({ route: 'GET /cdrs', status: 503, probability: 0.1 }),
      await inject({ route: 'GET /cdrs', reset: true, probability: 0.1 }),
      await inject({ route: 'GET /cdrs', expire_token: true, probability: 0.15 }),
    ];

    await h.client.workflow.execute(backfillWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'backfill-faults',
      args: [
        { account: 'acme', stream: 'cdrs', from: '2025-11-01', to: '2026-11-02', windowMs: 20 * 86_400_000 },
      ],
    });
    await exactlyTheEmulatorsCdrs();

    h.emulator.store.addCdrs(h.emulator.admin.customer_id, 250);
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-faults-1',
      args: [{ account: 'acme', stream: 'cdrs' }],
    });
    await exactlyTheEmulatorsCdrs();

    // Every kind of fault really happened during the run.
    const applied = new Map((await stats()).map((f) => [f.id, f.applied]));
    for (const id of ids) expect(applied.get(id)).toBeGreaterThan(0);
  });
});
