// Anonymising one record (a warehouse row with its JSON columns, a platform record, a webhook body)
// of an erased person: their numbers and e-mails become the keyed token, the names next to them are
// nulled, and free text of a person's record (transcripts, summaries, message bodies, notes) is deleted.
// The same function serves the erasure and the later syncs and webhooks, so both leave the same shape.
import { escapeRegex } from './identity';
import type { IdentityMatcher } from './matchers';

/** Free text that belongs to the person's conversation: deleted from their records. */
const TEXT_KEYS = new Set([
  'transcript',
  'transcript_speakers',
  'transcriptSpeakers',
  'transcript_excerpt',
  'transcriptExcerpt',
  'summary',
  'message',
  // A received SMS's body (sms.received `text`): it may hold the sender's name and e-mail.
  'text',
  'notes',
]);

/** Name (and e-mail) fields of an object in which one of the person's identifiers appears. */
const PERSON_NAME_KEYS = new Set([
  'name',
  'email',
  'first_name',
  'last_name',
  'firstName',
  'lastName',
  'full_name',
  'fullName',
  'display_name',
  'displayName',
  'contact_name',
  'contactName',
  'caller_name',
  'callerName',
  'visitor_name',
]);

/** What replaces a name or text in a column that may not be null. */
export const ERASED_TEXT = '[erased]';

export interface ScrubOptions {
  matcher: IdentityMatcher;
  /** Names already known to be the person's (from other records): replaced wherever they appear. */
  names?: readonly string[];
  /** Treat the record as the person's even when no identifier appears in it (a record of their call). */
  person?: boolean;
}

export interface ScrubResult {
  value: unknown;
  changed: boolean;
  /** The record identified the person (or was given as theirs). */
  person: boolean;
  /** Names found next to the person's identifiers (to erase elsewhere too). */
  names: string[];
}

// `"Alice Smith" <+44 7700 900123>`: caller-id text with a name and a number.
const NAME_AND_NUMBER = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/;

/** Keys whose name field pairs with an identifier key: src → src_name, srcName; from → from_name. */
function pairedNameKeys(key: string): string[] {
  const stem = key.replace(/(_number|_phone|_email|Number|Phone|Email|_id|Id)$/, '');
  return [`${stem}_name`, `${stem}Name`, `${key}_name`, `${key}Name`];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether any string in the tree is (or holds) an identifier the matcher knows. */
function identifies(value: unknown, matcher: IdentityMatcher): boolean {
  if (typeof value === 'string')
    return matcher.matchValue(value) !== null || matcher.replaceInText(value) !== value;
  if (Array.isArray(value)) return value.some((v) => identifies(v, matcher));
  if (isObject(value)) return Object.values(value).some((v) => identifies(v, matcher));
  return false;
}

/** Names in the tree standing next to an identifier (nulled later, and replaced in free text). */
function collectNames(value: unknown, matcher: IdentityMatcher, out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectNames(v, matcher, out);
    return;
  }
  if (!isObject(value)) return;
  const matched = Object.keys(value).filter(
    (k) => typeof value[k] === 'string' && matcher.matchValue(value[k]) !== null,
  );
  for (const v of Object.values(value)) {
    if (typeof v === 'string') {
      const m = NAME_AND_NUMBER.exec(v);
      if (m && m[1]!.trim() && matcher.matchValue(m[2]!) !== null) out.add(m[1]!.trim());
    }
    if (isObject(v) || Array.isArray(v)) collectNames(v, matcher, out);
  }
  if (matched.length === 0) return;
  const nameKeys = new Set([...PERSON_NAME_KEYS, ...matched.flatMap(pairedNameKeys)]);
  for (const k of nameKeys) {
    const v = value[k];
    if (typeof v === 'string' && v.trim().length > 1) out.add(v.trim());
  }
}

/**
 * The record with the person's identifiers, names and conversation text removed. A record that
 * identifies nobody (and is not given as the person's) comes back unchanged (`changed` false).
 */
export function scrubRecord(value: unknown, opts: ScrubOptions): ScrubResult {
  const { matcher } = opts;
  const person = opts.person === true || identifies(value, matcher);
  if (!person) return { value, changed: false, person: false, names: [] };
  const found = new Set<string>();
  collectNames(value, matcher, found);
  const names = [...new Set([...(opts.names ?? []), ...found])].filter((n) => n.length > 1);
  const nameRegex =
    names.length > 0
      ? new RegExp(
          names
            .sort((a, b) => b.length - a.length)
            .map(escapeRegex)
            .join('|'),
          'gi',
        )
      : null;
  const nameSet = new Set(names.map((n) => n.toLowerCase()));
  let changed = false;

  const text = (s: string): string | null => {
    const whole = matcher.matchValue(s);
    if (whole !== null) return whole;
    const caller = NAME_AND_NUMBER.exec(s);
    if (caller && matcher.matchValue(caller[2]!) !== null) return matcher.matchValue(caller[2]!);
    if (nameSet.has(s.trim().toLowerCase())) return null;
    const replaced = matcher.replaceInText(s);
    return nameRegex ? replaced.replace(nameRegex, ERASED_TEXT) : replaced;
  };

  const walk = (v: unknown, key: string | null, nameKeys: ReadonlySet<string>): unknown => {
    if (typeof v === 'string') {
      let out: string | null;
      if (key !== null && TEXT_KEYS.has(key)) out = null;
      else if (key !== null && nameKeys.has(key)) out = null;
      else out = text(v);
      if (out !== v) changed = true;
      return out;
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, null, new Set()));
    if (isObject(v)) {
      const matched = Object.keys(v).filter(
        (k) => typeof v[k] === 'string' && matcher.matchValue(v[k]) !== null,
      );
      const own =
        matched.length > 0
          ? new Set([...PERSON_NAME_KEYS, ...matched.flatMap(pairedNameKeys)])
          : new Set<string>();
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (TEXT_KEYS.has(k) && x !== null && typeof x !== 'string') {
          // Structured notes or transcripts (JSON): deleted whole.
          out[k] = null;
          changed = true;
        } else out[k] = walk(x, k, own);
      }
      return out;
    }
    return v;
  };
  const scrubbed = walk(value, null, new Set());
  return { value: scrubbed, changed, person: true, names: [...found] };
}
