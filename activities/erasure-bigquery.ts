// Erasing a person from BigQuery (warehouse.bigquery), in BigQuery itself: every stream table of
// every account that goes there is searched for their number or e-mail (and their calls), whether
// or not PostgreSQL still holds the row, and each row found is scrubbed by the same function as a
// PostgreSQL row (lib/erasure/scrub.ts). A row is written back anonymised through the page MERGE
// on (account, id), as a sync writes it; a row that cannot be rebuilt from its raw record (it no
// longer parses as its stream's, or the person is only in other columns) is deleted. A retry
// searches again and finds only what is left.
import { erasureColumns, type BigQueryWarehouse } from '../connectors/bigquery';
import { STREAM_NAMES, type PageRecord, type PersonCall, type StreamName } from '../connectors/postgres';
import type { IdentityMatcher } from '../lib/erasure/matchers';
import { scrubRecord } from '../lib/erasure/scrub';
import { streamDefinition } from '../sync/streams';

/** Rows per BigQuery page (one load and one MERGE each), as a sync writes them. */
const PAGE = 1000;

/** One account's BigQuery warehouse, by account name. */
export type BigQueryWarehouses = (account: string) => BigQueryWarehouse | undefined;

/** What the search looks for: the pattern (national digits or e-mail), the matcher, and what is known of them. */
export interface BigQueryErasureInput {
  accounts: readonly string[];
  pattern: string;
  matcher: IdentityMatcher;
  names: readonly string[];
  calls: readonly PersonCall[];
  /** A heartbeat per page and per table. */
  progress?: (where: string) => void;
}

interface BigQueryRow {
  id: number;
  callId: number | null;
  values: Record<string, unknown>;
}

function rowOf(stream: StreamName, raw: Record<string, unknown>): BigQueryRow {
  const values: Record<string, unknown> = {};
  for (const c of erasureColumns(stream)) {
    const v = raw[c.name] ?? null;
    // JSON columns are read as JSON text (TO_JSON_STRING), and scrubbed as the values they hold.
    values[c.name] = c.kind === 'jsonb' && typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
  }
  const callId = raw._call_id === null || raw._call_id === undefined ? null : Number(raw._call_id);
  return { id: Number(raw.id), callId, values };
}

/** The streams whose table exists in the account's dataset. */
async function tablesOf(bq: BigQueryWarehouse): Promise<StreamName[]> {
  const out: StreamName[] = [];
  for (const stream of STREAM_NAMES) if (await bq.hasTable(stream)) out.push(stream);
  return out;
}

/** Each account's warehouse that goes to BigQuery, once per account. */
function targets(warehouses: BigQueryWarehouses, accounts: readonly string[]): [string, BigQueryWarehouse][] {
  return accounts.flatMap((a) => {
    const bq = warehouses(a);
    return bq ? [[a, bq] as [string, BigQueryWarehouse]] : [];
  });
}

/**
 * Erases the person from every stream table of every account's BigQuery dataset; returns counts
 * `bigquery.<dataset>.<table>.anonymised` and `.deleted`. A first pass collects the names and calls
 * of rows only BigQuery still holds, so the second scrubs their other rows as PostgreSQL's were.
 */
export async function eraseFromBigQuery(
  warehouses: BigQueryWarehouses,
  erasureId: string,
  input: BigQueryErasureInput,
): Promise<Record<string, number>> {
  const progress = input.progress ?? (() => {});
  const counts: Record<string, number> = {};
  for (const [account, bq] of targets(warehouses, input.accounts)) {
    const streams = await tablesOf(bq);
    const names = new Set(input.names);
    const calls = new Set(input.calls.filter(([a]) => a === account).map(([, id]) => id));
    for (const stream of streams) {
      progress(`${bq.dataset}.${stream}: search`);
      for await (const page of bq.personRows(stream, input.pattern, [])) {
        for (const row of page.map((r) => rowOf(stream, r))) {
          const r = scrubRecord(row.values, { matcher: input.matcher });
          if (!r.person) continue;
          for (const n of r.names) names.add(n);
          if (row.callId !== null) calls.add(row.callId);
        }
      }
    }
    for (const stream of streams) {
      const schema = streamDefinition(stream).schema;
      let pageNo = 0;
      for await (const page of bq.personRows(stream, input.pattern, [...calls], PAGE)) {
        progress(`${bq.dataset}.${stream}: page ${pageNo + 1}`);
        const records: PageRecord[] = [];
        // Rows the MERGE cannot rebuild from their record: it no longer parses as the stream's, or
        // it does not hold what named them (a column written by something other than callsync).
        const unbuildable: number[] = [];
        for (const row of page.map((r) => rowOf(stream, r))) {
          const linked = row.callId !== null && calls.has(row.callId);
          const r = scrubRecord(row.values, { matcher: input.matcher, names: [...names], person: linked });
          if (!r.person || !r.changed) continue;
          const raw = (r.value as Record<string, unknown>).raw;
          const parsed = schema.safeParse(raw);
          if (parsed.success && JSON.stringify(raw) !== JSON.stringify(row.values.raw))
            records.push({ record: parsed.data, raw });
          else unbuildable.push(row.id);
        }
        const where = `bigquery.${bq.dataset}.${stream}`;
        if (records.length > 0) {
          // Job ids of an erasure's pages are its own: a retry finds its finished jobs.
          await bq.writePage({
            position: {
              account,
              stream,
              scope: `erasure:${erasureId}`,
              since: null,
              until: null,
              page: ++pageNo,
            },
            records,
          });
          counts[`${where}.anonymised`] = (counts[`${where}.anonymised`] ?? 0) + records.length;
        }
        const deleted = await bq.deleteRows(stream, unbuildable);
        if (deleted > 0) counts[`${where}.deleted`] = (counts[`${where}.deleted`] ?? 0) + deleted;
      }
    }
  }
  return counts;
}

/**
 * Rows of each account's BigQuery tables that still name the person (`callsync erase --verify`;
 * reads only): `bigquery.<dataset>.<table>` → rows, for tables with any.
 */
export async function countPersonInBigQuery(
  warehouses: BigQueryWarehouses,
  accounts: readonly string[],
  pattern: string,
  matcher: IdentityMatcher,
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const [, bq] of targets(warehouses, accounts)) {
    for (const stream of await tablesOf(bq)) {
      let n = 0;
      for await (const page of bq.personRows(stream, pattern, [])) {
        for (const row of page.map((r) => rowOf(stream, r))) {
          const r = scrubRecord(row.values, { matcher });
          if (r.person && r.changed) n++;
        }
      }
      const place = `bigquery.${bq.dataset}.${stream}`;
      if (n > 0) found.set(place, (found.get(place) ?? 0) + n);
    }
  }
  return found;
}
