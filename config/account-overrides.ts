// An account's own values of the settings its CRM decides (`accounts[].overrides`): how callers are
// matched, whose contacts are created, how callbacks run and in which business hours, where its
// reports are delivered, what its screen-pops link to and which messages it logs, how its contacts are
// synced, how its CRM's call outcomes become CDR labels, and whether an erasure deletes what callsync
// created in it. Each field left out falls back to the global section of the same name
// (config/account-settings.ts). No defaults here: a default would hide the global value.
import { z } from 'zod';
import { contactsConfigSchema } from './contact-sync';
import { erasureConfigSchema } from './erasure';
import { conversationsConfigSchema, screenPopConfigSchema } from './conversations';
import { outcomesConfigSchema } from './outcomes';
import { durationMs } from './duration';
import { reportDeliveryConfigSchema } from './report-delivery';

type WithoutDefault<T> = T extends z.ZodDefault<infer Inner> ? Inner : T;

/**
 * A global section's fields as an override: the same validators (so a bad value fails as it would
 * globally, named by its path), each optional and without its default, and strict. One level: a
 * nested section is replaced by an overridable of its own (as `conversations.screenPop` is below).
 */
export function overridable<S extends z.ZodRawShape>(shape: S) {
  const fields = Object.fromEntries(
    Object.entries(shape).map(([key, field]) => {
      const bare = (field instanceof z.ZodDefault ? field.unwrap() : field) as z.ZodType;
      return [key, bare.optional()];
    }),
  );
  // Object.fromEntries loses the keys' types; the map above keeps each key and its validator.
  return z.strictObject(fields as unknown as { [K in keyof S]: z.ZodOptional<WithoutDefault<S[K]>> });
}

/** A link template of the account's own, or null: the destination's own page despite a global template. */
const ownLink = screenPopConfigSchema.shape.contactUrl.unwrap().nullable().optional();

/** This account's `conversations`: screen-pop links and texts, and which messages are logged. */
export const conversationsOverridesSchema = overridable(conversationsConfigSchema.shape)
  .omit({ screenPop: true })
  .extend({
    screenPop: overridable(screenPopConfigSchema.shape)
      .extend({ contactUrl: ownLink, createContactUrl: ownLink })
      .optional(),
  });

/** A number matching several contacts: the most recently updated, or the one owned by the call's user. */
export const matchRuleSchema = z.enum(['most_recent', 'call_owner']);

/** CRM owner ids by platform user id or e-mail (keys compared trimmed and lower-case). */
export const crmOwnersSchema = z
  .record(z.string().min(1), z.string().min(1))
  .transform((m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k.trim().toLowerCase(), v])));

/** A time of day, HH:MM on a 24-hour clock. */
export const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24 h)');

/** Strict objects: a misspelt override is an error naming it, not a setting silently ignored. */
export const accountOverridesSchema = z.strictObject({
  /** This account's `crm.matchRule`, `crm.owners` and `crm.createUnknownContacts`. */
  crm: z
    .strictObject({
      matchRule: matchRuleSchema.optional(),
      /** Replaces `crm.owners` as a whole (owner ids are the account's own CRM's). */
      owners: crmOwnersSchema.optional(),
      createUnknownContacts: z.boolean().optional(),
    })
    .optional(),
  /** This account's `callbacks` settings, business hours (`autoDial`) included. */
  callbacks: z
    .strictObject({
      assignTo: z.enum(['called_user', 'queue_agents']).optional(),
      dueIn: durationMs.optional(),
      expireAfter: durationMs.optional(),
      autoDial: z
        .strictObject({
          enabled: z.boolean().optional(),
          timezone: z.string().optional(),
          days: z.array(z.number().int().min(1).max(7)).optional(),
          start: clockTime.optional(),
          end: clockTime.optional(),
          maxAttempts: z.number().int().min(1).max(10).optional(),
          retryAfter: durationMs.optional(),
        })
        .optional(),
    })
    .optional(),
  /** This account's `reports.delivery`, as a whole (its own SMTP, outbox, Drive folder and credentials). */
  reports: z.strictObject({ delivery: reportDeliveryConfigSchema.optional() }).optional(),
  /** This account's `conversations`, field by field (`screenPop`'s too). */
  conversations: conversationsOverridesSchema.optional(),
  /** This account's `contacts` (the contact sync with its CRM); `fields` merged over the global ones. */
  contacts: overridable(contactsConfigSchema.shape).optional(),
  /** This account's `outcomes`; `map` replaces the global one as a whole (its keys are its CRM's values). */
  outcomes: overridable(outcomesConfigSchema.shape).optional(),
  /** Whether an erasure deletes what callsync created in this account's CRM (the hash key stays global). */
  erasure: overridable(erasureConfigSchema.shape).pick({ deleteCrmRecords: true }).optional(),
});

export type AccountOverrides = z.infer<typeof accountOverridesSchema>;
