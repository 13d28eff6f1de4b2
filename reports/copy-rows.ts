// A report's rows read through COPY … TO STDOUT in text format instead of a cursor: PostgreSQL sends
// tab-separated lines and we parse only what each column's type needs (numbers, epoch-millisecond
// instants, text unescaped when it holds a backslash), with no row objects from the driver.
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { ColumnType, Cell, ReportRow } from './columns';

const LF = 0x0a;
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

/** The COPY statement whose text rows copyRows reads. */
export function rowsCopyStatement(selectSql: string): string {
  return `COPY (${selectSql}) TO STDOUT`;
}

/**
 * Streams `COPY (selectSql) TO STDOUT` as blocks of whole lines, each ending in LF, as PostgreSQL's
 * UTF-8 bytes, holding one chunk at a time. The COPY is read only as fast as the blocks are consumed.
 */
export async function* copyByteBlocks(pool: pg.Pool, selectSql: string): AsyncIterable<Buffer> {
  const client = await pool.connect();
  let finished = false;
  try {
    const copy = client.query(copyTo(rowsCopyStatement(selectSql)));
    let rest: Buffer | undefined;
    for await (const chunk of copy as AsyncIterable<Buffer>) {
      // Lines end in LF (text format escapes LF inside fields, and no byte of a multi-byte UTF-8
      // character is LF), so a block ends at the chunk's last LF. Only the line a chunk boundary
      // cut is copied, not the chunk.
      let from = 0;
      if (rest) {
        const first = chunk.indexOf(LF);
        if (first === -1) {
          rest = Buffer.concat([rest, chunk]);
          continue;
        }
        yield Buffer.concat([rest, chunk.subarray(0, first + 1)]);
        rest = undefined;
        from = first + 1;
      }
      const end = chunk.lastIndexOf(LF) + 1;
      if (end > from) yield chunk.subarray(from, end);
      if (Math.max(end, from) < chunk.length) rest = chunk.subarray(Math.max(end, from));
    }
    if (rest) yield Buffer.concat([rest, Buffer.from([LF])]);
    finished = true;
  } finally {
    // Failed or stopped early, the COPY may still be running on the connection: the pool drops it.
    client.release(finished ? undefined : new Error('COPY not read to its end'));
  }
}

/** Streams `COPY (selectSql) TO STDOUT` text rows as typed cells. */
export async function* copyRows(
  pool: pg.Pool,
  selectSql: string,
  types: readonly ColumnType[],
): AsyncIterable<ReportRow> {
  for await (const block of copyByteBlocks(pool, selectSql)) {
    const lines = block.toString('utf8').split('\n');
    lines.pop();
    for (const line of lines) yield parseCopyLine(line, types);
  }
}
