// Configuration of the two-way contact sync (docs/contact-sync.md "Contact sync"): when it runs, how contacts are
// matched, which side owns which field, and what a delete does on the other side.
import { z } from 'zod';
import { durationMs } from './duration';

/** The fields callsync keeps in step between a platform contact and its CRM record. */
export const CONTACT_FIELDS = [
  'firstName',
  'lastName',
  'company',
  'email',
  'phone',
  'mobile',
  'notes',
] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

/**
 * Who decides a field's value: `newest` (the side that changed it last), `platform` or `crm` (that
 * side always), `merge` (text: both sides' lines, once each).
 */
export const fieldOwnershipSchema = z.enum(['newest', 'platform', 'crm', 'merge']);
export type FieldOwnership = z.infer<typeof fieldOwnershipSchema>;

/** The documented default: newest change wins per field; notes are merged. */
export const DEFAULT_OWNERSHIP: Readonly<Record<ContactField, FieldOwnership>> = {
  firstName: 'newest',
  lastName: 'newest',
  company: 'newest',
  email: 'newest',
  phone: 'newest',
  mobile: 'newest',
  notes: 'merge',
};

export const contactSyncConfigSchema = z.object({
  /** Off by default: contacts go both ways only when asked for (a CRM destination is needed too). */
  enabled: z.boolean().default(false),
  /**
   * Several CRM records share a number or e-mail with one contact: `unique` links only when exactly
   * one of them also matches on e-mail (else the ambiguity is recorded and nothing is written);
   * `most_recent` links the most recently modified one.
   */
  matchRule: z.enum(['unique', 'most_recent']).default('unique'),
  /** Per-field override of the default ownership, e.g. `{ "notes": "platform" }`. */
  fields: z.partialRecord(z.enum(CONTACT_FIELDS), fieldOwnershipSchema).default({}),
  /**
   * A contact deleted on one side: `mark` keeps the other side's record and marks it (HubSpot property
   * `callsync_deleted`, a platform label), `propagate` deletes it too, `ignore` only unlinks.
   */
  deletes: z.enum(['mark', 'propagate', 'ignore']).default('mark'),
  /** Create CRM records for platform contacts nobody matched, and platform contacts for CRM records. */
  createInCrm: z.boolean().default(true),
  createOnPlatform: z.boolean().default(true),
  /** Salesforce: which object a platform contact becomes (Leads need a company; `[not provided]` when none). */
  salesforceCreateAs: z.enum(['Contact', 'Lead']).default('Contact'),
});

/** The `contacts` section: the sync's settings and how often it runs. */
export const contactsConfigSchema = contactSyncConfigSchema.extend({
  every: durationMs.default(5 * 60_000),
});

export type ContactSyncConfig = z.infer<typeof contactsConfigSchema>;

/** The ownership of every field: the default with the config's overrides. */
export function fieldOwnership(config: ContactSyncConfig): Record<ContactField, FieldOwnership> {
  return { ...DEFAULT_OWNERSHIP, ...config.fields };
}
