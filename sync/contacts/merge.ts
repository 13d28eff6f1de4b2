// Field ownership: what each side of a linked pair should hold after a run, from what each side held
// when last synced and what it holds now. Only fields that changed since the last sync move, so a
// value callsync wrote, read back unchanged, moves nothing (no echo, no ping-pong).
import type { ContactField, FieldOwnership } from '../../config/contact-sync';
import type { ContactState } from '../../connectors/crm/contact-model';
import { mergeLines } from './model';

export interface PairInput {
  /** Fields both sides keep. */
  fields: readonly ContactField[];
  ownership: Readonly<Record<ContactField, FieldOwnership>>;
  /** Last synced states; null for a pair linked in this run (every field counts as changed). */
  prevPlatform: ContactState | null;
  prevCrm: ContactState | null;
  platform: ContactState;
  crm: ContactState;
  /**
   * Which side's change is newer when both changed the same field. The platform keeps no
   * modification time, so its change counts as made when callsync saw it.
   */
  newer: 'platform' | 'crm';
}

export interface PairResult {
  /** Fields to write on each side, and the states each side holds afterwards. */
  platformFields: ContactField[];
  crmFields: ContactField[];
  platform: ContactState;
  crm: ContactState;
}

export function resolvePair(input: PairInput): PairResult {
  const platform = { ...input.platform };
  const crm = { ...input.crm };
  const platformFields: ContactField[] = [];
  const crmFields: ContactField[] = [];
  for (const f of input.fields) {
    const p = input.platform[f];
    const c = input.crm[f];
    if (p === c) continue;
    const pChanged = input.prevPlatform === null || input.prevPlatform[f] !== p;
    const cChanged = input.prevCrm === null || input.prevCrm[f] !== c;
    let value: string | null;
    switch (input.ownership[f]) {
      case 'platform':
        value = p;
        break;
      case 'crm':
        value = c;
        break;
      case 'merge':
        value = mergeLines(p, c);
        break;
      case 'newest':
        if (pChanged && !cChanged) value = p;
        else if (cChanged && !pChanged) value = c;
        else if (!pChanged && !cChanged)
          continue; // differing since before: nobody asked for a change
        // A new link: an empty side takes the other's value; else the newer side wins.
        else if (p === null || c === null) value = p ?? c;
        else value = input.newer === 'platform' ? p : c;
        break;
    }
    if (value !== p) {
      platform[f] = value;
      platformFields.push(f);
    }
    if (value !== c) {
      crm[f] = value;
      crmFields.push(f);
    }
  }
  return { platformFields, crmFields, platform, crm };
}
