// The payloads of a Temporal history, wherever they sit (inputs, results, signals, queries, failures'
// details), as raw protos: for reading a history the way someone without the keys would.

/** A payload as the history holds it (encrypted or not). */
export type RawPayload = { metadata?: Record<string, Uint8Array> | null; data?: Uint8Array | null };

/** Every payload anywhere in `node` (a history, or any part of one). */
export function payloadsOf(node: unknown, out: RawPayload[] = []): RawPayload[] {
  if (Array.isArray(node)) for (const n of node) payloadsOf(n, out);
  else if (node && typeof node === 'object' && !(node instanceof Uint8Array)) {
    const o = node as Record<string, unknown>;
    if (Array.isArray(o.payloads)) out.push(...(o.payloads as RawPayload[]));
    for (const [k, v] of Object.entries(o)) if (k !== 'payloads') payloadsOf(v, out);
  }
  return out;
}
