// Config of what callsync carries between the phone system and the CRM besides call logs: SMS and
// voicemail on the contact, and screen-pop links on ringing calls.
import { z } from 'zod';
import { durationMs } from './duration';

/** A link template: `{id}`, `{kind}` (contact or lead), `{e164}` and `{name}` are filled in, URL-encoded. */
const linkTemplate = z
  .string()
  .regex(/^https?:\/\//, 'must be an http(s) URL template such as https://crm.example/contacts/{id}');

export const screenPopConfigSchema = z.object({
  /** Set the live call's action link when an inbound call starts ringing. */
  enabled: z.boolean().default(true),
  /** The contact's CRM page; the destination's own page when absent (HubSpot, Salesforce). */
  contactUrl: linkTemplate.optional(),
  /** Where an agent creates a contact for an unknown caller; the destination's own form when absent. */
  createContactUrl: linkTemplate.optional(),
  /** Text shown for a known caller's link (`{name}` and `{e164}` are filled in). */
  contactText: z.string().min(1).max(200).default('Open {name} in the CRM'),
  /** Text shown for an unknown caller's link. */
  createContactText: z.string().min(1).max(200).default('Create a contact for {e164}'),
  /** How long a cached contact is trusted without asking the CRM again. */
  contactCacheMaxAge: durationMs.default(7 * 86_400_000),
  /** How long "the CRM has nobody with this number" is trusted (a contact may be created meanwhile). */
  unknownCacheMaxAge: durationMs.default(10 * 60_000),
});

export const conversationsConfigSchema = z.object({
  screenPop: screenPopConfigSchema.prefault({}),
  /** Log SMS (both directions) on the CRM contact. */
  sms: z.boolean().default(true),
  /** Log voice messages on the CRM contact, with the archived audio's link and the transcript. */
  voicemail: z.boolean().default(true),
  /** How far back the scheduled pass looks for SMS and voice messages not yet on the CRM. */
  lookback: durationMs.default(2 * 86_400_000),
  /** How often the scheduled pass (SMS and voicemail) runs. */
  every: durationMs.default(60_000),
});

export type ConversationsConfig = z.infer<typeof conversationsConfigSchema>;
export type ScreenPopConfig = z.infer<typeof screenPopConfigSchema>;
