// The exactly-once helper over a real PostgreSQL mapping table: mapping hits update, a lost mapping is
// recovered through the CRM's own key, and concurrent upserts of one key create one object (counted on
// an in-memory CRM; test/conformance runs the same through every real destination).
import { getMapping, recordMapping } from '../../connectors/crm/mapping';
import { updateCallLogs, upsertCallLog, upsertTask } from '../../connectors/crm/upsert';
import type { CallbackTask, CallLog, CallLogUpdate, CrmConnector } from '../../connectors/crm/crm-connector';
import { callbackTask, callLog } from '../unit/crm-fixtures';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

/** An in-memory CRM that counts calls; `createDelayMs` widens the race window. */
class MemoryCrm implements CrmConnector {
  readonly name = 'memory';
  readonly logs = new Map<string, CallLog>();
  readonly tasks = new Map<string, CallbackTask>();
  creates = 0;
  updates = 0;
  batches = 0;
  private next = 1;
  constructor(private readonly createDelayMs = 0) {}
  findContactsByPhone = async () => [];
  createContact = async () => {
    throw new Error('not used');
  };
  findCallLog = async (key: string) => [...this.logs].find(([, l]) => l.key === key)?.[0] ?? null;
  createCallLog = async (log: CallLog) => {
    this.creates++;
    await new Promise((r) => setTimeout(r, this.createDelayMs));
    const id = `L${this.next++}`;
    this.logs.set(id, log);
    return id;
  };
  updateCallLog = async (id: string, log: CallLog) => {
    if (!this.logs.has(id)) throw new Error(`no ${id}`);
    this.updates++;
    this.logs.set(id, log);
  };
  updateCallLogs = async (updates: readonly CallLogUpdate[]) => {
    this.batches++;
    for (const u of updates) this.logs.set(u.crmId, u.log);
  };
  findTask = async (key: string) => [...this.tasks].find(([, t]) => t.key === key)?.[0] ?? null;
  createTask = async (task: CallbackTask) => {
    this.creates++;
    await new Promise((r) => setTimeout(r, this.createDelayMs));
    const id = `T${this.next++}`;
    this.tasks.set(id, task);
    return id;
  };
  updateTask = async (id: string, task: CallbackTask) => {
    this.updates++;
    this.tasks.set(id, task);
  };
}

let w: MigratedWarehouse;
beforeAll(async () => {
  w = await createMigratedWarehouse('crm_upsert');
});
afterAll(() => w.dispose());

describe('crm mapping table', () => {
  it('records a mapping once: the first CRM id wins', async () => {
    const key = { destination: 'memory', kind: 'call_log' as const, sourceKey: 'acme:m1' };
    expect(await getMapping(w.db, key)).toBeNull();
    expect(await recordMapping(w.db, { ...key, account: 'acme', crmId: 'A' })).toBe('A');
    expect(await recordMapping(w.db, { ...key, account: 'acme', crmId: 'B' })).toBe('A');
    expect(await getMapping(w.db, key)).toBe('A');
    expect(await getMapping(w.db, { ...key, kind: 'task' })).toBeNull();
  });
});

describe('upsertCallLog / upsertTask', () => {
  it('creates once, then updates through the mapping', async () => {
    const crm = new MemoryCrm();
    const log = callLog();
    const first = await upsertCallLog(w.db, crm, log);
    expect(first.outcome).toBe('created');
    const second = await upsertCallLog(w.db, crm, { ...log, summary: 'later' });
    expect(second).toEqual({ crmId: first.crmId, outcome: 'updated' });
    expect(crm.creates).toBe(1);
    expect(crm.logs.get(first.crmId)!.summary).toBe('later');
    const row = await w.db
      .selectFrom('crm_objects')
      .selectAll()
      .where('source_key', '=', log.key)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      account: 'acme',
      destination: 'memory',
      kind: 'call_log',
      crm_id: first.crmId,
    });
  });

  it('recovers a create whose mapping write was lost, through findCallLog', async () => {
    const crm = new MemoryCrm();
    const log = callLog();
    const orphan = await crm.createCallLog(log); // created in the CRM, mapping never written
    const result = await upsertCallLog(w.db, crm, { ...log, recordingUrl: 'https://rec.example/r.mp3' });
    expect(result).toEqual({ crmId: orphan, outcome: 'recovered' });
    expect(crm.creates).toBe(1);
    expect(crm.logs.get(orphan)!.recordingUrl).toBe('https://rec.example/r.mp3');
    expect(await getMapping(w.db, { destination: 'memory', kind: 'call_log', sourceKey: log.key })).toBe(
      orphan,
    );
  });

  it('concurrent upserts of one key create one object', async () => {
    const crm = new MemoryCrm(50);
    const log = callLog();
    const results = await Promise.all(Array.from({ length: 8 }, () => upsertCallLog(w.db, crm, log)));
    expect(crm.creates).toBe(1);
    expect(new Set(results.map((r) => r.crmId)).size).toBe(1);
    expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1);
  });

  it('concurrent task upserts of one key create one task', async () => {
    const crm = new MemoryCrm(30);
    const task = callbackTask();
    const results = await Promise.all(Array.from({ length: 5 }, () => upsertTask(w.db, crm, task)));
    expect(crm.creates).toBe(1);
    expect(new Set(results.map((r) => r.crmId)).size).toBe(1);
    await upsertTask(w.db, crm, { ...task, status: 'closed' });
    expect([...crm.tasks.values()][0]!.status).toBe('closed');
  });

  it('uses the batch endpoint for several mapped logs, and upserts unmapped ones', async () => {
    const crm = new MemoryCrm();
    const [a, b, c] = [callLog(), callLog(), callLog()];
    await upsertCallLog(w.db, crm, a);
    await upsertCallLog(w.db, crm, b);
    const results = await updateCallLogs(w.db, crm, [{ ...a, summary: 'A' }, { ...b, summary: 'B' }, c]);
    expect(crm.batches).toBe(1);
    expect(crm.creates).toBe(3);
    expect(results.map((r) => r.outcome).sort()).toEqual(['created', 'updated', 'updated']);
    expect([...crm.logs.values()].map((l) => l.summary)).toEqual(['A', 'B', null]);
  });
});
