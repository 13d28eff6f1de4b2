// JSON text of store rows, kept on each row once written. Rows are immutable snapshots (an update
// replaces the object, see MemoryTable), so a row's text never goes stale; serving a page of rows
// that were served before joins their texts instead of serialising them again. The platform's own
// servers are not on the machine that runs callsync; this keeps the emulator's share of a shared
// machine's CPU small when a backfill reads millions of rows.

const JSON_TEXT = Symbol('emulator row json');

type WithText = { [JSON_TEXT]?: string };

/** JSON.stringify(row), computed once per row object. */
export function rowJson(row: object): string {
  const cached = (row as WithText)[JSON_TEXT];
  if (cached !== undefined) return cached;
  const text = JSON.stringify(row);
  // Not enumerable: spreads, Object.keys and JSON.stringify never see it.
  if (Object.isExtensible(row)) Object.defineProperty(row, JSON_TEXT, { value: text });
  return text;
}

const collections = new WeakSet<object>();

/** Marks a `{data, total}` body whose data are store rows, for `collectionJson`. */
export function markCollection<B extends { data: readonly object[]; total: number }>(body: B): B {
  collections.add(body);
  return body;
}

/**
 * The JSON text of a body: for a marked collection, exactly what JSON.stringify would write,
 * built from each row's kept text. A string, not a Buffer: the socket encodes a string into memory
 * of its own, while a page-sized Buffer counts as V8 external memory, and at a few pages a second
 * that brings on a full GC of the whole seeded store every second or so.
 */
export function bodyJson(body: unknown): string {
  if (typeof body !== 'object' || body === null || !collections.has(body)) return JSON.stringify(body);
  const { data, total } = body as { data: readonly object[]; total: number };
  return `{"data":[${data.map(rowJson).join(',')}],"total":${JSON.stringify(total)}}`;
}
