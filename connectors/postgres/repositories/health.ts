// What /readyz asks PostgreSQL: is it there, and may this connection write the webhook inbox.
import type { Queryable } from './webhook-inbox';

/** Resolves when PostgreSQL answers a query. */
export async function pingDatabase(q: Queryable): Promise<void> {
  await q.query('SELECT 1');
}

/**
 * True when a delivery could be stored now: the inbox exists, this role may insert into it, and the
 * server takes writes (not a standby, not default_transaction_read_only, as during a failover).
 */
export async function inboxWritable(q: Queryable): Promise<boolean> {
  const { rows } = await q.query<{ writable: boolean | null }>(
    // CASE, not AND: SQL may evaluate has_table_privilege first, which fails on a missing table.
    `SELECT CASE WHEN to_regclass('webhook_inbox') IS NULL THEN false
                 ELSE has_table_privilege(current_user, 'webhook_inbox', 'INSERT') END
        AND NOT pg_is_in_recovery()
        AND current_setting('transaction_read_only') = 'off' AS writable`,
  );
  return rows[0]?.writable === true;
}
