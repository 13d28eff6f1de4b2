// CSV written by PostgreSQL: the rows' cells are formatted as text by the query itself and COPY …
// TO STDOUT (FORMAT csv) streams them into the file, with no row objects in Node. We write the
// byte-order mark and the translated header first, turn COPY's line ends into CRLF (as the JS
// writer's), and count bytes and hash them as they pass.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Culture } from '../culture';

/** The file COPY wrote: rows (header not counted), bytes and SHA-256. */
export interface CopiedCsv {
  rows: number;
  bytes: number;
  sha256: string;
}

const FIELDS: Readonly<Record<string, string>> = {
  year: 'YYYY',
  month: 'MM',
  day: 'DD',
  hour: 'HH24',
  minute: 'MI',
  second: 'SS',
};

/**
 * The to_char pattern of the culture's date and time (as cellFormatter writes instants), or
 * undefined when Intl writes something to_char cannot (non-ASCII digits, month names).
 */
export function toCharDateTimePattern(culture: Culture): string | undefined {
  const parts = new Intl.DateTimeFormat(culture.tag, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  }).formatToParts(new Date(Date.UTC(2026, 10, 23, 14, 5, 9)));
  let pattern = '';
  for (const p of parts) {
    if (p.type === 'literal') {
      // Literals go in double quotes; to_char has no escape for a quote or backslash inside them.
      if (/["\\]/.test(p.value)) return undefined;
      pattern += `"${p.value}"`;
    } else {
      const field = FIELDS[p.type];
      if (!field || !/^\d+$/.test(p.value)) return undefined;
      pattern += field;
    }
  }
  return pattern;
}

/** Turns LF record ends into CRLF; line breaks inside quoted fields are left as they are. */
export class CrlfRecords extends Transform {
  private inQuote = false;
  /** Bytes pushed. */
  bytes = 0;
  readonly hash = createHash('sha256');

  /** Pushes `buf` and hashes it (the header and BOM go through here too). */
  pass(buf: Buffer): void {
    this.bytes += buf.length;
    this.hash.update(buf);
    this.push(buf);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (!this.inQuote && !chunk.includes(0x22)) {
      // No quoted field in the chunk: every LF ends a record. V8 replaces them in native code,
      // over the bytes as a Latin-1 string (one byte, one character, both ways): a JavaScript
      // loop over every byte cost four times the SHA-256 of the same bytes.
      this.pass(Buffer.from(chunk.toString('latin1').replaceAll('\n', '\r\n'), 'latin1'));
      return done();
    }
    const ends = this.quotedEnds(chunk);
    if (ends.length === 0) {
      this.pass(chunk);
      return done();
    }
    const out = Buffer.allocUnsafe(chunk.length + ends.length);
    let from = 0;
    let at = 0;
    for (const end of ends) {
      at += chunk.copy(out, at, from, end);
      out[at++] = 0x0d;
      out[at++] = 0x0a;
      from = end + 1;
    }
    chunk.copy(out, at, from);
    this.pass(out);
    done();
  }

  /** Record ends of a chunk with quotes in it: an LF inside a quoted field is not one. */
  private quotedEnds(chunk: Buffer): number[] {
    const ends: number[] = [];
    let inQuote = this.inQuote;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === 0x22) inQuote = !inQuote;
      else if (b === 0x0a && !inQuote) ends.push(i);
    }
    this.inQuote = inQuote;
    return ends;
  }
}

/** The COPY statement that writes `selectSql`'s text cells as CSV with `delimiter`. */
export function csvCopyStatement(selectSql: string, delimiter: string): string {
  return `COPY (${selectSql}) TO STDOUT (FORMAT csv, DELIMITER '${delimiter}')`;
}

/**
 * Runs `COPY (selectSql) TO STDOUT` as CSV in the culture's delimiter into `outPath`, after a BOM
 * and the header row. `selectSql` must yield each cell as text already (NULL for empty).
 */
export async function copyCsv(
  pool: pg.Pool,
  selectSql: string,
  headers: readonly string[],
  culture: Culture,
  outPath: string,
): Promise<CopiedCsv> {
  const delimiter = culture.csvDelimiter;
  const crlf = new CrlfRecords();
  crlf.pass(
    Buffer.from(stringify([headers as string[]], { delimiter, bom: true, record_delimiter: 'windows' })),
  );
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const copy = client.query(copyTo(csvCopyStatement(selectSql, delimiter)));
    await pipeline(copy, crlf, createWriteStream(outPath));
    return { rows: copy.rowCount, bytes: crlf.bytes, sha256: crlf.hash.digest('hex') };
  } catch (err) {
    // A COPY cut off mid-stream leaves the connection in an unknown state: the pool drops it.
    broken = err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}
