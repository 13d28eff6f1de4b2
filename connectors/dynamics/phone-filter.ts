// Finding an E.164 number in Dataverse's contact phone columns. telephone1 (Business Phone),
// telephone2 (Home Phone) and mobilephone are free text: people type "+44 20 7946 0571",
// "020 7946 0571", "02079460571" or "+44 (0)20 7946 0571", and Dataverse compares the text as stored.
// The filter asks for each column equal to any of the forms a number is commonly written in (the In
// query function: equality, which the database's indexes serve).
// No endswith or contains: leading wildcards scan the whole table, time out on large ones
// (LeadingWildcardCauseTimeout) and get throttled
// (https://learn.microsoft.com/power-apps/developer/data-platform/query-antipatterns). The answers
// are kept only where a column's digits really are the number.
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
  /** Digit strings that mean the number: a column's digits equal to one of holds it. */
  digits: string[];
}

/** The forms of `e164` searched for: as libphonenumber formats it, and as people group it. */
export function phoneQuery(e164: string): PhoneQuery {
  const parsed = parsePhoneNumberFromString(e164);
  const international = digitsOf(e164);
  if (!parsed) return { exact: [e164], digits: [international] };
  const cc = parsed.countryCallingCode;
  const national = digitsOf(parsed.nationalNumber);
  const nationalText = parsed.formatNational();
  const trunk = digitsOf(nationalText);
  // "+44 20 7946 0571" → the groups 20, 7946, 0571, joined as people join them.
  const groups = parsed.formatInternational().split(' ').slice(1);
  const exact = new Set([
    e164,
    parsed.formatInternational(),
    nationalText,
    national,
    trunk,
    international,
    `00${international}`,
    `00${cc} ${groups.join(' ')}`,
    `+${cc}-${groups.join('-')}`,
    groups.join(' '),
    groups.join('-'),
    nationalText.replace(/\s+/g, '-'),
    ...(trunk !== national && nationalText.startsWith('0') ? [`+${cc} (0)${nationalText.slice(1)}`] : []),
  ]);
  return {
    exact: [...exact].filter((t) => t !== ''),
    // "+44 (0)20 7946 0571": the country code with the trunk prefix kept.
    digits: [...new Set([international, national, trunk, `00${international}`, `${cc}${trunk}`])],
  };
}

/**
 * The $filter of contacts with `q` in a phone column: the In query function per column
 * (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/reference/in), which keeps
 * the URL short (dynamics-web-api turns a GET whose URL passes 2,000 characters into a $batch).
 */
export function phoneFilter(q: PhoneQuery): string {
  const values = `[${q.exact.map(odataString).join(',')}]`;
  return PHONE_COLUMNS.map(
    (column) => `Microsoft.Dynamics.CRM.In(PropertyName=${odataString(column)},PropertyValues=${values})`,
  ).join(' or ');
}

/** Whether one of a record's phone values is the number. */
export function holdsNumber(values: readonly unknown[], q: PhoneQuery): boolean {
  return values.some((v) => {
    const d = digitsOf(v);
    return d !== '' && q.digits.includes(d);
  });
}
