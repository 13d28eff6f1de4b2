// The series behind the dashboard's charts, each an index range over the last hours.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../tables';

/** When the newest call started (one backward step on each account's calldate index), or null. */
export async function newestCallAt(db: Kysely<Database>, accounts: readonly string[]): Promise<Date | null> {
  const found = await Promise.all(
    accounts.map((account) =>
      db
        .selectFrom('cdrs')
        .select('calldate')
        .where('account', '=', account)
        .where('calldate', 'is not', null)
        .orderBy('calldate', 'desc')
        .limit(1)
        .executeTakeFirst(),
    ),
  );
  const times = found.flatMap((r) => (r?.calldate ? [new Date(r.calldate).getTime()] : []));
  return times.length ? new Date(Math.max(...times)) : null;
}

/** Root call legs per hour and outcome (the CDR's disposition) in [since, until). */
export async function callsPerHour(
  db: Kysely<Database>,
  accounts: readonly string[],
  since: Date,
  until?: Date,
) {
  if (accounts.length === 0) return [];
  const hour = sql<Date>`date_trunc('hour', calldate)`;
  const rows = await db
    .selectFrom('cdrs')
    .select([
      hour.as('hour'),
      sql<string>`coalesce(disposition, 'UNKNOWN')`.as('outcome'),
      sql<number>`count(*)::int`.as('n'),
    ])
    .where('account', 'in', accounts)
    .where('calldate', '>=', since)
    .$if(until !== undefined, (q) => q.where('calldate', '<', until!))
    .where(sql<boolean>`coalesce(is_root, true)`)
    .groupBy([hour, sql`2`])
    .orderBy(hour)
    .execute();
  return rows.map((r) => ({ hour: new Date(r.hour), outcome: r.outcome, calls: r.n }));
}

/** Finished incremental runs since `since`: when, stream, records per second and the data lag left. */
export async function syncRunSeries(
  db: Kysely<Database>,
  accounts: readonly string[],
  since: Date,
  limit = 5000,
) {
  if (accounts.length === 0) return [];
  const rows = await db
    .selectFrom('sync_runs')
    .select([
      'account',
      'stream',
      'finished_at',
      'records',
      'data_lag_seconds',
      sql<number>`extract(epoch from finished_at - started_at)::float8`.as('seconds'),
    ])
    .where('finished_at', 'is not', null)
    .where('finished_at', '>=', since)
    .where('account', 'in', accounts)
    .where('kind', '=', 'incremental')
    .where('status', '=', 'succeeded')
    .orderBy('finished_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    account: r.account,
    stream: r.stream,
    at: r.finished_at!,
    records: Number(r.records),
    recordsPerSecond: r.seconds > 0 ? Number(r.records) / r.seconds : 0,
    dataLagSeconds: r.data_lag_seconds,
  }));
}

/** Webhook delivery to Temporal (received → relayed) per hour of these accounts: median and 95th percentile, in seconds. */
export async function webhookLatencyPerHour(db: Kysely<Database>, since: Date, accounts: readonly string[]) {
  if (accounts.length === 0) return [];
  const hour = sql<Date>`date_trunc('hour', done_at)`;
  const latency = sql`extract(epoch from done_at - received_at)`;
  const rows = await db
    .selectFrom('webhook_inbox')
    .select([
      hour.as('hour'),
      sql<number>`count(*)::int`.as('n'),
      sql<number>`percentile_cont(0.5) within group (order by ${latency})::float8`.as('p50'),
      sql<number>`percentile_cont(0.95) within group (order by ${latency})::float8`.as('p95'),
    ])
    .where('status', '=', 'done')
    .where('account', 'in', [...accounts])
    .where('done_at', '>=', since)
    .groupBy(hour)
    .orderBy(hour)
    .execute();
  return rows.map((r) => ({ hour: new Date(r.hour), deliveries: r.n, p50: r.p50, p95: r.p95 }));
}
