// A contact state as the contact sync compares it: empty states, the hash of a state per side (how
// a change callsync wrote is recognised when it comes back) and merged notes. The record itself and
// its normalised fields are in connectors/crm/contact-model.ts.
import { createHash } from 'node:crypto';
import { CONTACT_FIELDS, type ContactField } from '../../config/contact-sync';
import type { ContactState } from '../../connectors/crm/contact-model';

/** An empty state (a side that has not been seen yet). */
export function emptyState(): ContactState {
  return Object.fromEntries(CONTACT_FIELDS.map((f) => [f, null])) as ContactState;
}

/** The hash of a state over the fields a side keeps (key order fixed). */
export function stateHash(state: ContactState, fields: readonly ContactField[]): string {
  const h = createHash('sha256');
  for (const f of fields) h.update(`${f}\u0000${state[f] ?? ''}\u0001`);
  return h.digest('base64url').slice(0, 22);
}

/** Notes merged: each side's lines once, the platform's first, in order. */
export function mergeLines(a: string | null, b: string | null): string | null {
  const lines: string[] = [];
  for (const v of [a, b]) {
    for (const line of (v ?? '').split(/\r?\n/)) {
      const t = line.trimEnd();
      if (t !== '' && !lines.includes(t)) lines.push(t);
    }
  }
  return lines.length === 0 ? null : lines.join('\n');
}
