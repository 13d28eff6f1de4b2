import { z } from 'zod';
import { secret } from '../../config/secret';

/** A Salesforce destination: an org's instance URL and a session (OAuth) access token. */
export const salesforceConfigSchema = z.object({
  type: z.literal('salesforce'),
  /** e.g. https://mycompany.my.salesforce.com */
  instanceUrl: z.url(),
  /** OAuth access token; a secret (`{ "env" }` or `{ "file" }`), no default. */
  accessToken: secret(),
  /** With these, jsforce refreshes an expired access token by itself. */
  refreshToken: secret().optional(),
  oauth2: z
    .object({
      clientId: z.string().min(1),
      /** A secret (`{ "env" }` or `{ "file" }`). */
      clientSecret: secret().optional(),
      loginUrl: z.url().default('https://login.salesforce.com'),
    })
    .optional(),
  /** REST API version. */
  apiVersion: z
    .string()
    .regex(/^\d+\.\d$/)
    .default('62.0'),
  /**
   * Requests per second this connector sends. Salesforce counts API calls per 24 hours per org (and
   * caps long-running concurrent ones), so a modest steady rate keeps the daily budget for others.
   */
  requestsPerSecond: z.number().positive().max(100).default(5),
  /**
   * API calls per UTC day callsync may spend, shared by every worker (PostgreSQL keeps the count);
   * when spent, CRM writes wait for the next day. No daily cap when absent.
   */
  dailyApiBudget: z.number().int().positive().optional(),
  /** Priority of callback tasks. */
  taskPriority: z.enum(['High', 'Normal', 'Low']).default('High'),
});

export type SalesforceConfig = z.infer<typeof salesforceConfigSchema>;
export type SalesforceConfigInput = z.input<typeof salesforceConfigSchema>;
