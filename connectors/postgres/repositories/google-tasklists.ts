// Google Tasks lists callsync found or created: recorded once per owner and title, so a retry or a
// second worker uses the same list instead of creating another (tasklists.insert has no key).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables';

/** The recorded list id for an owner and title, or null. */
export async function getTasklist(
  db: Kysely<Database>,
  owner: string,
  title: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('google_tasklists')
    .select('tasklist_id')
    .where('owner', '=', owner)
    .where('title', '=', title)
    .executeTakeFirst();
  return row?.tasklist_id ?? null;
}

/**
 * Finds or creates the list under a lock on (owner, title): `resolve` (which searches Google, then
 * creates) runs at most once at a time per list, and its answer is recorded before the lock is freed.
 */
export async function claimTasklist(
  db: Kysely<Database>,
  owner: string,
  title: string,
  resolve: () => Promise<string>,
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const lockName = `google-tasklist:${owner}:${title}`;
    await sql`select pg_advisory_xact_lock(hashtextextended(${lockName}, 0))`.execute(trx);
    const known = await getTasklist(trx, owner, title);
    if (known !== null) return known;
    const id = await resolve();
    await trx
      .insertInto('google_tasklists')
      .values({ owner, title, tasklist_id: id })
      .onConflict((oc) => oc.columns(['owner', 'title']).doNothing())
      .execute();
    return id;
  });
}
