// Zendesk end users as the two-way contact sync reads and writes them. A user has one `name`: the
// sync's firstName is the name up to its first space and lastName the rest, and a write joins them
// again. Zendesk requires a name, so a person with none is written under their e-mail or number,
// and a name that is only the person's own e-mail or number reads back as no name (it is that
// stand-in, not a name, and would otherwise travel to the platform as one). `phone` is Zendesk's
// phone (the user's primary number, the one its phone search and Talk find); Zendesk keeps no second
// number on the user itself (more are identities, another API), so the mobile is the text user field
// MOBILE_FIELD, written in E.164. `notes` is the user's notes field; company is left out (it is the
// user's organization, a record of its own). callsync's mark on a user whose platform contact was
// deleted is the checkbox user field DELETED_FIELD.
import type { CountryCode } from 'libphonenumber-js';
import { z } from 'zod';
import type { ContactField } from '../../config/contact-sync';
import { email, number, numbersOf, text, type ContactState, type SideRecord } from '../crm/contact-model';

/** The user field (checkbox) callsync sets on a user whose platform contact was deleted. */
export const DELETED_FIELD = 'callsync_deleted';
/** The user field (text) that holds the mobile number. */
export const MOBILE_FIELD = 'callsync_mobile';

/** The synced fields a Zendesk user keeps. */
export const USER_FIELDS: readonly ContactField[] = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'mobile',
  'notes',
];

/**
 * The fields the sync writes. `email` is the user's primary e-mail, which Zendesk takes on create
 * only ("On update, a secondary email is added":
 * https://developer.zendesk.com/api-reference/ticketing/users/users/#json-format); the writer gives a
 * create only the writable fields, so the sync reads e-mails from Zendesk and never writes them.
 */
export const WRITABLE_FIELDS: readonly ContactField[] = ['firstName', 'lastName', 'phone', 'mobile', 'notes'];

export const contactUserSchema = z.looseObject({
  id: z.number(),
  name: z.string().nullish(),
  email: z.string().nullish(),
  phone: z.string().nullish(),
  notes: z.string().nullish(),
  role: z.string().nullish(),
  active: z.boolean().nullish(),
  updated_at: z.string().nullish(),
  external_id: z.string().nullish(),
  user_fields: z.record(z.string(), z.unknown()).nullish(),
});
export type ContactUser = z.infer<typeof contactUserSchema>;

/** A name split at its first space: "Mary Ann Smith" is Mary / Ann Smith. */
export function splitName(name: string | null): { firstName: string | null; lastName: string | null } {
  const n = text(name);
  if (n === null) return { firstName: null, lastName: null };
  const at = n.search(/\s/);
  return at < 0
    ? { firstName: n, lastName: null }
    : { firstName: n.slice(0, at), lastName: text(n.slice(at + 1)) };
}

/** The name Zendesk holds for a state: first and last name joined, else the e-mail or the number. */
export function joinName(
  state: Pick<ContactState, 'firstName' | 'lastName' | 'email' | 'phone' | 'mobile'>,
): string | null {
  const name = [state.firstName, state.lastName].filter((p) => p !== null && p !== '').join(' ');
  return text(name) ?? state.email ?? state.phone ?? state.mobile;
}

/** Whether a held name is only the user's own e-mail or number (the stand-in joinName writes). */
function isStandIn(name: string, u: ContactUser, country: CountryCode): boolean {
  if (u.email && name.toLowerCase() === u.email.toLowerCase()) return true;
  const e164 = number(name, country);
  return e164 !== null && (e164 === number(u.phone, country) || e164 === number(mobileOf(u), country));
}

function mobileOf(u: ContactUser): string | null {
  return text(u.user_fields?.[MOBILE_FIELD]);
}

export function userRecord(u: ContactUser, country: CountryCode): SideRecord {
  const name = text(u.name);
  const names = name === null || isStandIn(name, u, country) ? splitName(null) : splitName(name);
  const state: ContactState = {
    ...names,
    company: null,
    email: email(u.email),
    phone: number(u.phone, country),
    mobile: number(mobileOf(u), country),
    notes: text(u.notes),
  };
  return {
    id: String(u.id),
    state,
    numbers: numbersOf([u.phone, mobileOf(u)], country),
    modifiedAt: u.updated_at ? new Date(u.updated_at).toISOString() : null,
    kind: 'contact',
    // callsync's key when the sync created the user (`<account>:<platform id>`); the call path's
    // unknown callers carry `<account>:contact:<E.164>`, which names no platform contact.
    linkKey: text(u.external_id),
    markedDeleted: u.user_fields?.[DELETED_FIELD] === true,
  };
}

/** Whether the sync keeps this user: active end users only (agents and admins are staff). */
export function isPerson(u: ContactUser): boolean {
  return u.active !== false && (u.role ?? 'end-user') === 'end-user';
}

/** The user properties for `fields` of `state` (a name change writes the whole name). */
export function userBody(state: ContactState, fields: readonly ContactField[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const unnamed = state.firstName === null && state.lastName === null;
  const renamed = fields.includes('firstName') || fields.includes('lastName');
  // A new number also renames a user whose name is its number (the stand-in follows it).
  if (renamed || (unnamed && (fields.includes('phone') || fields.includes('mobile')))) {
    const name = joinName(state);
    if (name !== null) body.name = name;
  }
  if (fields.includes('phone')) body.phone = state.phone;
  if (fields.includes('mobile')) body.user_fields = { [MOBILE_FIELD]: state.mobile };
  if (fields.includes('notes')) body.notes = state.notes;
  return body;
}
