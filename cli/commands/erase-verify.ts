// `callsync erase --verify <number>` (or `--verify --email <e>`): looks for what is left of one person
// after their erasure, everywhere callsync can read: every column of every warehouse table (the
// built-in CRM's tables, the CRM mappings, the report outbox and the webhook inbox included), every
// Temporal history (raw and decoded), every stream table of each account's BigQuery dataset
// (warehouse.bigquery), and the report files (text, XLSX, PDF) and outbox messages. Reads only. Places it
// cannot read (delivered e-mails, files in Drive, external CRMs) are named in docs/privacy.md "Erasure" with
// what an operator checks there.
import type { Client } from '@temporalio/client';
import type { CountryCode } from 'libphonenumber-js/max';
import type { CallsyncConfig } from '../../config/schema';
import { countPersonInBigQuery } from '../../activities/erasure-bigquery';
import { historiesNaming, namesPerson } from '../../activities/erasure-histories';
import { reportFileText } from '../../activities/erasure-report-formats';
import { filesUnder, reportDirs } from '../../activities/erasure-reports';
import { createBigQueryWarehouses } from '../../connectors/bigquery';
import {
  countPersonInTable,
  erasableTables,
  getErasureRequest,
  type WarehouseDatabase,
} from '../../connectors/postgres';
import {
  escapeRegex,
  identifierHash,
  nationalDigitsPattern,
  type ErasureSubject,
} from '../../lib/erasure/identity';
import { subjectMatcher } from '../../lib/erasure/matchers';
import { erasureHashKey, payloadCodecFromConfig } from '../../lib/encryption-keys';

/** What verification found: places still naming the person, and places it could not read. */
export interface ErasureVerification {
  /** `warehouse.<table>: N rows`, `bigquery.<dataset>.<table>: N rows`, `temporal: <workflow id> (<type>)`, `reports.files: <file>`, … */
  left: string[];
  /** Files it could not read (other formats, damaged or protected workbooks and PDFs). */
  unread: string[];
}

const rows = (n: number) => `${n} row${n === 1 ? '' : 's'}`;

/** Everything left of the person (empty `left` when nothing is). */
export async function verifyErasure(
  config: CallsyncConfig,
  warehouse: WarehouseDatabase,
  temporal: Client,
  subject: ErasureSubject,
): Promise<ErasureVerification> {
  const key = erasureHashKey(config);
  const matcher = subjectMatcher(key, subject, config.crm.defaultCountry as CountryCode);
  const pattern =
    subject.kind === 'number' ? nationalDigitsPattern(subject.value) : escapeRegex(subject.value);
  const left: string[] = [];
  const unread: string[] = [];

  if (await getErasureRequest(warehouse.db, identifierHash(key, subject.kind, subject.value))) {
    left.push('erasure_requests: an erasure of them has not finished (run `callsync erase` again)');
  }
  for (const t of await erasableTables(warehouse.pool)) {
    const n = await countPersonInTable(warehouse.pool, t, pattern, matcher);
    if (n > 0) left.push(`warehouse.${t.table}: ${rows(n)}`);
  }
  if (config.warehouse.bigquery) {
    const accounts = config.accounts.map((a) => a.name);
    const warehouses = await createBigQueryWarehouses(config.warehouse.bigquery, accounts);
    for (const [place, n] of await countPersonInBigQuery(warehouses, accounts, pattern, matcher)) {
      left.push(`${place}: ${rows(n)}`);
    }
  }
  const codec = payloadCodecFromConfig(config.temporal);
  for await (const hit of historiesNaming(temporal, codec, namesPerson(matcher, []))) {
    left.push(`temporal: ${hit.workflowId} (${hit.workflowType}, run ${hit.runId})`);
  }
  for (const [place, dir] of reportDirs(config)) {
    for (const file of await filesUnder(dir)) {
      const text = await reportFileText(file);
      if (text === null) unread.push(file);
      else if (matcher.replaceInText(text) !== text) left.push(`${place}: ${file}`);
    }
  }
  return { left, unread };
}

/** What `--verify` prints. */
export function formatVerification(v: ErasureVerification): string {
  const lines =
    v.left.length === 0
      ? ['nothing left: no table (PostgreSQL or BigQuery), Temporal history or report file names them']
      : [`LEFT (${v.left.length} places):`, ...v.left.map((l) => `  ${l}`)];
  if (v.unread.length > 0) {
    lines.push(
      `not searched (files it cannot read: other formats, damaged or protected workbooks and PDFs; check or delete them by hand, docs/privacy.md "Erasure"): ${v.unread.length}`,
      ...v.unread.map((f) => `  ${f}`),
    );
  }
  lines.push(
    'not searched from here: delivered report e-mails and Drive/Sheets files, external CRM records: see docs/privacy.md "Erasure"',
  );
  return lines.join('\n');
}
