import { z } from 'zod';
import { emailConfigSchema } from '../connectors/email/config';
import { googleReportsConfigSchema } from '../connectors/google/reports-config';

/** Where finished reports go: e-mail (SMTP or the local outbox), Google Drive and Google Sheets. */
export const reportDeliveryConfigSchema = z.object({
  /** E-mail to the schedule's recipients: SMTP when configured, `.eml` files in the outbox otherwise. */
  email: emailConfigSchema.prefault({}),
  /** A report larger than this many bytes is e-mailed as a Drive link instead of an attachment (needs Drive). */
  attachmentMaxBytes: z
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  /** Google Drive and Sheets; neither is used when omitted. */
  google: googleReportsConfigSchema.optional(),
});

export type ReportDeliveryConfig = z.infer<typeof reportDeliveryConfigSchema>;
export type ReportDeliveryConfigInput = z.input<typeof reportDeliveryConfigSchema>;
