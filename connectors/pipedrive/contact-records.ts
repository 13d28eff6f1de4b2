// Pipedrive persons as the contact sync reads and writes them (v2 persons:
// https://developers.pipedrive.com/docs/api/v1/Persons). A person has one `name` (required; Pipedrive
// keeps no first and last name of its own to write in v2), so the sync's first and last name are the
// name split at its first space, and written joined. Numbers and e-mails are arrays of
// `{ value, label, primary }`: the sync's mobile is the first number labelled `mobile`, its phone the
// primary (else first) of the others, its e-mail the primary (else first) address; the rest are kept
// as they are on every write. callsync's link key and deleted mark are custom fields, addressed by
// their hash keys (person-fields.ts). A company is an organisation (org_id), not a text: not synced.
import type { CountryCode } from 'libphonenumber-js';
import { z } from 'zod';
import type { ContactField } from '../../config/contact-sync';
import { email, number, numbersOf, text, type ContactState, type SideRecord } from '../crm/contact-model';
import type { PersonFieldKeys } from './person-fields';
import { isoOf } from './responses';

/** The synced fields a Pipedrive person keeps. */
export const PERSON_FIELDS: readonly ContactField[] = ['firstName', 'lastName', 'email', 'phone', 'mobile'];

const item = z.object({
  value: z.string().nullish(),
  label: z.string().nullish(),
  primary: z.boolean().nullish(),
});
export type PersonItem = z.infer<typeof item>;
/** A number or e-mail as callsync writes it. */
export interface WrittenItem {
  value: string;
  label: string;
  primary: boolean;
}

export const contactPersonSchema = z.object({
  id: z.number().int(),
  name: z.string().nullish(),
  update_time: z.string().nullish(),
  phones: z.array(item).nullish(),
  emails: z.array(item).nullish(),
  custom_fields: z.record(z.string(), z.unknown()).nullish(),
});
export type ContactPerson = z.infer<typeof contactPersonSchema>;
export const onePersonSchema = z.object({ data: contactPersonSchema });

const MOBILE = 'mobile';

const filled = (items: readonly PersonItem[] | null | undefined) =>
  (items ?? []).filter((i) => text(i.value) !== null);

/** The entries a person's items read as the sync's fields: its mobile, its phone, its e-mail. */
export function slots(p: Pick<ContactPerson, 'phones' | 'emails'>) {
  const phones = filled(p.phones);
  const mobile = phones.find((i) => i.label === MOBILE) ?? null;
  const others = phones.filter((i) => i !== mobile && i.label !== MOBILE);
  const emails = filled(p.emails);
  return {
    mobile,
    phone: others.find((i) => i.primary) ?? others[0] ?? null,
    email: emails.find((i) => i.primary) ?? emails[0] ?? null,
  };
}

/** The person's name as the sync's first and last name (at its first space). */
export function splitName(name: string | null): { firstName: string | null; lastName: string | null } {
  if (name === null) return { firstName: null, lastName: null };
  const at = name.indexOf(' ');
  if (at < 0) return { firstName: name, lastName: null };
  return { firstName: name.slice(0, at), lastName: text(name.slice(at + 1)) };
}

/** The name a person is written with: first and last joined, or (Pipedrive requires one) a number or e-mail. */
export function nameOf(state: ContactState): string {
  const name = text([state.firstName, state.lastName].filter((n) => n !== null).join(' '));
  return name ?? state.phone ?? state.mobile ?? state.email ?? '?';
}

/** A person as the contact sync's record. */
export function personRecord(p: ContactPerson, keys: PersonFieldKeys, country: CountryCode): SideRecord {
  const s = slots(p);
  const phones = filled(p.phones).map((i) => i.value);
  // A person named by one of its own numbers or e-mails (an unknown caller, or a contact without a
  // name: Pipedrive requires one) has no name to sync.
  const written = text(p.name);
  const named = written !== null && ![...phones, ...filled(p.emails).map((i) => i.value)].includes(written);
  const state: ContactState = {
    ...splitName(named ? written : null),
    company: null,
    email: email(s.email?.value),
    phone: number(s.phone?.value, country),
    mobile: number(s.mobile?.value, country),
    notes: null,
  };
  const custom = p.custom_fields ?? {};
  return {
    id: String(p.id),
    state,
    numbers: numbersOf(phones, country),
    modifiedAt: isoOf(p.update_time),
    kind: 'contact',
    linkKey: text(custom[keys.link]),
    markedDeleted: text(custom[keys.deleted]) !== null,
  };
}

/** The numbers and e-mails of a new person. */
export function newItems(state: ContactState): { phones: WrittenItem[]; emails: WrittenItem[] } {
  const phones: WrittenItem[] = [];
  if (state.phone) phones.push({ value: state.phone, label: 'work', primary: true });
  if (state.mobile) phones.push({ value: state.mobile, label: MOBILE, primary: phones.length === 0 });
  const emails: WrittenItem[] = state.email ? [{ value: state.email, label: 'work', primary: true }] : [];
  return { phones, emails };
}

/** One synced entry of a person's numbers or e-mails: the entry it was, the value it becomes. */
interface Change {
  old: PersonItem | null;
  value: string | null;
  label: string;
}

/**
 * A person's numbers or e-mails with the synced entries changed (removed when their value is null),
 * the others kept as they are: Pipedrive replaces the whole array on an update.
 */
export function replaced(
  items: readonly PersonItem[] | null | undefined,
  changes: readonly Change[],
): WrittenItem[] {
  const olds = new Set(changes.map((c) => c.old));
  const out: WrittenItem[] = filled(items)
    .filter((i) => !olds.has(i))
    .map((i) => ({ value: i.value ?? '', label: i.label ?? 'other', primary: i.primary === true }));
  for (const c of changes) {
    if (c.value === null) continue;
    out.push({ value: c.value, label: c.old?.label ?? c.label, primary: c.old?.primary === true });
  }
  // One entry is primary when there are any (the first, when the primary one was removed).
  if (out.length > 0 && !out.some((i) => i.primary)) out[0]!.primary = true;
  return out;
}

/** What an update writes of a person's numbers and e-mails, for the fields it changes. */
export function changedItems(
  p: ContactPerson,
  state: ContactState,
  fields: readonly ContactField[],
): { phones?: WrittenItem[]; emails?: WrittenItem[] } {
  const s = slots(p);
  const phones: Change[] = [];
  if (fields.includes('phone')) phones.push({ old: s.phone, value: state.phone, label: 'work' });
  if (fields.includes('mobile')) phones.push({ old: s.mobile, value: state.mobile, label: MOBILE });
  return {
    ...(phones.length > 0 ? { phones: replaced(p.phones, phones) } : {}),
    ...(fields.includes('email')
      ? { emails: replaced(p.emails, [{ old: s.email, value: state.email, label: 'work' }]) }
      : {}),
  };
}
