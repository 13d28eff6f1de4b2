// Exactly-once CRM writes for a batch of keys, with the same rules as upsert.ts for each key:
//   mapping hit                   → update the mapped object (one batch update for all of them);
//   miss, an earlier attempt may
//   have created it (mayExist)    → find it by key (one batch read), record the mapping, update;
//   miss everywhere               → create (one batch create), record the mappings at once.
// The miss path runs in one transaction holding every missed key's lock (taken in key order), so a
// concurrent upsert of a key, batched or not, waits and then sees the mapping. A create the vendor
// refuses because the key exists (HubSpot's unique callsync_key) is found by key and recorded.
import type { Kysely } from 'kysely';
import { lockingDatabase } from '../postgres/db';
import type { CrmObjectKind, Database } from '../postgres/tables';
import { accountOfKey } from './call-log-body';
import type { BatchOutcome, CallbackTask, CallLog, CrmBatchOps } from './crm-connector';
import { CrmError } from './errors';
import { getMappings, lockKeys, recordMappings, touchMappings } from './mapping';
import type { UpsertOutcome, UpsertResult } from './upsert';

/** One item to write, and whether an earlier attempt may have created it without its mapping. */
export interface BatchEntry<T> {
  item: T;
  mayExist: boolean;
}

interface KindOps<T> {
  kind: CrmObjectKind;
  find(keys: string[]): Promise<Map<string, string>>;
  create(items: T[]): Promise<BatchOutcome>;
  update(updates: { crmId: string; item: T }[]): Promise<void>;
}

/** Per key: how its upsert ended, or the error of that one item. */
export type BatchUpsertResult = Map<string, UpsertResult | Error>;

const isBadInput = (err: unknown) => err instanceof CrmError && !err.retryable;
const isConflict = (err: unknown) => err instanceof CrmError && err.status === 409;

/**
 * Runs `send` over `items` at once; when the vendor refuses the whole request for bad input, runs it
 * item by item, so one bad item fails alone and its neighbours are written.
 */
async function eachAlone<I, R>(
  items: I[],
  send: (items: I[]) => Promise<R>,
  keyOf: (item: I) => string,
): Promise<{ ok: R[]; failed: Map<string, Error> }> {
  const failed = new Map<string, Error>();
  try {
    return { ok: [await send(items)], failed };
  } catch (err) {
    if (!isBadInput(err) || isConflict(err)) throw err;
    if (items.length === 1) {
      failed.set(keyOf(items[0]!), err as Error);
      return { ok: [], failed };
    }
  }
  const ok: R[] = [];
  for (const item of items) {
    try {
      ok.push(await send([item]));
    } catch (err) {
      if (!isBadInput(err) || isConflict(err)) throw err;
      failed.set(keyOf(item), err as Error);
    }
  }
  return { ok, failed };
}

async function upsertBatch<T extends { key: string }>(
  db: Kysely<Database>,
  destination: string,
  entries: readonly BatchEntry<T>[],
  ops: KindOps<T>,
): Promise<BatchUpsertResult> {
  const results: BatchUpsertResult = new Map();
  const byKey = new Map(entries.map((e) => [e.item.key, e]));
  const toUpdate: { crmId: string; item: T; outcome: UpsertOutcome }[] = [];
  const mapped = await getMappings(db, destination, ops.kind, [...byKey.keys()]);
  for (const [key, crmId] of mapped) toUpdate.push({ crmId, item: byKey.get(key)!.item, outcome: 'updated' });
  const missed = [...byKey.keys()].filter((k) => !mapped.has(k));

  if (missed.length > 0) {
    // On the lock pool: the creates below call the CRM, whose work may need the main pool's connections.
    await lockingDatabase(db)
      .transaction()
      .execute(async (trx) => {
        await lockKeys(trx, destination, ops.kind, missed);
        const again = await getMappings(trx, destination, ops.kind, missed);
        for (const [key, crmId] of again)
          toUpdate.push({ crmId, item: byKey.get(key)!.item, outcome: 'updated' });
        const fresh = missed.filter((k) => !again.has(k));
        const record = async (ids: Map<string, string>, outcome: UpsertOutcome) => {
          const held = await recordMappings(
            trx,
            destination,
            ops.kind,
            [...ids].map(([sourceKey, crmId]) => ({ account: accountOfKey(sourceKey), sourceKey, crmId })),
          );
          for (const [key, crmId] of held) {
            if (outcome === 'created') results.set(key, { crmId, outcome });
            else toUpdate.push({ crmId, item: byKey.get(key)!.item, outcome });
          }
        };
        const maybe = fresh.filter((k) => byKey.get(k)!.mayExist);
        const recovered = maybe.length > 0 ? await ops.find(maybe) : new Map<string, string>();
        await record(recovered, 'recovered');
        let toCreate = fresh.filter((k) => !recovered.has(k));
        for (let round = 0; toCreate.length > 0; round++) {
          try {
            const { ok, failed } = await eachAlone(
              toCreate.map((k) => byKey.get(k)!.item),
              (items) => ops.create(items),
              (item) => item.key,
            );
            const created = new Map<string, string>();
            for (const outcome of ok) {
              for (const [key, r] of outcome) {
                if (r instanceof Error) results.set(key, r);
                else created.set(key, r);
              }
            }
            for (const [key, err] of failed) results.set(key, err);
            await record(created, 'created');
            toCreate = [];
          } catch (err) {
            // The vendor already holds a key (a create whose answer was lost): find those, create the rest.
            if (!isConflict(err) || round > 0) throw err;
            const existing = await ops.find(toCreate);
            await record(existing, 'recovered');
            toCreate = toCreate.filter((k) => !existing.has(k));
          }
        }
      });
  }

  if (toUpdate.length > 0) {
    const { failed } = await eachAlone(
      toUpdate,
      (list) => ops.update(list.map((u) => ({ crmId: u.crmId, item: u.item }))),
      (u) => u.item.key,
    );
    for (const u of toUpdate) {
      results.set(u.item.key, failed.get(u.item.key) ?? { crmId: u.crmId, outcome: u.outcome });
    }
    await touchMappings(
      db,
      destination,
      ops.kind,
      toUpdate.filter((u) => !failed.has(u.item.key)).map((u) => u.item.key),
    );
  }
  return results;
}

/** Creates or updates many call logs in `batch`, exactly once each. */
export function upsertCallLogBatch(
  db: Kysely<Database>,
  destination: string,
  batch: CrmBatchOps,
  entries: readonly BatchEntry<CallLog>[],
): Promise<BatchUpsertResult> {
  return upsertBatch(db, destination, entries, {
    kind: 'call_log',
    find: (keys) => batch.findCallLogs(keys),
    create: (items) => batch.createCallLogs(items),
    update: (updates) => batch.updateCallLogs(updates.map((u) => ({ crmId: u.crmId, log: u.item }))),
  });
}

/** Creates or updates many callback tasks in `batch`, exactly once each. */
export function upsertTaskBatch(
  db: Kysely<Database>,
  destination: string,
  batch: CrmBatchOps,
  entries: readonly BatchEntry<CallbackTask>[],
): Promise<BatchUpsertResult> {
  return upsertBatch(db, destination, entries, {
    kind: 'task',
    find: (keys) => batch.findTasks(keys),
    create: (items) => batch.createTasks(items),
    update: (updates) => batch.updateTasks(updates.map((u) => ({ crmId: u.crmId, task: u.item }))),
  });
}
