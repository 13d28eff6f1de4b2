// Finding numbers in Salesforce with SOSL (FIND {…} IN PHONE FIELDS). Salesforce's search index splits
// a field's text into tokens at spaces and punctuation
// (https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_sosl_find.htm),
// and people type numbers as they please: "+44 20 7946 0571" is the tokens 44, 20, 7946 and 0571, and
// a search for 442079460571 misses it. So a number is searched by every form its last token can take
// (its international, national and trunk-prefixed digits, and each tail of four or more digits of its
// national number), and the hits are kept only where a phone field really holds the number (its digits
// equal the international digits or end with the national ones). Searches stay under 4,000
// characters (beyond it Salesforce drops the query's operators; beyond 10,000 it returns nothing) and a
// search that comes back with SOSL's 2,000 records is split, since it may have been cut short
// (https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_sosl_limits.htm).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** Every phone field of Contacts and Leads (SOSL's IN PHONE FIELDS searches these), read for matching. */
export const PHONES: Record<'Contact' | 'Lead', readonly string[]> = {
  Contact: ['Phone', 'MobilePhone', 'HomePhone', 'OtherPhone', 'AssistantPhone'],
  Lead: ['Phone', 'MobilePhone'],
};

/** Records one SOSL search returns at most. */
export const SOSL_MAX_ROWS = 2000;
/** Longest search text callsync sends (Salesforce keeps a query's operators up to 4,000 characters). */
export const FIND_MAX_CHARS = 3800;
/** Most numbers one search carries. */
const NUMBERS_PER_SEARCH = 50;
/** The shortest tail of a number searched as a token of its own. */
const SHORTEST_TAIL = 4;

const digitsOf = (s: unknown) => (typeof s === 'string' ? s.replace(/\D/g, '') : '');

/** How one number is searched and recognised. */
export interface NumberTerms {
  number: string;
  /** Digits a phone field holding the number equals (international) or ends with (national, ≥ 7). */
  match: string[];
  /** Tokens searched for it, longest first. */
  search: string[];
}

/** The digits a field holding `e164` may show: international and national. */
export function phoneTerms(e164: string, nationalNumber: string | null): string[] {
  const terms = [digitsOf(e164)];
  const national = digitsOf(nationalNumber);
  if (national !== '' && national !== terms[0]) terms.push(national);
  return terms;
}

export function numberTerms(e164: string): NumberTerms {
  const parsed = parsePhoneNumberFromString(e164);
  const national = digitsOf(parsed?.nationalNumber ?? '');
  const match = phoneTerms(e164, national || null);
  const search = new Set(match);
  if (parsed) search.add(digitsOf(parsed.formatNational()));
  for (let n = national.length - 1; n >= SHORTEST_TAIL; n--) search.add(national.slice(-n));
  return { number: e164, match, search: [...search].filter((t) => t !== '') };
}

/** Whether one of these phone values holds the number. */
export function holdsNumber(phones: readonly unknown[], match: readonly string[]): boolean {
  return phones.some((v) => {
    const p = digitsOf(v);
    return p !== '' && match.some((t) => p === t || (t.length >= 7 && p.endsWith(t)));
  });
}

/** The FIND text for some numbers: their tokens OR-ed, each once. */
export function findText(numbers: readonly NumberTerms[], longOnly = false): string {
  const tokens = new Set(
    numbers.flatMap((n) => (longOnly ? n.search.filter((t) => t.length >= 7) : n.search)),
  );
  return [...tokens].join(' OR ');
}

/** Numbers in groups whose FIND text stays within FIND_MAX_CHARS and NUMBERS_PER_SEARCH. */
export function searchGroups(numbers: readonly NumberTerms[]): NumberTerms[][] {
  const groups: NumberTerms[][] = [];
  let group: NumberTerms[] = [];
  for (const n of numbers) {
    const next = [...group, n];
    if (group.length > 0 && (next.length > NUMBERS_PER_SEARCH || findText(next).length > FIND_MAX_CHARS)) {
      groups.push(group);
      group = [n];
    } else group = next;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * Searches every number and gives each the hits whose phones hold it. `search` runs one SOSL search
 * for a FIND text; `phonesOf` reads a hit's phone fields.
 */
export async function searchNumbers<H>(
  numbers: readonly string[],
  search: (find: string) => Promise<H[]>,
  phonesOf: (hit: H) => unknown[],
): Promise<Map<string, H[]>> {
  const found = new Map<string, H[]>();
  const run = async (group: NumberTerms[], longOnly: boolean): Promise<void> => {
    const hits = await search(findText(group, longOnly));
    if (hits.length >= SOSL_MAX_ROWS && group.length > 1) {
      // Possibly cut short: each half again.
      const half = Math.ceil(group.length / 2);
      await run(group.slice(0, half), longOnly);
      await run(group.slice(half), longOnly);
      return;
    }
    if (hits.length >= SOSL_MAX_ROWS && !longOnly) {
      // One number whose short tails match too many records: its long forms only.
      await run(group, true);
      return;
    }
    for (const n of group) {
      const mine = hits.filter((h) => holdsNumber(phonesOf(h), n.match));
      if (mine.length > 0) found.set(n.number, mine);
    }
  };
  const unique = [...new Set(numbers)].map(numberTerms);
  for (const group of searchGroups(unique)) await run(group, false);
  return found;
}
