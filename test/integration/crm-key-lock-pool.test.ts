// Key locks and the connection pool: each create under a key lock holds its lock's connection while
// the CRM works, and the built-in CRM (like a shared rate slot) works through the warehouse pool
// itself. With the locks on that pool, as many concurrent creates as the pool has connections held
// them all while each waited for one more: a deadlock seen only under load (ten CRM activities at
// once). Locks now take their connections from a pool of their own.
import { BuiltinCrmConnector } from '../../connectors/builtin-crm';
import { upsertCallLog } from '../../connectors/crm/upsert';
import { callLog } from '../unit/crm-fixtures';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

let w: MigratedWarehouse;
afterAll(() => w?.dispose());

it('more concurrent creates than the pool has connections all finish, each logged once', async () => {
  const POOL = 2;
  w = await createMigratedWarehouse('crm_key_lock_pool', POOL);
  const crm = new BuiltinCrmConnector(w.db, 'acme');
  const logs = Array.from({ length: POOL * 4 }, (_, i) => callLog({ key: `acme:call:${9000 + i}` }));
  const all = Promise.all(logs.map((log) => upsertCallLog(w.db, crm, log, { mayExist: true })));
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<'stuck'>((r) => (timer = setTimeout(() => r('stuck'), 20_000)));
  const outcome = await Promise.race([all, stuck]);
  clearTimeout(timer);
  expect(outcome).not.toBe('stuck');
  const results = outcome as Awaited<typeof all>;
  expect(results.map((r) => r.outcome)).toEqual(logs.map(() => 'created'));
  const rows = await w.db
    .selectFrom('crm_objects')
    .select('source_key')
    .where('kind', '=', 'call_log')
    .execute();
  expect(rows.map((r) => r.source_key).sort()).toEqual(logs.map((l) => l.key).sort());
  // Concurrent upserts of one key still make one object: the lock serialises them.
  const again = await Promise.all(
    logs.slice(0, 3).map((log) => upsertCallLog(w.db, crm, log, { mayExist: true })),
  );
  expect(again.map((r) => r.outcome)).toEqual(['updated', 'updated', 'updated']);
});
