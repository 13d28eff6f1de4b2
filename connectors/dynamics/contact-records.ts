// Dataverse contacts as the two-way contact sync reads and writes them (pure): the synced fields'
// columns (contact table reference: https://learn.microsoft.com/power-apps/developer/data-platform/reference/entities/contact),
// callsync's link key in a custom text column, and a platform contact's delete marked by
// deactivating the contact (statecode Inactive), as a person would retire one in Dynamics.
import type { CountryCode } from 'libphonenumber-js';
import type { ContactField } from '../../config/contact-sync';
import { email, number, numbersOf, text, type ContactState, type SideRecord } from '../crm/contact-model';
import { PHONE_COLUMNS } from './phone-filter';

/**
 * The custom column that carries callsync's link key (`<account>:<platform contact id>`), created by
 * prepare() in the organization's default publisher's prefix (new_).
 */
export const LINK_COLUMN = 'new_callsynccontact';
export const LINK_SCHEMA_NAME = 'new_CallsyncContact';
/** The link key's longest value (account names and platform ids are far shorter). */
export const LINK_MAX = 100;

/**
 * The synced fields a contact keeps, and their columns. The company is the parentcustomerid lookup
 * (an account record), not text: it is not synced.
 */
export const COLUMN = {
  firstName: 'firstname',
  lastName: 'lastname',
  email: 'emailaddress1',
  phone: 'telephone1',
  mobile: 'mobilephone',
  notes: 'description',
} as const satisfies Partial<Record<ContactField, string>>;
export type SyncedField = keyof typeof COLUMN;
export const SYNCED_FIELDS = Object.keys(COLUMN) as SyncedField[];

/** The columns the sync reads: the synced ones, every phone column, the state and the link key. */
export const SELECT = [
  'contactid',
  ...new Set([...Object.values(COLUMN), ...PHONE_COLUMNS]),
  'modifiedon',
  'statecode',
  LINK_COLUMN,
];

/** Contact statecode/statuscode: Active 0 (Active 1), Inactive 1 (Inactive 2). */
export const ACTIVE = 0;
export const INACTIVE = { statecode: 1, statuscode: 2 } as const;

export interface SyncedContactRow {
  contactid: string;
  /** dynamics-web-api revives ISO dates in answers as Dates. */
  modifiedon?: Date | string | null;
  statecode?: number | null;
  [column: string]: unknown;
}

/** A contact row as the sync compares it. */
export function sideRecordOf(row: SyncedContactRow, country: CountryCode): SideRecord {
  const state: ContactState = {
    firstName: text(row.firstname),
    lastName: text(row.lastname),
    company: null,
    email: email(row.emailaddress1),
    phone: number(row.telephone1, country),
    mobile: number(row.mobilephone, country),
    notes: text(row.description),
  };
  const modified = row.modifiedon ?? null;
  return {
    id: row.contactid,
    state,
    numbers: numbersOf(
      PHONE_COLUMNS.map((c) => row[c]),
      country,
    ),
    modifiedAt: modified === null ? null : new Date(modified).toISOString(),
    kind: 'contact',
    linkKey: text(row[LINK_COLUMN]),
    markedDeleted: typeof row.statecode === 'number' && row.statecode !== ACTIVE,
  };
}

/** The columns of `fields` with the state's values (null clears a column). */
export function columnValues(
  state: ContactState,
  fields: readonly ContactField[],
): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const f of fields) if (f in COLUMN) out[COLUMN[f as SyncedField]] = state[f];
  return out;
}
