// The data rows of an XLSX sheet rendered straight from the bytes of PostgreSQL's COPY text: a
// field's bytes go into the sheet XML as they came (UTF-8 both ways) unless the field needs work
// (a number to convert, a backslash escape, a character XML must escape or cannot hold). A million
// rows are about 400 MB of XML; building them as JavaScript strings cost more in garbage collection
// and UTF-8 encoding than in rendering, and kept the deflater waiting. The XML is exactly what
// sheetRowRenderer (xlsx-rows.ts) writes for the rows parseCopyLine reads, except that plainly
// written numbers keep PostgreSQL's digits (`0.0150`, which reads back as 0.015).
import type { ColumnType } from '../columns';
import { unescapeCopyText } from '../copy-rows';
import { columnLetters, excelSerial, xmlText, type SheetRowsLayout } from './xlsx-rows';

const SECONDS_PER_DAY = 86_400;
const TAB = 0x09;
const LF = 0x0a;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const DOT = 0x2e;

/** Grows as rows are rendered into it; `take()` hands the bytes over and starts a new buffer. */
class ByteSink {
  private buf: Buffer;
  private pos = 0;

  constructor(private readonly initial: number) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  bytes(src: Uint8Array, from = 0, to = src.length): void {
    this.ensure(to - from);
    const buf = this.buf;
    let pos = this.pos;
    for (let k = from; k < to; k++) buf[pos++] = src[k] as number;
    this.pos = pos;
  }

  /** Text of ASCII characters only (numbers, fragments of markup). */
  ascii(s: string): void {
    this.ensure(s.length);
    const buf = this.buf;
    let pos = this.pos;
    for (let k = 0; k < s.length; k++) buf[pos++] = s.charCodeAt(k);
    this.pos = pos;
  }

  utf8(s: string): void {
    this.ensure(s.length * 3);
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  get size(): number {
    return this.pos;
  }

  take(): Buffer {
    const out = this.buf.subarray(0, this.pos);
    this.buf = Buffer.allocUnsafe(Math.max(this.initial, this.pos));
    this.pos = 0;
    return out;
  }
}

/** Whether bytes [from, to) are a number as PostgreSQL writes integers and numerics: -?d+(.d+)? */
function isPlainNumber(b: Uint8Array, from: number, to: number): boolean {
  let k = from;
  if (b[k] === MINUS) k++;
  const integral = k;
  while (k < to && isDigit(b[k])) k++;
  if (k === integral) return false;
  if (k === to) return true;
  if (b[k++] !== DOT) return false;
  const fraction = k;
  while (k < to && isDigit(b[k])) k++;
  return k === to && k > fraction;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

/** Whether bytes [from, to) can go into XML as they are: nothing to unescape, escape or drop. */
function isPlainText(b: Uint8Array, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = b[k] as number;
    // Control characters, DEL, and " & ' < > \ (0x22, 0x26, 0x27, 0x3c, 0x3e, 0x5c).
    if (c < 0x20 || c === 0x7f || c === 0x22 || c === 0x26 || c === 0x27) return false;
    if (c === 0x3c || c === 0x3e || c === BACKSLASH) return false;
  }
  return true;
}

const ascii = (s: string): Uint8Array => Buffer.from(s, 'latin1');

/** Renders blocks of COPY text into sheet XML, which it holds until taken. */
export interface CopyBytesRenderer {
  /** Renders a block of whole lines (each ending in LF) as rows from `firstRow`; returns their count. */
  add(block: Buffer, firstRow: number): number;
  /** Bytes of XML rendered and not taken yet. */
  readonly size: number;
  /** The XML rendered since the last take. */
  take(): Buffer;
}

/** A renderer of COPY text bytes into about `bufferBytes` of XML at a time. */
export function copyBytesRenderer(layout: SheetRowsLayout, bufferBytes = 256 * 1024): CopyBytesRenderer {
  const { types, styleIds, toLocalMs } = layout;
  // Per column: `<c r="B` before the row number, and `" s="3" t="str"><v>` after it.
  const heads = types.map((_, i) => ascii(`<c r="${columnLetters(i + 1)}`));
  const mids = types.map((type, i) => {
    const style = styleIds[i] ? ` s="${styleIds[i]}"` : '';
    const t = type === 'boolean' ? ' t="b"' : isTextual(type) ? ' t="str"' : '';
    return ascii(`"${style}${t}><v>`);
  });
  const cellEnd = ascii('</v></c>');
  const rowEnd = ascii('</row>');
  const rowStart = ascii('<row r="');
  const rowStartEnd = ascii('">');
  const sink = new ByteSink(bufferBytes);

  const value = (i: number, b: Buffer, from: number, to: number): void => {
    switch (types[i]) {
      case 'integer':
      case 'decimal':
      case 'money':
      case 'percent':
        if (isPlainNumber(b, from, to)) sink.bytes(b, from, to);
        else sink.ascii(String(Number(b.toString('latin1', from, to))));
        return;
      case 'duration':
        sink.ascii(String(Number(b.toString('latin1', from, to)) / SECONDS_PER_DAY));
        return;
      case 'datetime':
        sink.ascii(String(excelSerial(toLocalMs(Number(b.toString('latin1', from, to))))));
        return;
      case 'date':
        sink.ascii(String(excelSerial(Date.parse(`${b.toString('latin1', from, to)}T00:00:00Z`))));
        return;
      case 'boolean':
        sink.ascii(b[from] === 0x74 /* t */ ? '1' : '0');
        return;
      default:
        if (isPlainText(b, from, to)) sink.bytes(b, from, to);
        else sink.utf8(xmlText(unescapeCopyText(b.toString('utf8', from, to))));
    }
  };

  const add = (block: Buffer, firstRow: number): number => {
    let rowNumber = firstRow;
    for (let start = 0; start < block.length; rowNumber++) {
      let end = block.indexOf(LF, start);
      if (end === -1) end = block.length;
      const digits = String(rowNumber);
      sink.bytes(rowStart);
      sink.ascii(digits);
      sink.bytes(rowStartEnd);
      for (let from = start, i = 0; ; i++) {
        let to = from;
        while (to < end && block[to] !== TAB) to++;
        // \N is NULL: no cell at all, as exceljs writes nothing for a null.
        const isNull = to - from === 2 && block[from] === BACKSLASH && block[from + 1] === 0x4e;
        if (!isNull) {
          sink.bytes(heads[i] ?? ascii(`<c r="${columnLetters(i + 1)}`));
          sink.ascii(digits);
          sink.bytes(mids[i] ?? ascii('" t="str"><v>'));
          value(i, block, from, to);
          sink.bytes(cellEnd);
        }
        if (to === end) break;
        from = to + 1;
      }
      sink.bytes(rowEnd);
      start = end + 1;
    }
    return rowNumber - firstRow;
  };
  return {
    add,
    get size() {
      return sink.size;
    },
    take: () => sink.take(),
  };
}

function isTextual(type: ColumnType | undefined): boolean {
  return type === undefined || type === 'text';
}
