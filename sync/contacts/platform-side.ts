// Platform contacts as the contact sync sees them: read (all tel*/mobile* numbers for matching,
// tel and mobile as the synced phone and mobile), and the PATCH/POST body of a change.
import type { CountryCode } from 'libphonenumber-js';
import { CONTACT_FIELDS, type ContactField } from '../../config/contact-sync';
import type { Contact } from '../../connectors/platform/schemas';
import {
  email,
  number,
  numbersOf,
  text,
  type ContactState,
  type SideRecord,
} from '../../connectors/crm/contact-model';

/** The platform keeps every synced field. */
export const PLATFORM_FIELDS: readonly ContactField[] = CONTACT_FIELDS;

const COLUMN: Record<ContactField, string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  company: 'company',
  email: 'email',
  phone: 'tel',
  mobile: 'mobile',
  notes: 'notes',
};

/** The label a platform contact gets when its CRM record was deleted (deletes: mark). */
export const DELETED_IN_CRM_LABEL = 'callsync: deleted in CRM';

/** A platform contact as a sync record. */
export function platformRecord(c: Contact, country: CountryCode): SideRecord {
  const state: ContactState = {
    firstName: text(c.first_name),
    lastName: text(c.last_name),
    company: text(c.company),
    email: email(c.email),
    phone: number(c.tel, country),
    mobile: number(c.mobile, country),
    notes: text(c.notes),
  };
  return {
    id: String(c.id),
    state,
    numbers: numbersOf([c.tel, c.tel_1, c.tel_2, c.mobile, c.mobile_1, c.mobile_2], country),
    modifiedAt: c.created_at ? new Date(`${c.created_at.replace(' ', 'T')}Z`).toISOString() : null,
    kind: 'contact',
  };
}

/** The platform body that sets `fields` to their values in `state` (empty string clears). */
export function platformBody(state: ContactState, fields: readonly ContactField[]): Record<string, string> {
  const body: Record<string, string> = {};
  for (const f of fields) body[COLUMN[f]] = state[f] ?? '';
  return body;
}
