// The BigQuery side of each stream: its columns (the PostgreSQL table's, in BigQuery types), its
// DDL, the JSON document one staged row is, and the MERGE that moves a staged page into the table.
// Pure: no I/O, so every statement is unit-tested as text.
import type { ColumnKind } from '../postgres/tables/columns';
import { streamTable, type Cell, type StreamName } from '../postgres/stream-tables';
import { streamDateField } from './stream-dates';

/** The BigQuery type of each column kind (numeric(12,4) fits NUMERIC's 29 digits and 9 decimals). */
export const BQ_TYPES: Readonly<Record<ColumnKind, string>> = {
  bigint: 'INT64',
  double: 'FLOAT64',
  numeric: 'NUMERIC',
  text: 'STRING',
  boolean: 'BOOL',
  timestamptz: 'TIMESTAMP',
  jsonb: 'JSON',
};

export interface BigQueryColumn {
  readonly name: string;
  /** BigQuery type, as DDL writes it and tables.get reports it (INT64 is reported as INTEGER). */
  readonly type: string;
  readonly kind: ColumnKind;
}

/** A table in BigQuery, `project.dataset.table`. */
export interface TableRef {
  projectId: string;
  dataset: string;
  table: string;
}

/** The table's name quoted for GoogleSQL (`project.dataset.table` in backticks). */
export function quoteTable(ref: TableRef): string {
  for (const part of [ref.projectId, ref.dataset, ref.table]) {
    if (/[`\\\n]/.test(part))
      throw new Error(`BigQuery name ${JSON.stringify(part)} holds a quote or newline`);
  }
  return `\`${ref.projectId}.${ref.dataset}.${ref.table}\``;
}

/** A column name quoted for GoogleSQL (sms has `from` and `to`, which are reserved words). */
export function quoteName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new Error(`BigQuery column name ${JSON.stringify(name)} is not plain`);
  return `\`${name}\``;
}

/** Every column of a stream's BigQuery table: account, the stream's columns (id first, raw last), synced_at. */
export function bigqueryColumns(stream: StreamName): BigQueryColumn[] {
  const spec = streamTable(stream);
  return [
    { name: 'account', type: 'STRING', kind: 'text' },
    ...spec.columns.map((c) => ({ name: c.name, type: BQ_TYPES[c.kind], kind: c.kind })),
    { name: 'synced_at', type: 'TIMESTAMP', kind: 'timestamptz' },
  ];
}

/** The column a stream's table is partitioned by (daily): its cursor field or created_at, when a timestamp. */
export function partitionColumn(stream: StreamName): string | undefined {
  const kinds = new Map(streamTable(stream).columns.map((c) => [c.name, c.kind]));
  for (const name of [streamDateField(stream), 'created_at']) {
    if (kinds.get(name) === 'timestamptz') return name;
  }
  return undefined;
}

/** CREATE TABLE IF NOT EXISTS for a stream: daily partitions on its date, clustered by account and id. */
export function createTableSql(ref: TableRef, stream: StreamName): string {
  const cols = bigqueryColumns(stream).map(
    (c) => `${quoteName(c.name)} ${c.type}${c.name === 'account' || c.name === 'id' ? ' NOT NULL' : ''}`,
  );
  const partition = partitionColumn(stream);
  return (
    `CREATE TABLE IF NOT EXISTS ${quoteTable(ref)} (${cols.join(', ')})` +
    (partition ? ` PARTITION BY TIMESTAMP_TRUNC(${quoteName(partition)}, DAY)` : '') +
    ` CLUSTER BY account, id`
  );
}

/** ALTER TABLE adding the columns a table lacks (a stream that gained fields); undefined when none. */
export function addColumnsSql(
  ref: TableRef,
  stream: StreamName,
  existing: readonly string[],
): string | undefined {
  const have = new Set(existing.map((n) => n.toLowerCase()));
  const missing = bigqueryColumns(stream).filter((c) => !have.has(c.name.toLowerCase()));
  if (missing.length === 0) return undefined;
  return `ALTER TABLE ${quoteTable(ref)} ${missing.map((c) => `ADD COLUMN IF NOT EXISTS ${quoteName(c.name)} ${c.type}`).join(', ')}`;
}

/**
 * `YYYY-MM-DD HH:MM:SS[.fff]±ZZ[:ZZ]` (the mapper's timestamptz text) as RFC 3339, which BigQuery's
 * CAST AS TIMESTAMP reads everywhere.
 */
export function toRfc3339(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?$/.exec(text);
  if (!m) throw new Error(`not a normalised timestamp: ${JSON.stringify(text)}`);
  const [, date, time, hours, minutes = '00'] = m;
  const zone = hours === '+00' && minutes === '00' ? 'Z' : `${hours}:${minutes}`;
  return `${date}T${time}${zone}`;
}

/**
 * One staged row: a JSON object of the row's non-null cells (absent keys read back as NULL).
 * Timestamps become RFC 3339 and money a 4-decimal string, so BigQuery stores what PostgreSQL does.
 */
export function rowDocument(stream: StreamName, account: string, cells: readonly Cell[]): string {
  const columns = streamTable(stream).columns;
  const doc: Record<string, unknown> = { account };
  columns.forEach((c, i) => {
    const v = cells[i];
    if (v === null || v === undefined) return;
    if (c.kind === 'timestamptz') doc[c.name] = toRfc3339(v as string);
    else if (c.kind === 'numeric') doc[c.name] = (v as number).toFixed(4);
    else doc[c.name] = v;
  });
  return JSON.stringify(doc);
}

/**
 * The staging file: CSV with one quoted STRING column, one row document per line. JSON text never
 * holds a raw newline, so this loads without allowQuotedNewlines, in BigQuery and in the emulator.
 */
export function stageCsv(documents: readonly string[]): Buffer {
  return Buffer.from(documents.map((d) => `"${d.replaceAll('"', '""')}"\n`).join(''), 'utf8');
}

/** Schema of the staging table. */
export const STAGE_SCHEMA = { fields: [{ name: 'doc', type: 'STRING', mode: 'NULLABLE' }] };

function sourceExpression(c: BigQueryColumn): string {
  const path = `'$.${c.name}'`;
  switch (c.kind) {
    case 'jsonb':
      return `JSON_QUERY(doc, ${path})`;
    case 'text':
      return `JSON_VALUE(doc, ${path})`;
    default:
      return `CAST(JSON_VALUE(doc, ${path}) AS ${c.type})`;
  }
}

/** How a source column is written: JSON text is parsed, everything else is already typed. */
function valueOf(c: BigQueryColumn): string {
  return c.kind === 'jsonb' ? `PARSE_JSON(s.${quoteName(c.name)})` : `s.${quoteName(c.name)}`;
}

/**
 * MERGE of a staged page into the stream's table on (account, id): new rows are inserted, rows whose
 * raw record changed are updated (synced_at moves), unchanged rows are left alone, as in PostgreSQL.
 */
export function mergeSql(target: TableRef, stage: TableRef, stream: StreamName): string {
  const cols = bigqueryColumns(stream).filter((c) => c.name !== 'synced_at');
  const select = cols.map((c) => `${sourceExpression(c)} AS ${quoteName(c.name)}`).join(', ');
  const updates = cols
    .filter((c) => c.name !== 'account' && c.name !== 'id')
    .map((c) => `${quoteName(c.name)} = ${valueOf(c)}`)
    .concat('synced_at = CURRENT_TIMESTAMP()')
    .join(', ');
  const names = cols.map((c) => quoteName(c.name)).concat('synced_at');
  const values = cols.map(valueOf).concat('CURRENT_TIMESTAMP()');
  return (
    `MERGE ${quoteTable(target)} AS t USING (SELECT ${select} FROM ${quoteTable(stage)}) AS s ` +
    `ON t.account = s.account AND t.id = s.id ` +
    `WHEN MATCHED AND TO_JSON_STRING(t.raw) != TO_JSON_STRING(PARSE_JSON(s.raw)) THEN UPDATE SET ${updates} ` +
    `WHEN NOT MATCHED THEN INSERT (${names.join(', ')}) VALUES (${values.join(', ')})`
  );
}
