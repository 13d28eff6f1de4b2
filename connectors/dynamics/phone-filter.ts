// Finding an E.164 number in Dataverse's contact phone columns. telephone1 (Business Phone),
// telephone2 (Home Phone) and mobilephone are free text: people type "+44 20 7946 0571",
// "020 7946 0571" or "02079460571", and Dataverse compares the text as stored (OData $filter eq,
// and the contains/endswith functions: https://learn.microsoft.com/power-apps/developer/data-platform/webapi/query/filter-rows).
// So the filter asks for each column equal to any form the number is commonly written in, or ending
// with its subscriber digits as typed in groups ("7946 0571", "79460571"), and the answers are kept
// only where a column's digits really are the number (international digits, or national digits with
// or without the trunk prefix).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** The contact columns that hold phone numbers (contact EntityType reference). */
export const PHONE_COLUMNS = ['telephone1', 'telephone2', 'mobilephone'] as const;

const digitsOf = (s: unknown): string => (typeof s === 'string' ? s.replace(/\D/g, '') : '');

/** An OData string literal: single quotes doubled (OData ABNF, SQUOTE-in-string). */
export function odataString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** How one number is searched for and recognised. */
export interface PhoneQuery {
  /** Texts a column equal to one of is a candidate. */
  exact: string[];
  /** Texts a column ending with one of is a candidate (the last groups as typed). */
  endings: string[];
  /** Digit strings that mean the number: a column's digits equal to one of holds it. */
  digits: string[];
}

/** The forms of `e164` searched for. */
export function phoneQuery(e164: string): PhoneQuery {
  const parsed = parsePhoneNumberFromString(e164);
  const international = digitsOf(e164);
  if (!parsed) return { exact: [e164], endings: [], digits: [international] };
  const national = digitsOf(parsed.nationalNumber);
  const trunk = digitsOf(parsed.formatNational());
  const exact = new Set([
    e164,
    parsed.formatInternational(),
    parsed.formatNational(),
    national,
    trunk,
    international,
    `00${international}`,
  ]);
  // The last eight digits (or fewer) as typed in one or two groups: "7946 0571" and "79460571".
  const tail = national.slice(-Math.min(8, national.length));
  const endings = new Set([tail, `${tail.slice(0, tail.length - 4)} ${tail.slice(-4)}`.trim()]);
  return {
    exact: [...exact].filter((t) => t !== ''),
    endings: [...endings].filter((t) => t.length >= 4),
    // "+44 (0)20 7946 0571": the country code with the trunk prefix kept.
    digits: [
      ...new Set([
        international,
        national,
        trunk,
        `00${international}`,
        `${parsed.countryCallingCode}${trunk}`,
      ]),
    ],
  };
}

/** The $filter of contacts with `q` in a phone column. */
export function phoneFilter(q: PhoneQuery): string {
  const terms: string[] = [];
  for (const column of PHONE_COLUMNS) {
    for (const t of q.exact) terms.push(`${column} eq ${odataString(t)}`);
    for (const t of q.endings) terms.push(`endswith(${column},${odataString(t)})`);
  }
  return terms.join(' or ');
}

/** Whether one of a record's phone values is the number. */
export function holdsNumber(values: readonly unknown[], q: PhoneQuery): boolean {
  return values.some((v) => {
    const d = digitsOf(v);
    return d !== '' && q.digits.includes(d);
  });
}
