// The dashboard's quarantine page: open records with their reason and last retry, and what a retry
// recently cleared.
import type { Kysely } from 'kysely';
import type { Database } from '../../tables';

/** Open quarantined records, newest first (the open-records index). */
export async function openQuarantinePage(
  db: Kysely<Database>,
  filter: { accounts: readonly string[]; stream?: string | undefined; limit: number; offset: number },
) {
  if (filter.accounts.length === 0) return [];
  let query = db
    .selectFrom('quarantined_records')
    .select([
      'account',
      'stream',
      'record_id',
      'reason',
      'first_seen_at',
      'last_seen_at',
      'last_retry_at',
      'last_retry_outcome',
    ])
    .where('resolved_at', 'is', null)
    .where('account', 'in', [...filter.accounts]);
  if (filter.stream) query = query.where('stream', '=', filter.stream);
  return query
    .orderBy('last_seen_at', 'desc')
    .orderBy('record_id')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

/** Records resolved since `since` (most recent first): a retry's visible result. */
export async function recentlyResolved(
  db: Kysely<Database>,
  accounts: readonly string[],
  since: Date,
  limit = 20,
) {
  if (accounts.length === 0) return [];
  return db
    .selectFrom('quarantined_records')
    .select(['account', 'stream', 'record_id', 'reason', 'resolved_at', 'last_retry_outcome'])
    .where('resolved_at', 'is not', null)
    .where('resolved_at', '>=', since)
    .where('account', 'in', [...accounts])
    .orderBy('resolved_at', 'desc')
    .limit(limit)
    .execute();
}
