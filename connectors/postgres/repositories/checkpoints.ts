// Sync checkpoints: where each stream's sync of each account stands.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables';

/** Identifies a checkpoint; `scope` is '' for a stream's main cursor, or e.g. a backfill window's name. */
export interface CheckpointKey {
  account: string;
  stream: string;
  scope?: string;
}

export interface Checkpoint {
  cursor: string | null;
  updatedAt: Date;
}

/** The checkpoint, or null when the stream has never been synced in that scope. */
export async function getCheckpoint(db: Kysely<Database>, key: CheckpointKey): Promise<Checkpoint | null> {
  const row = await db
    .selectFrom('sync_checkpoints')
    .select(['cursor', 'updated_at'])
    .where('account', '=', key.account)
    .where('stream', '=', key.stream)
    .where('scope', '=', key.scope ?? '')
    .executeTakeFirst();
  return row ? { cursor: row.cursor, updatedAt: row.updated_at } : null;
}

/** The upsert that moves a checkpoint (built on any kysely, so the bulk loader can compile it). */
export function setCheckpointQuery(db: Kysely<Database>, key: CheckpointKey, cursor: string | null) {
  return db
    .insertInto('sync_checkpoints')
    .values({ account: key.account, stream: key.stream, scope: key.scope ?? '', cursor })
    .onConflict((oc) =>
      oc.columns(['account', 'stream', 'scope']).doUpdateSet({ cursor, updated_at: sql<Date>`now()` }),
    );
}

/** Moves a checkpoint (creates it when new). */
export async function setCheckpoint(
  db: Kysely<Database>,
  key: CheckpointKey,
  cursor: string | null,
): Promise<void> {
  await setCheckpointQuery(db, key, cursor).execute();
}

/** Removes a checkpoint (e.g. a finished backfill window's); true when one existed. */
export async function deleteCheckpoint(db: Kysely<Database>, key: CheckpointKey): Promise<boolean> {
  const result = await db
    .deleteFrom('sync_checkpoints')
    .where('account', '=', key.account)
    .where('stream', '=', key.stream)
    .where('scope', '=', key.scope ?? '')
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Every checkpoint of an account (all accounts when omitted), by stream and scope. */
export async function listCheckpoints(db: Kysely<Database>, account?: string) {
  let query = db
    .selectFrom('sync_checkpoints')
    .selectAll()
    .orderBy('account')
    .orderBy('stream')
    .orderBy('scope');
  if (account !== undefined) query = query.where('account', '=', account);
  return query.execute();
}
