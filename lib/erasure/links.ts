// Which identifiers are the same person's: a record (a contact) that holds one of their identifiers
// holds only theirs, so its other numbers and e-mail are erased with it. Followed to a fixed point:
// a second contact with their e-mail brings its numbers, a number cached as their CRM contact too.
import type { CountryCode } from 'libphonenumber-js/max';
import { toE164 } from '../phone';
import { digitTail, type ErasureSubject } from './identity';

/** One record's identifiers, as stored (any form, or null). */
export interface LinkRecord {
  phones: (string | null)[];
  emails: (string | null)[];
}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

const keyOf = (s: ErasureSubject) => `${s.kind}\u0000${s.value}`;

/** The identifiers of one record, normalised (E.164, lower-case e-mail); the unusable ones left out. */
export function identifiersOf(record: LinkRecord, country: CountryCode): ErasureSubject[] {
  const out: ErasureSubject[] = [];
  for (const p of record.phones) {
    const e164 = toE164(p, country);
    if (e164) out.push({ kind: 'number', value: e164 });
  }
  for (const e of record.emails) {
    const email = e?.trim().toLowerCase();
    if (email && EMAIL.test(email)) out.push({ kind: 'email', value: email });
  }
  return out;
}

/** What to look records up by: the numbers' digit tails and E.164, the e-mails. */
export function linkQuery(subjects: readonly ErasureSubject[]): {
  tails: string[];
  emails: string[];
  numbers: string[];
} {
  const numbers = subjects.filter((s) => s.kind === 'number').map((s) => s.value);
  return {
    numbers,
    tails: [...new Set(numbers.map((n) => digitTail(n)).filter((t): t is string => t !== null))],
    emails: subjects.filter((s) => s.kind === 'email').map((s) => s.value),
  };
}

/**
 * Every identifier linked to `subject` (not itself), following records until nothing new appears
 * (at most `rounds` lookups). `lookup` returns a superset; a record counts only when one of its
 * identifiers, normalised, is one already known.
 */
export async function linkedSubjects(
  subject: ErasureSubject,
  country: CountryCode,
  lookup: (q: ReturnType<typeof linkQuery>) => Promise<LinkRecord[]>,
  rounds = 5,
): Promise<ErasureSubject[]> {
  const known = new Map([[keyOf(subject), subject]]);
  let fresh: ErasureSubject[] = [subject];
  for (let round = 0; round < rounds && fresh.length > 0; round++) {
    const records = await lookup(linkQuery(fresh));
    fresh = [];
    for (const r of records) {
      const ids = identifiersOf(r, country);
      if (!ids.some((s) => known.has(keyOf(s)))) continue;
      for (const s of ids) {
        if (known.has(keyOf(s))) continue;
        known.set(keyOf(s), s);
        fresh.push(s);
      }
    }
  }
  known.delete(keyOf(subject));
  return [...known.values()];
}
