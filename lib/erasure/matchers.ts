// Deciding whether a value identifies an erased person. Two matchers share one interface: one knows
// the identifier (the erasure itself, which must find every stored form), the other knows only the
// suppression list's hashes (later syncs and webhooks, which must be cheap on every record).
import type { CountryCode } from 'libphonenumber-js/max';
import { toE164 } from '../phone';
import {
  digitTail,
  erasedToken,
  escapeRegex,
  identifierHash,
  keyedHasher,
  numberInTextRegex,
  type ErasureSubject,
} from './identity';

export interface IdentityMatcher {
  /** The token that replaces `value` when the whole value is an erased identifier, else null. */
  matchValue(value: string): string | null;
  /** `text` with every erased identifier inside it replaced by its token (the same text when none). */
  replaceInText(text: string): string;
}

// A value that may be a phone number as a whole: digits with the usual punctuation, 7+ digits.
const PHONE_LIKE = /^\s*(?:\+|00)?[\d\s().-]{7,24}\s*$/;
const EMAIL_LIKE = /^\s*[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+\s*$/;
const PHONES_IN_TEXT = /(?<![\w+])(?:\+|00)?\d[\d\s().-]{5,22}\d(?!\d)/g;
const EMAILS_IN_TEXT = /[^\s@<>"'(),;:]+@[^\s@<>"'(),;:]+\.[A-Za-z]{2,}/g;

/** Matches one known subject (what `callsync erase` was given), in every form it is stored in. */
export function subjectMatcher(
  key: Buffer | undefined,
  subject: ErasureSubject,
  defaultCountry: CountryCode,
): IdentityMatcher {
  const token = erasedToken(identifierHash(key, subject.kind, subject.value));
  if (subject.kind === 'email') {
    const inText = new RegExp(escapeRegex(subject.value), 'gi');
    return {
      matchValue: (v) => (v.includes('@') && v.trim().toLowerCase() === subject.value ? token : null),
      replaceInText: (t) => (t.includes('@') ? t.replace(inText, token) : t),
    };
  }
  const inText = numberInTextRegex(subject.value);
  const tail = digitTail(subject.value);
  return {
    matchValue(v) {
      if (!PHONE_LIKE.test(v) || digitTail(v) !== tail) return null;
      // The platform sends numbers without their +, or in national form: each is tried as written,
      // then with a + (a bare international number), in the configured country.
      const digits = v.trim();
      if (toE164(digits, defaultCountry) === subject.value) return token;
      if (/^\d+$/.test(digits) && toE164(`+${digits}`, defaultCountry) === subject.value) return token;
      return null;
    },
    replaceInText: (t) => t.replace(inText, token),
  };
}

/** Matches anything on the suppression list (hashes only): the tail hash first, E.164 only on a hit. */
export function suppressionMatcher(
  key: Buffer | undefined,
  hashes: ReadonlySet<string>,
  defaultCountry: CountryCode,
): IdentityMatcher {
  const hmac = keyedHasher(key);
  // The same values come again and again (within a record, whole value then inside text; across
  // records, the agents' numbers and timestamps): each is hashed once per page or batch.
  const seen = new Map<string, string | null>();
  const numberToken = (v: string): string | null => {
    const known = seen.get(v);
    if (known !== undefined) return known;
    const token = numberTokenOf(v);
    if (seen.size >= 50_000) seen.clear();
    seen.set(v, token);
    return token;
  };
  const numberTokenOf = (v: string): string | null => {
    const tail = digitTail(v);
    if (tail === null || !hashes.has(hmac('tail', tail))) return null;
    const digits = v.trim();
    for (const candidate of [digits, /^\d+$/.test(digits) ? `+${digits}` : null]) {
      const e164 = candidate === null ? null : toE164(candidate, defaultCountry);
      if (e164 === null) continue;
      const hash = hmac('number', e164);
      if (hashes.has(hash)) return erasedToken(hash);
    }
    return null;
  };
  const emailToken = (v: string): string | null => {
    const hash = hmac('email', v.trim().toLowerCase());
    return hashes.has(hash) ? erasedToken(hash) : null;
  };
  const matchValue = (v: string): string | null => {
    if (PHONE_LIKE.test(v)) return numberToken(v);
    if (v.includes('@') && EMAIL_LIKE.test(v)) return emailToken(v);
    return null;
  };
  return {
    matchValue,
    replaceInText: (t) =>
      t
        .replace(PHONES_IN_TEXT, (m) => numberToken(m) ?? m)
        .replace(EMAILS_IN_TEXT, (m) => (t.includes('@') ? (emailToken(m) ?? m) : m)),
  };
}
