// Salesforce Contacts and Leads as the contact sync reads and writes them, without requests: the
// fields each object syncs, the phone fields matching reads, the custom fields callsync keeps its
// link and deletion mark in, the SOQL select lists, and a record read as the sync's SideRecord or
// written from its ContactState. contact-book.ts sends the requests.
import type { CountryCode } from 'libphonenumber-js';
import { z } from 'zod';
import type { ContactField } from '../../config/contact-sync';
import { email, number, numbersOf, text, type ContactState, type SideRecord } from '../crm/contact-model';
import type { CustomFieldSpec } from './custom-fields';
import { PHONES } from './phone-search';

/** The custom fields the sync needs on Contact and Lead (docs/contact-sync.md "Contact sync"; callsync creates them). */
export const LINK_FIELD = 'Callsync_Contact__c';
export const DELETED_FIELD = 'Callsync_Deleted__c';
export const CUSTOM_FIELDS: readonly CustomFieldSpec[] = [
  {
    name: LINK_FIELD,
    label: 'Callsync Contact',
    description: 'The phone platform contact callsync linked to this record (<account>:<id>)',
    type: 'Text',
    length: 255,
    externalId: true,
  },
  {
    name: DELETED_FIELD,
    label: 'Callsync Deleted',
    description: "When the linked phone platform contact was deleted (callsync's contacts.deletes: mark)",
    type: 'DateTime',
  },
];

/** What a Lead gets as its required Company when the platform contact has none (read back as none). */
export const NO_COMPANY = '[not provided]';

export type SalesforcePersonType = 'Contact' | 'Lead';
export type Kind = 'contact' | 'lead';
export const TYPE: Record<Kind, SalesforcePersonType> = { contact: 'Contact', lead: 'Lead' };

/** Synced fields each object writes; a Contact's company is its Account's name, read only. */
export const FIELD: Record<SalesforcePersonType, Partial<Record<ContactField, string>>> = {
  Contact: {
    firstName: 'FirstName',
    lastName: 'LastName',
    email: 'Email',
    phone: 'Phone',
    mobile: 'MobilePhone',
    notes: 'Description',
  },
  Lead: {
    firstName: 'FirstName',
    lastName: 'LastName',
    company: 'Company',
    email: 'Email',
    phone: 'Phone',
    mobile: 'MobilePhone',
    notes: 'Description',
  },
};
export const SELECT: Record<SalesforcePersonType, string> = {
  Contact: [
    'Id',
    'FirstName',
    'LastName',
    'Email',
    ...PHONES.Contact,
    'Account.Name',
    'Description',
    'SystemModstamp',
    LINK_FIELD,
    DELETED_FIELD,
  ].join(', '),
  Lead: [
    'Id',
    'FirstName',
    'LastName',
    'Email',
    ...PHONES.Lead,
    'Company',
    'Description',
    'SystemModstamp',
    LINK_FIELD,
    DELETED_FIELD,
  ].join(', '),
};
/** Converted Leads are Contacts now: only unconverted ones are synced (links follow: convertedSince). */
export const LEAD_FILTER = 'IsConverted = false';

const str = z.string().nullish();
/** A converted Lead and the Contact it became (none for a conversion into a person account's). */
export const convertedSchema = z.looseObject({ Id: z.string(), ConvertedContactId: str });
/** A Contact or Lead as SOQL and SOSL answer it (unknown fields kept). */
export const personSchema = z.looseObject({
  attributes: z.looseObject({ type: z.string() }).optional(),
  Id: z.string(),
  FirstName: str,
  LastName: str,
  Email: str,
  Phone: str,
  MobilePhone: str,
  HomePhone: str,
  OtherPhone: str,
  AssistantPhone: str,
  Company: str,
  Account: z.looseObject({ Name: str }).nullish(),
  Description: str,
  SystemModstamp: str,
  [LINK_FIELD]: str,
  [DELETED_FIELD]: str,
});
type Person = z.infer<typeof personSchema>;

/** A Contact or Lead as SOQL or SOSL answer it, read as the sync's record (numbers in E.164 of `country`). */
export function sideRecordOf(raw: unknown, type: SalesforcePersonType, country: CountryCode): SideRecord {
  const p: Person = personSchema.parse(raw);
  const company = type === 'Contact' ? text(p.Account?.Name) : text(p.Company);
  const state: ContactState = {
    firstName: text(p.FirstName),
    lastName: text(p.LastName),
    company: company === NO_COMPANY ? null : company,
    email: email(p.Email),
    phone: number(p.Phone, country),
    mobile: number(p.MobilePhone, country),
    notes: text(p.Description),
  };
  const stamp = p.SystemModstamp ? Date.parse(p.SystemModstamp.replace(/\+0000$/, 'Z')) : NaN;
  return {
    id: p.Id,
    state,
    numbers: numbersOf(
      PHONES[type].map((f) => p[f]),
      country,
    ),
    modifiedAt: Number.isNaN(stamp) ? null : new Date(stamp).toISOString(),
    kind: type === 'Lead' ? 'lead' : 'contact',
    linkKey: text(p[LINK_FIELD]),
    markedDeleted: text(p[DELETED_FIELD]) !== null,
  };
}

/** Record fields for `fields` of `state` on `type` (empty clears: null). */
export function fieldValues(
  type: SalesforcePersonType,
  state: ContactState,
  fields: readonly ContactField[],
): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const f of fields) {
    const name = FIELD[type][f];
    if (name) out[name] = state[f];
  }
  return out;
}
