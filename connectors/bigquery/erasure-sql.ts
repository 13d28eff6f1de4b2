// The BigQuery statements of erasing one person from a stream's table: the SELECT that finds their
// rows (a regular expression over every text and JSON column, or a call of theirs) and the MERGE
// that deletes rows that cannot be anonymised. Anonymised rows go back through the page MERGE
// (table-schema.ts), which replaces a row in place by (account, id). Pure: no I/O.
//
// The statements carry their values as literals, not query parameters, and delete by MERGE rather
// than DELETE: both are plain GoogleSQL, and the test emulator (crucible) takes neither parameters
// nor DML UPDATE/DELETE.
import type { StreamName } from '../postgres/stream-tables';
import { bigqueryColumns, quoteName, quoteTable, type BigQueryColumn, type TableRef } from './table-schema';

/** Columns of a stream's table that name a call: rows of the person's calls are theirs. */
export const CALL_ID_COLUMNS: Partial<Readonly<Record<StreamName, string>>> = {
  cdrs: 'live_id',
  recordings: 'live_id',
  voicemessages: 'live_id',
};

/** A GoogleSQL string literal of `text` (backslash, quote and line breaks escaped). */
export function stringLiteral(text: string): string {
  const escaped = text.replace(/[\\'\n\r\t]/g, (c) =>
    c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\${c}`,
  );
  return `'${escaped}'`;
}

/** The text and JSON columns an erasure reads and scrubs (`account` is the key, not the person's). */
export function erasureColumns(stream: StreamName): BigQueryColumn[] {
  return bigqueryColumns(stream).filter(
    (c) => (c.kind === 'text' || c.kind === 'jsonb') && c.name !== 'account',
  );
}

/**
 * The account's rows of a stream's table in which `pattern` (an RE2 source, matched without regard
 * to case) appears in a text or JSON column, or that belong to one of `callIds`. Selects `id`,
 * `_call_id` and each erasure column (JSON ones as JSON text).
 */
export function personRowsSql(
  ref: TableRef,
  stream: StreamName,
  account: string,
  pattern: string,
  callIds: readonly number[],
): string {
  const columns = erasureColumns(stream);
  const regex = stringLiteral(`(?i)${pattern}`);
  const text = (c: BigQueryColumn) =>
    c.kind === 'jsonb' ? `TO_JSON_STRING(${quoteName(c.name)})` : quoteName(c.name);
  const matches = columns.map((c) => `REGEXP_CONTAINS(${text(c)}, ${regex})`);
  const callColumn = CALL_ID_COLUMNS[stream];
  const ids = callIds.filter((id) => Number.isSafeInteger(id));
  if (callColumn && ids.length > 0) matches.push(`${quoteName(callColumn)} IN (${ids.join(', ')})`);
  const select = [
    '`id`',
    callColumn ? `${quoteName(callColumn)} AS \`_call_id\`` : 'CAST(NULL AS INT64) AS `_call_id`',
    ...columns.map((c) => `${text(c)} AS ${quoteName(c.name)}`),
  ];
  return (
    `SELECT ${select.join(', ')} FROM ${quoteTable(ref)} ` +
    `WHERE account = ${stringLiteral(account)} AND (${matches.length > 0 ? matches.join(' OR ') : 'FALSE'}) ` +
    `ORDER BY \`id\``
  );
}

/** Deletes the account's rows with these ids (a MERGE that only deletes; running it again deletes nothing). */
export function deleteRowsSql(ref: TableRef, account: string, ids: readonly number[]): string {
  for (const id of ids) {
    if (!Number.isSafeInteger(id)) throw new Error(`not a row id: ${String(id)}`);
  }
  return (
    `MERGE ${quoteTable(ref)} AS t USING (SELECT id FROM UNNEST([${ids.join(', ')}]) AS id) AS s ` +
    `ON t.account = ${stringLiteral(account)} AND t.id = s.id WHEN MATCHED THEN DELETE`
  );
}
