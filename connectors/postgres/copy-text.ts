// PostgreSQL COPY text format, written by hand because it is the hot loop of a backfill: one line
// per row, columns separated by tabs, \N for NULL, and backslash, tab, newline and carriage return
// escaped. PostgreSQL text cannot hold NUL characters, so they are dropped.
import { toJsonText } from './json-text';
import { streamTable, type Cell, type ColumnSpec, type PageRecord, type StreamName } from './stream-tables';
import type { ColumnKind } from './tables/columns';

const NULL = '\\N';
const SPECIAL = /[\\\t\n\r\0]/;
const SPECIAL_ALL = /[\\\t\n\r\0]/g;
const ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\0': '',
};
const escapeChar = (ch: string): string => ESCAPES[ch] ?? '';

/** A string as one COPY text field. */
export function escapeCopyText(s: string): string {
  return SPECIAL.test(s) ? s.replace(SPECIAL_ALL, escapeChar) : s;
}

// JSON.stringify never writes raw tabs or newlines, so only its backslashes need doubling.
function encodeJson(cell: Cell): string {
  const json = toJsonText(cell);
  if (json === undefined) return NULL;
  return json.includes('\\') ? json.replace(/\\/g, '\\\\') : json;
}

// Kinds as small integers: the hot loop switches on them instead of calling a function per cell.
const NUMBER = 0;
const TIMESTAMP = 1;
const BOOLEAN = 2;
const TEXT = 3;
const JSON_VALUE = 4;
const KIND_CODES: Readonly<Record<ColumnKind, number>> = {
  bigint: NUMBER,
  double: NUMBER,
  numeric: NUMBER,
  // Timestamps come normalised from the row mapper and hold no special characters.
  timestamptz: TIMESTAMP,
  boolean: BOOLEAN,
  text: TEXT,
  jsonb: JSON_VALUE,
};

/**
 * Encodes mapped rows of one account as COPY text lines (account first, then the mapped
 * columns); `start` and `end` select a slice of `rows` without copying it. Called as a function it
 * returns the text; `bytes` returns the same text as UTF-8, written straight into one buffer.
 */
export interface CopyEncoder {
  (account: string, rows: readonly (readonly Cell[])[], start?: number, end?: number): string;
  bytes(account: string, rows: readonly (readonly Cell[])[], start?: number, end?: number): Buffer;
}

/** One non-JSON cell as a COPY field (kind codes as in KIND_CODES; JSON values go through encodeJson). */
function fieldText(kind: number, c: Cell): string {
  if (c === null) return NULL;
  switch (kind) {
    case NUMBER:
      return `${c as number}`;
    case TIMESTAMP:
      return c as string;
    case BOOLEAN:
      return c ? 't' : 'f';
    case TEXT:
      return escapeCopyText(c as string);
    default:
      return encodeJson(c);
  }
}

// UTF-8 takes at most 3 bytes per UTF-16 code unit (a surrogate pair: 4 bytes for 2 units).
const MAX_UTF8_PER_UNIT = 3;

/** The COPY text encoder for rows with the given mapped columns. */
export function encoderFor(columns: readonly ColumnSpec[]): CopyEncoder {
  const kinds = Int8Array.from(columns.map((c) => KIND_CODES[c.kind]));
  const n = kinds.length;
  // Bytes per row of the last slice encoded, to size the next slice's buffer in one go.
  let bytesPerRow = 1024;

  const text = (account: string, rows: readonly (readonly Cell[])[], start = 0, end = rows.length) => {
    const prefix = escapeCopyText(account);
    let out = '';
    for (let r = start; r < end; r++) {
      const row = rows[r] as readonly Cell[];
      let line = prefix;
      for (let i = 0; i < n; i++) line += `\t${fieldText(kinds[i] as number, row[i] as Cell)}`;
      out += `${line}\n`;
    }
    return out;
  };

  // Each row is written as a few flat strings: the non-JSON fields concatenated, and each JSON
  // text on its own. Flattening one text string for a whole slice (Buffer.from) costs more than
  // the encoding itself.
  const bytes = (account: string, rows: readonly (readonly Cell[])[], start = 0, end = rows.length) => {
    const prefix = escapeCopyText(account);
    let buf = Buffer.allocUnsafe(Math.max(4096, Math.ceil((end - start) * bytesPerRow * 1.25)));
    let off = 0;
    const put = (s: string): void => {
      const need = s.length * MAX_UTF8_PER_UNIT;
      if (buf.length - off < need) {
        const grown = Buffer.allocUnsafe(Math.max(buf.length * 2, off + need));
        buf.copy(grown, 0, 0, off);
        buf = grown;
      }
      off += buf.write(s, off);
    };
    for (let r = start; r < end; r++) {
      const row = rows[r] as readonly Cell[];
      let line = prefix;
      for (let i = 0; i < n; i++) {
        const c = row[i] as Cell;
        if (kinds[i] === JSON_VALUE && c !== null) {
          put(`${line}\t`);
          put(encodeJson(c));
          line = '';
        } else line += `\t${fieldText(kinds[i] as number, c)}`;
      }
      put(`${line}\n`);
    }
    if (end > start) bytesPerRow = Math.ceil(off / (end - start));
    return buf.subarray(0, off);
  };

  return Object.assign(text, { bytes });
}

const encoders = new Map<StreamName, CopyEncoder>();

/** The COPY text encoder of a stream's table (rows as its row mapper returns them). */
export function copyEncoder(stream: StreamName): CopyEncoder {
  let enc = encoders.get(stream);
  if (!enc) {
    enc = encoderFor(streamTable(stream).columns);
    encoders.set(stream, enc);
  }
  return enc;
}

/** Quotes an SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Quotes a table name, schema-qualified when it has a dot (`bench.cdrs_copy`). */
export function quoteTable(name: string): string {
  return name.split('.').map(quoteIdent).join('.');
}

/** The columns a stream's COPY writes, in order: account, then the mapped columns. */
export function copyColumns(stream: StreamName): string[] {
  return ['account', ...streamTable(stream).columns.map((c) => c.name)];
}

/** `COPY <table> (<columns>) FROM STDIN` for a stream's rows; `table` defaults to the stream's table. */
export function copySql(stream: StreamName, table: string = streamTable(stream).table): string {
  return `COPY ${quoteTable(table)} (${copyColumns(stream).map(quoteIdent).join(', ')}) FROM STDIN`;
}

/** COPY text of a page of records, in the given order (maps every record; throws RowMappingError). */
export function toCopyText<S extends StreamName>(
  stream: S,
  account: string,
  records: readonly PageRecord<S>[],
): string {
  const spec = streamTable(stream);
  return copyEncoder(stream)(
    account,
    records.map((r) => spec.mapRow(r.record, r.raw)),
  );
}
