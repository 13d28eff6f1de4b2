// Who an erasure is about, and the keyed hashes that stand for them afterwards. A number is matched in
// every form it is stored in (E.164, 0044…, national, with spaces or dashes): by its national digits
// in SQL and free text, and by libphonenumber's E.164 for whole values. Hashes are HMAC-SHA256 under
// the erasure key, so the suppression list does not let anyone without the key test candidate numbers.
import { createHmac, hash } from 'node:crypto';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { toE164 } from '../phone';

/** What an erasure is about: an E.164 number or a lower-case e-mail address. */
export interface ErasureSubject {
  kind: 'number' | 'email';
  value: string;
}

/** What the suppression list hashes: whole identifiers, the last digits of numbers, and call ids. */
export type HashKind = 'number' | 'email' | 'tail' | 'call';

/** Digits a number's tail hash covers: enough to be rare, few enough to survive any national form. */
export const TAIL_DIGITS = 9;

/** The input of `callsync erase` was not a usable number or e-mail; the message names the option. */
export class ErasureSubjectError extends Error {
  override readonly name = 'ErasureSubjectError';
}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/** The subject of `--number` or `--email` (exactly one), normalised; throws naming the option. */
export function parseSubject(
  input: { number?: string; email?: string },
  defaultCountry: CountryCode,
): ErasureSubject {
  if ((input.number === undefined) === (input.email === undefined)) {
    throw new ErasureSubjectError('give exactly one of --number and --email');
  }
  if (input.number !== undefined) {
    const e164 = toE164(input.number, defaultCountry);
    if (!e164) throw new ErasureSubjectError(`--number: "${input.number}" is not a valid phone number`);
    return { kind: 'number', value: e164 };
  }
  const email = input.email!.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new ErasureSubjectError(`--email: "${input.email}" is not an e-mail address`);
  return { kind: 'email', value: email };
}

/** HMAC-SHA256 (hex) of `kind\0value` under the erasure key (unkeyed when none is configured). */
export function identifierHash(key: Buffer | undefined, kind: HashKind, value: string): string {
  return keyedHasher(key)(kind, value);
}

const BLOCK = 64;

/**
 * identifierHash with the key's pads computed once: HMAC-SHA256 as two one-shot SHA-256 digests
 * (RFC 2104), the same value as createHmac's, about ten times cheaper per call than createHmac,
 * which sets the key up again each time. Syncs test every phone-like value of every record with it.
 */
export function keyedHasher(key: Buffer | undefined): (kind: HashKind, value: string) => string {
  let k = key ?? Buffer.alloc(0);
  if (k.length > BLOCK) k = hash('sha256', k, 'buffer');
  const ipad = Buffer.alloc(BLOCK, 0x36);
  const opad = Buffer.alloc(BLOCK, 0x5c);
  for (let i = 0; i < k.length; i++) {
    ipad[i]! ^= k[i]!;
    opad[i]! ^= k[i]!;
  }
  return (kind, value) => {
    const inner = hash('sha256', Buffer.concat([ipad, Buffer.from(`${kind}\u0000${value}`)]), 'buffer');
    return hash('sha256', Buffer.concat([opad, inner]), 'hex');
  };
}

/** createHmac's answer, for the test that keyedHasher gives the same. */
export function referenceHmac(key: Buffer | undefined, kind: HashKind, value: string): string {
  return createHmac('sha256', key ?? Buffer.alloc(0))
    .update(`${kind}\u0000${value}`)
    .digest('hex');
}

/** The hash of a call (account and call id), for records that name the person only through their call. */
export function callHash(key: Buffer | undefined, account: string, callId: number | string): string {
  return identifierHash(key, 'call', callIdentifier(account, callId));
}

/** What a call's hash is taken of. */
export function callIdentifier(account: string, callId: number | string): string {
  return `${account}\u0000${callId}`;
}

/** What replaces an erased number or e-mail: the same for every occurrence, so counts stay right. */
export function erasedToken(hash: string): string {
  return `erased:${hash.slice(0, 24)}`;
}

/** The last TAIL_DIGITS digits of a value's digits, or null when it has too few digits to be a number. */
export function digitTail(value: string): string | null {
  const digits = value.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 17) return null;
  return digits.slice(-TAIL_DIGITS);
}

/** Every hash a subject is suppressed by (the number's tail too, for the cheap first test). */
export function subjectHashes(
  key: Buffer | undefined,
  subject: ErasureSubject,
): { kind: HashKind; hash: string }[] {
  const hashes = [{ kind: subject.kind as HashKind, hash: identifierHash(key, subject.kind, subject.value) }];
  if (subject.kind === 'number') {
    hashes.push({ kind: 'tail', hash: identifierHash(key, 'tail', digitTail(subject.value)!) });
  }
  return hashes;
}

const SEP = '[\\s().-]{0,3}';

/**
 * A regular expression source (valid in JavaScript and PostgreSQL) matching the number's national
 * digits with any separators: the part every stored form shares. A superset: callers confirm.
 */
export function nationalDigitsPattern(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  const national = parsed?.nationalNumber ?? e164.replace(/\D/g, '');
  return [...national].join(SEP);
}

/**
 * Occurrences of the number inside free text, in any form: an optional `+44`, `0044`, `44` or
 * national `0` prefix (and a `(0)`), then the national digits with separators, not inside a longer
 * run of digits.
 */
export function numberInTextRegex(e164: string): RegExp {
  const parsed = parsePhoneNumberFromString(e164);
  const cc = parsed?.countryCallingCode ?? '';
  const prefix = cc
    ? `(?:(?:\\+|00)?${SEP}${[...cc].join('')}${SEP}(?:\\(0\\)${SEP})?|0${SEP})?`
    : `(?:\\+${SEP})?`;
  return new RegExp(`(?<![\\d+])${prefix}${nationalDigitsPattern(e164)}(?!\\d)`, 'g');
}

/** Escapes text for use inside a regular expression. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
