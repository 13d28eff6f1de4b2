import type { Row } from '../store/types';
import { formatEpoch } from './calendar';
import type { UserInfo } from './directory';
import { COMPANIES, emailLocalPart, PEOPLE } from './names';
import { e164, type Country } from './phone-numbers';
import type { Rng } from './prng';
import type { CustomerProfile, IdCounters } from './profiles';

/** A contact as the call generator needs it: who it is and the numbers it calls from. */
export interface ContactInfo {
  id: number;
  name: string;
  country: Country;
  tel: string;
  mobile: string;
  /** `contact:<id>`, shared by every CDR of this contact. */
  ref: string;
  /** `"Name" <number>` caller-ID strings for tel and mobile, shared by every CDR. */
  clidTel: string;
  clidMobile: string;
}

const GROUPS = ['Customers', 'Customers', 'Customers', 'Leads', 'Suppliers', 'Partners'];
const NOTES = [
  '',
  '',
  'Prefers calls in the morning.',
  'Key account, escalate issues to the account manager.',
  'Asked for a quote in Q3.',
  'Call back about the contract renewal.',
  'Speaks English and German.',
];

/** The customer's contacts with E.164 numbers from several countries, created before the call history. */
export function buildContacts(
  profile: CustomerProfile,
  users: readonly UserInfo[],
  rng: Rng,
  ids: IdCounters,
  historyStart: number,
): { contacts: ContactInfo[]; rows: Row[] } {
  const contacts: ContactInfo[] = [];
  const rows: Row[] = [];
  for (let i = 0; i < profile.contacts; i++) {
    const country = rng.weighted(profile.contactCountries);
    const people = PEOPLE[country];
    const first = rng.pick(people.first);
    const last = rng.pick(people.last);
    const company = rng.chance(0.8) ? rng.pick(COMPANIES[country]) : '';
    const tel = e164(rng, country, false);
    const mobile = e164(rng, country, true);
    const id = ids.take('contacts');
    const name = `${first} ${last}`;
    contacts.push({
      id,
      name,
      country,
      tel,
      mobile,
      ref: `contact:${id}`,
      clidTel: `"${name}" <${tel}>`,
      clidMobile: `"${name}" <${mobile}>`,
    });
    const owner = rng.chance(0.3) ? rng.pick(users) : undefined;
    const domain =
      company !== '' ? `${company.toLowerCase().replace(/[^a-z]+/g, '')}.example` : 'mail.example';
    rows.push({
      id,
      company,
      created_at: formatEpoch(historyStart - rng.int(86_400, 400 * 86_400)),
      dial_flow_completed_at: null,
      dialler_source_id: null,
      email: `${emailLocalPart(first, last)}@${domain}`,
      ext: '',
      first_name: first,
      global: owner === undefined,
      group_name: rng.pick(GROUPS),
      internal: false,
      last_call_at: null,
      last_name: last,
      mobile,
      mobile_1: '',
      mobile_2: '',
      nb_call_attempts: 0,
      next_call_at: null,
      notes: rng.pick(NOTES),
      outcome_id: null,
      rel_user_id: null,
      tel,
      tel_1: rng.chance(0.1) ? e164(rng, country, false) : '',
      tel_2: '',
      type: company !== '' ? 2 : 1,
      user_id: owner?.id ?? null,
    });
  }
  return { contacts, rows };
}

/** Numbers of callers who are not contacts; drawn repeatedly, so unknown callers call back too. */
export function buildUnknownCallers(profile: CustomerProfile, rng: Rng): string[] {
  return Array.from({ length: profile.unknownCallers }, () =>
    e164(rng, rng.weighted(profile.contactCountries), rng.chance(0.5)),
  );
}
