// A contact record as a side of the two-way contact sync reads it: the same seven fields on both
// sides, normalised so the same person reads the same on the platform and in the CRM (numbers in
// E.164, e-mail in lower case). The CRM contact books build these; sync/contacts compares them.
import type { CountryCode } from 'libphonenumber-js';
import type { ContactField } from '../../config/contact-sync';
import { toE164 } from '../../lib/phone';

/** The synced fields of one side's record, normalised; null when empty. */
export type ContactState = Record<ContactField, string | null>;

/** One record as read from either side, with what matching needs. */
export interface SideRecord {
  id: string;
  state: ContactState;
  /** Every number of the record in E.164 (all of tel*, mobile* or the CRM's phone fields). */
  numbers: string[];
  /** When the side says it was last modified (CRM), or created (platform, which keeps no update time). */
  modifiedAt: string | null;
  /** Salesforce: Contact or Lead; HubSpot: contact. */
  kind: 'contact' | 'lead';
  /** The platform contact callsync created this CRM record for (`<account>:<id>`), when it did. */
  linkKey?: string | null;
  /** The record is marked as deleted on the other side (callsync's mark), so it is not recreated. */
  markedDeleted?: boolean;
}

/** A text value trimmed, with empty as null. */
export function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const s = (typeof v === 'string' ? v : JSON.stringify(v)).trim();
  return s === '' ? null : s;
}

/** An e-mail as compared: trimmed and in lower case. */
export function email(v: unknown): string | null {
  return text(v)?.toLowerCase() ?? null;
}

/** A stored number as the sync compares it: E.164 when it reads as one, else the text as written. */
export function number(v: unknown, country: CountryCode): string | null {
  const raw = text(v);
  return raw === null ? null : (toE164(raw, country) ?? raw);
}

/** Every readable E.164 number among raw values (duplicates once). */
export function numbersOf(values: readonly unknown[], country: CountryCode): string[] {
  const out = new Set<string>();
  for (const v of values) {
    const e164 = toE164(text(v), country);
    if (e164) out.add(e164);
  }
  return [...out];
}
