// A report's rows read through COPY … TO STDOUT in text format instead of a cursor: PostgreSQL sends
// tab-separated lines and we parse only what each column's type needs (numbers, epoch-millisecond
// instants, text unescaped when it holds a backslash), with no row objects from the driver.
import { StringDecoder } from 'node:string_decoder';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { ColumnType, Cell, ReportRow } from './columns';

const ESCAPED = /\\(?:[0-7]{1,3}|x[0-9A-Fa-f]{1,2}|.)/g;
const SIMPLE: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** A COPY text field's value: backslash escapes resolved (octal, hex and the C-like letters). */
export function unescapeCopyText(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(ESCAPED, (m) => {
    const c = m.slice(1);
    if (c in SIMPLE) return SIMPLE[c] ?? c;
    if (/^[0-7]+$/.test(c)) return String.fromCharCode(parseInt(c, 8));
    if (c.startsWith('x') && c.length > 1) return String.fromCharCode(parseInt(c.slice(1), 16));
    return c;
  });
}

/** One COPY text line as cells of the given types (datetime columns hold epoch milliseconds). */
export function parseCopyLine(line: string, types: readonly ColumnType[]): ReportRow {
  const fields = line.split('\t');
  const row = new Array<Cell>(fields.length);
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as string;
    if (f === '\\N') {
      row[i] = null;
      continue;
    }
    switch (types[i]) {
      case 'integer':
      case 'decimal':
      case 'money':
      case 'percent':
      case 'duration':
        row[i] = Number(f);
        break;
      case 'datetime':
        row[i] = new Date(Number(f));
        break;
      case 'boolean':
        row[i] = f === 't';
        break;
      default:
        row[i] = unescapeCopyText(f);
    }
  }
  return row;
}

/** Streams `COPY (selectSql) TO STDOUT` text rows as typed cells, holding one chunk at a time. */
export async function* copyRows(
  pool: pg.Pool,
  selectSql: string,
  types: readonly ColumnType[],
): AsyncIterable<ReportRow> {
  const client = await pool.connect();
  let finished = false;
  try {
    const copy = client.query(copyTo(`COPY (${selectSql}) TO STDOUT`));
    // A chunk may end inside a multi-byte character: the decoder keeps its first bytes.
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for await (const chunk of copy as AsyncIterable<Buffer>) {
      // Lines end in LF (text format escapes LF inside fields), so a chunk splits cleanly on it.
      const lines = (rest + decoder.write(chunk)).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) yield parseCopyLine(line, types);
    }
    rest += decoder.end();
    if (rest !== '') yield parseCopyLine(rest, types);
    finished = true;
  } finally {
    // Failed or stopped early, the COPY may still be running on the connection: the pool drops it.
    client.release(finished ? undefined : new Error('COPY not read to its end'));
  }
}
