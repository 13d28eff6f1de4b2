// JSON text of store rows, written once per row into large byte slabs outside the JS heap. Rows are
// immutable snapshots (an update replaces the object, see MemoryTable), so a row's text never goes
// stale. Rows first served together are written one after the other, each followed by a comma, so a
// page served again (a backfill reads what a first pass read) is one slice of a slab: the answer is
// written to the socket from there, with no page-sized string to build, encode and collect. The
// platform's own servers are not on the machine that runs callsync; this keeps the emulator's share
// of a shared machine's CPU small when a backfill reads millions of rows.

/** Where a row's text is: bytes [start, end) of a slab, the last of them the comma after it. */
interface TextPlace {
  slab: number;
  start: number;
  end: number;
}

const PLACE = Symbol('emulator row text');

type Placed = { [PLACE]?: TextPlace };

/** Slabs grow from the first size, doubling, up to the largest; a text larger than that gets its own. */
export interface RowTextOptions {
  firstSlabBytes: number;
  largestSlabBytes: number;
}

const DEFAULTS: RowTextOptions = { firstSlabBytes: 1 << 20, largestSlabBytes: 256 << 20 };

/** The row texts of one emulator process (a store of any size; tests make small-slabbed ones). */
export class RowTexts {
  private readonly slabs: Buffer[] = [];
  private used = 0;

  constructor(private readonly options: RowTextOptions = DEFAULTS) {}

  /** The bytes of each row's text, comma after each, as few slices as the rows' places allow. */
  slices(rows: readonly object[]): Buffer[] {
    const out: Buffer[] = [];
    let run: TextPlace | undefined;
    for (const row of rows) {
      if (!Object.isExtensible(row)) {
        // A frozen row cannot keep its place: its text is made for this answer only.
        if (run) out.push(this.slice(run));
        run = undefined;
        out.push(Buffer.from(textOf(row)));
        continue;
      }
      const place = this.place(row);
      if (run && place.slab === run.slab && place.start === run.end) {
        run.end = place.end;
        continue;
      }
      if (run) out.push(this.slice(run));
      run = { ...place };
    }
    if (run) out.push(this.slice(run));
    return out;
  }

  private slice(p: TextPlace): Buffer {
    return (this.slabs[p.slab] as Buffer).subarray(p.start, p.end);
  }

  /** The row's place, its text written at the end of the current slab the first time. */
  private place(row: object): TextPlace {
    const kept = (row as Placed)[PLACE];
    if (kept !== undefined) return kept;
    const text = textOf(row);
    // UTF-8 takes at most 3 bytes per UTF-16 unit: room for that many always holds the text.
    const room = text.length * 3;
    let slab = this.slabs.at(-1);
    if (slab === undefined || slab.length - this.used < room) {
      const { firstSlabBytes, largestSlabBytes } = this.options;
      const next = Math.min(largestSlabBytes, slab === undefined ? firstSlabBytes : slab.length * 2);
      slab = Buffer.allocUnsafeSlow(Math.max(next, room));
      this.slabs.push(slab);
      this.used = 0;
    }
    const start = this.used;
    this.used += slab.write(text, start, 'utf8');
    const place: TextPlace = { slab: this.slabs.length - 1, start, end: this.used };
    // Not enumerable: spreads, Object.keys and JSON.stringify never see it.
    Object.defineProperty(row, PLACE, { value: place });
    return place;
  }
}

/** A row's text as the slabs hold it: its JSON and the comma after it. */
const textOf = (row: object): string => `${JSON.stringify(row)},`;

const texts = new RowTexts();

const collections = new WeakSet<object>();

/** Marks a `{data, total}` body whose data are store rows, for `bodyJson`. */
export function markCollection<B extends { data: readonly object[]; total: number }>(body: B): B {
  collections.add(body);
  return body;
}

/**
 * The JSON of a body, exactly what JSON.stringify would write: a string, or for a marked collection
 * the bytes in order (the rows' slab slices between the envelope's opening and closing).
 */
export function bodyJson(body: unknown, rowTexts: RowTexts = texts): string | Buffer[] {
  if (typeof body !== 'object' || body === null || !collections.has(body)) return JSON.stringify(body);
  const { data, total } = body as { data: readonly object[]; total: number };
  const close = `],"total":${JSON.stringify(total)}}`;
  if (data.length === 0) return `{"data":[${close}`;
  const rows = rowTexts.slices(data);
  // Drop the comma after the last row.
  const last = rows.length - 1;
  rows[last] = (rows[last] as Buffer).subarray(0, (rows[last] as Buffer).length - 1);
  return [Buffer.from('{"data":['), ...rows, Buffer.from(close)];
}
