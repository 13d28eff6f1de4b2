// Config of the CRM outcome write-back: the outcome an agent sets on a call log in the CRM becomes a
// call label and a note on the call's CDR (docs/crm.md "Outcomes back on the CDR").
import { z } from 'zod';
import { durationMs } from './duration';

export const outcomesConfigSchema = z.object({
  /** Write outcomes back for every account whose CRM is HubSpot or Salesforce. */
  enabled: z.boolean().default(true),
  /** How often each account's outcome pass runs. */
  every: durationMs.default(5 * 60_000),
  /** Put before every outcome label, e.g. "CRM: " (none by default: the label is the outcome's text). */
  labelPrefix: z.string().max(32).default(''),
  /** Outcome value or display text → call label name ({"Connected": "Reached"}); the text itself otherwise. */
  map: z.record(z.string().min(1), z.string().min(1).max(64)).default({}),
  /** CDRs per PATCH /cdrs request. */
  batchSize: z.number().int().min(1).max(1000).default(100),
});

export type OutcomesConfig = z.infer<typeof outcomesConfigSchema>;
