// The CRM mapping table: which CRM object callsync created for which idempotency key. A row is written
// right after the create, before anything depends on the object, so a retry updates instead of
// creating a duplicate.
import { sql, type Kysely } from 'kysely';
import { lockingDatabase } from '../postgres/db';
import type { CrmObjectKind, Database } from '../postgres/tables';

/** Identifies one mapped object. */
export interface MappingKey {
  /**
   * The destination's identity (destinationIdOf: type plus portal or org), not its type: an id of one
   * portal means nothing in another, so an account moved to another portal maps its objects anew.
   */
  destination: string;
  kind: CrmObjectKind;
  sourceKey: string;
}

/** The CRM id recorded for `key`, or null. */
export async function getMapping(db: Kysely<Database>, key: MappingKey): Promise<string | null> {
  const row = await db
    .selectFrom('crm_objects')
    .select('crm_id')
    .where('destination', '=', key.destination)
    .where('kind', '=', key.kind)
    .where('source_key', '=', key.sourceKey)
    .executeTakeFirst();
  return row?.crm_id ?? null;
}

/**
 * Records that `key` maps to `crmId`. Idempotent: when a mapping already exists, it is kept and its
 * CRM id returned (the first writer wins), so callers always use the id the table holds.
 */
export async function recordMapping(
  db: Kysely<Database>,
  key: MappingKey & { account: string; crmId: string },
): Promise<string> {
  const inserted = await db
    .insertInto('crm_objects')
    .values({
      account: key.account,
      destination: key.destination,
      kind: key.kind,
      source_key: key.sourceKey,
      crm_id: key.crmId,
    })
    .onConflict((oc) => oc.columns(['destination', 'kind', 'source_key']).doNothing())
    .returning('crm_id')
    .executeTakeFirst();
  if (inserted) return inserted.crm_id;
  const existing = await getMapping(db, key);
  if (existing === null) throw new Error(`crm_objects row for ${key.sourceKey} vanished`);
  return existing;
}

/** Marks a mapping as touched (after an update through it). */
export async function touchMapping(db: Kysely<Database>, key: MappingKey): Promise<void> {
  await db
    .updateTable('crm_objects')
    .set({ updated_at: sql<Date>`now()` })
    .where('destination', '=', key.destination)
    .where('kind', '=', key.kind)
    .where('source_key', '=', key.sourceKey)
    .execute();
}

/**
 * Runs `body` in a transaction holding a lock on `key`, so concurrent upserts of one key (two workers,
 * a retry racing its original) run one after the other: the second sees the first one's mapping.
 */
export async function withKeyLock<T>(
  db: Kysely<Database>,
  key: MappingKey,
  body: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  // On the lock pool: `body` calls the CRM, whose work may need connections of the main pool.
  return lockingDatabase(db)
    .transaction()
    .execute(async (trx) => {
      const lockName = `crm:${key.destination}:${key.kind}:${key.sourceKey}`;
      await sql`select pg_advisory_xact_lock(hashtextextended(${lockName}, 0))`.execute(trx);
      return body(trx);
    });
}

/** The CRM ids recorded for many keys of one destination and kind (key → id; absent: none). */
export async function getMappings(
  db: Kysely<Database>,
  destination: string,
  kind: CrmObjectKind,
  keys: readonly string[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('crm_objects')
    .select(['source_key', 'crm_id'])
    .where('destination', '=', destination)
    .where('kind', '=', kind)
    .where('source_key', 'in', [...keys])
    .execute();
  return new Map(rows.map((r) => [r.source_key, r.crm_id]));
}

/**
 * Records many key → id mappings at once (the first writer of a key wins, as in recordMapping) and
 * returns the ids the table holds for them.
 */
export async function recordMappings(
  db: Kysely<Database>,
  destination: string,
  kind: CrmObjectKind,
  rows: readonly { account: string; sourceKey: string; crmId: string }[],
): Promise<Map<string, string>> {
  if (rows.length === 0) return new Map();
  await db
    .insertInto('crm_objects')
    .values(
      rows.map((r) => ({
        account: r.account,
        destination,
        kind,
        source_key: r.sourceKey,
        crm_id: r.crmId,
      })),
    )
    .onConflict((oc) => oc.columns(['destination', 'kind', 'source_key']).doNothing())
    .execute();
  return getMappings(
    db,
    destination,
    kind,
    rows.map((r) => r.sourceKey),
  );
}

/** Marks many mappings as touched (after a batch update through them). */
export async function touchMappings(
  db: Kysely<Database>,
  destination: string,
  kind: CrmObjectKind,
  keys: readonly string[],
): Promise<void> {
  if (keys.length === 0) return;
  await db
    .updateTable('crm_objects')
    .set({ updated_at: sql<Date>`now()` })
    .where('destination', '=', destination)
    .where('kind', '=', kind)
    .where('source_key', 'in', [...keys])
    .execute();
}

/**
 * Takes the per-key locks of withKeyLock for many keys inside transaction `trx`, in key order (so two
 * batches sharing keys cannot deadlock); they are released when the transaction ends.
 */
export async function lockKeys(
  trx: Kysely<Database>,
  destination: string,
  kind: CrmObjectKind,
  keys: readonly string[],
): Promise<void> {
  for (const key of [...keys].sort()) {
    const lockName = `crm:${destination}:${kind}:${key}`;
    await sql`select pg_advisory_xact_lock(hashtextextended(${lockName}, 0))`.execute(trx);
  }
}
