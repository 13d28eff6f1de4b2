// Erasing a person from BigQuery (warehouse.bigquery): the stream rows the erasure anonymised in
// PostgreSQL are written again, anonymised, to the account's BigQuery table, whose MERGE on (account,
// id) replaces the person's row in place. Runs inside the PostgreSQL table's transaction
// (eraseFromTable's beforeCommit), so a failed write rolls the table back and the retry redoes both.
import type { PageRecord } from '../connectors/postgres';
import { STREAMS, streamDefinition } from '../sync/streams';
import type { ActivityDeps } from './deps';

/** Rows per BigQuery page (one load and one MERGE each). */
const PAGE = 1000;

/** Rewrites anonymised stream rows in each account's BigQuery; returns rows sent, and rows left (unparsable). */
export async function rewriteInBigQuery(
  deps: ActivityDeps,
  table: string,
  erasureId: string,
  rows: readonly { account: string; raw: unknown }[],
): Promise<{ rewritten: number; kept: number }> {
  const result = { rewritten: 0, kept: 0 };
  if (!deps.bigquery || !(table in STREAMS)) return result;
  const schema = streamDefinition(table).schema;
  const byAccount = new Map<string, PageRecord[]>();
  for (const row of rows) {
    if (!deps.bigquery(row.account)) continue;
    const parsed = schema.safeParse(row.raw);
    if (!parsed.success) {
      result.kept++;
      continue;
    }
    const list = byAccount.get(row.account) ?? [];
    list.push({ record: parsed.data, raw: row.raw });
    byAccount.set(row.account, list);
  }
  for (const [account, records] of byAccount) {
    const bq = deps.bigquery(account)!;
    for (let i = 0; i < records.length; i += PAGE) {
      const page = records.slice(i, i + PAGE);
      await bq.writePage({
        position: {
          account,
          stream: table,
          // Job ids of an erasure's pages are its own (a retry finds its finished jobs).
          scope: `erasure:${erasureId}`,
          since: null,
          until: null,
          page: i / PAGE + 1,
        },
        records: page,
      });
      result.rewritten += page.length;
    }
  }
  return result;
}
