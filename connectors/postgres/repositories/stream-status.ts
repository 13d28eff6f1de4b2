// The aggregates behind `callsync status` (and, later, the dashboard): per account and stream, the
// last successful incremental run, the stream's checkpoint, open quarantined records and rows.
import { sql, type Kysely } from 'kysely';
import type { StreamName } from '../stream-tables';
import { STREAM_TABLES } from '../stream-tables';
import type { Database } from '../tables';

/** What the warehouse knows about one account's stream. */
export interface StreamAggregates {
  /** End of the last successful incremental run, or null. */
  lastSuccess: Date | null;
  /** The stream's main checkpoint cursor (scope ''), or null before its first page. */
  cursor: string | null;
  /** Open (unresolved) quarantined records. */
  quarantined: number;
  /** Rows of the account in the stream's table. */
  records: number;
}

const key = (account: string, stream: string) => `${account}\u0000${stream}`;

/** The aggregates of every (account, stream) asked for, in that order. */
export async function streamAggregates(
  db: Kysely<Database>,
  accounts: readonly string[],
  streams: readonly StreamName[],
): Promise<Array<StreamAggregates & { account: string; stream: StreamName }>> {
  if (accounts.length === 0 || streams.length === 0) return [];
  const [successes, quarantined, checkpoints] = await Promise.all([
    db
      .selectFrom('sync_runs')
      .select(['account', 'stream', sql<Date>`max(finished_at)`.as('finished')])
      .where('status', '=', 'succeeded')
      .where('kind', '=', 'incremental')
      .where('account', 'in', accounts)
      .groupBy(['account', 'stream'])
      .execute(),
    openQuarantineCounts(db, accounts),
    mainCheckpoints(db, accounts),
  ]);
  const lastByKey = new Map(successes.map((r) => [key(r.account, r.stream), r.finished]));
  const quarantinedByKey = new Map(quarantined.map((r) => [key(r.account, r.stream), r.n]));
  const cursorByKey = new Map(checkpoints.map((r) => [key(r.account, r.stream), r.cursor]));
  const rows: Array<StreamAggregates & { account: string; stream: StreamName }> = [];
  for (const stream of streams) {
    const counts = await db
      .selectFrom(STREAM_TABLES[stream].table)
      .select(['account', sql<number>`count(*)::int`.as('n')])
      .where('account', 'in', accounts)
      .groupBy('account')
      .execute();
    const countByAccount = new Map(counts.map((c) => [c.account, c.n]));
    for (const account of accounts) {
      const last = lastByKey.get(key(account, stream));
      rows.push({
        account,
        stream,
        lastSuccess: last ? new Date(last) : null,
        cursor: cursorByKey.get(key(account, stream)) ?? null,
        quarantined: quarantinedByKey.get(key(account, stream)) ?? 0,
        records: countByAccount.get(account) ?? 0,
      });
    }
  }
  // Account-major order, as a status table reads.
  return accounts.flatMap((a) => rows.filter((r) => r.account === a));
}

/** Open quarantined records per (account, stream) of the accounts. */
export function openQuarantineCounts(db: Kysely<Database>, accounts: readonly string[]) {
  return db
    .selectFrom('quarantined_records')
    .select(['account', 'stream', sql<number>`count(*)::int`.as('n')])
    .where('resolved_at', 'is', null)
    .where('account', 'in', accounts)
    .groupBy(['account', 'stream'])
    .execute();
}

/** Each stream's main checkpoint (scope '') of the accounts. */
export function mainCheckpoints(db: Kysely<Database>, accounts: readonly string[]) {
  return db
    .selectFrom('sync_checkpoints')
    .select(['account', 'stream', 'cursor'])
    .where('scope', '=', '')
    .where('account', 'in', accounts)
    .execute();
}
