import { z } from 'zod';
import { secret } from '../../config/secret';

const LOGIN_URL = 'https://login.salesforce.com';

/**
 * OAuth 2.0 JWT bearer flow: callsync signs a JWT for `username` with the private key whose
 * certificate is uploaded to the connected app (pre-approved for that user), and gets a new session
 * whenever the last one expires. No refresh token, nothing stored.
 */
const jwtAuthSchema = z
  .object({
    type: z.literal('jwt'),
    /** The connected app's consumer key. */
    clientId: z.string().min(1),
    /** The Salesforce username sessions are issued for. */
    username: z.string().min(1),
    /** The private key (PEM), a secret (`{ "env" }` or `{ "file" }`); no default. */
    privateKey: secret().optional(),
    /** Path of the private key (PEM) file. */
    privateKeyFile: z.string().min(1).optional(),
    /** https://login.salesforce.com, https://test.salesforce.com (sandboxes) or the My Domain URL. */
    loginUrl: z.url().default(LOGIN_URL),
  })
  .refine((a) => (a.privateKey === undefined) !== (a.privateKeyFile === undefined), {
    message: 'give privateKey or privateKeyFile (exactly one)',
    path: ['privateKey'],
  });

/**
 * OAuth 2.0 refresh token flow: the refresh token an admin's authorisation gave. callsync keeps the
 * current one in PostgreSQL (sealed under temporal.encryption's keys), seeded from here on first use;
 * with refresh token rotation each renewal stores the new one before using it, one worker at a time.
 */
const refreshTokenAuthSchema = z.object({
  type: z.literal('refresh-token'),
  /** The connected app's consumer key. */
  clientId: z.string().min(1),
  /** The consumer secret, when the app requires it; a secret, no default. */
  clientSecret: secret().optional(),
  /** The refresh token of the first authorisation; a secret, no default. */
  refreshToken: secret(),
  loginUrl: z.url().default(LOGIN_URL),
});

/** How callsync gets Salesforce sessions (see jwtAuthSchema and refreshTokenAuthSchema). */
export const salesforceAuthSchema = z.discriminatedUnion('type', [jwtAuthSchema, refreshTokenAuthSchema]);
export type SalesforceAuth = z.infer<typeof salesforceAuthSchema>;

/** A Salesforce destination: an org's instance URL, and sessions that renew (`auth`) or one access token. */
export const salesforceConfigSchema = z
  .object({
    type: z.literal('salesforce'),
    /** e.g. https://mycompany.my.salesforce.com */
    instanceUrl: z.url(),
    /** Sessions that renew themselves: the JWT bearer flow or the refresh token flow. */
    auth: salesforceAuthSchema.optional(),
    /**
     * A session (OAuth) access token; no default. Alone it dies at the org's session timeout (give
     * `auth` instead); with `auth: refresh-token` it is used until then.
     */
    accessToken: secret().optional(),
    /** Older form of `auth: {type: "refresh-token"}`, with `oauth2.clientId`; a secret. */
    refreshToken: secret().optional(),
    oauth2: z
      .object({
        clientId: z.string().min(1),
        /** A secret (`{ "env" }` or `{ "file" }`). */
        clientSecret: secret().optional(),
        loginUrl: z.url().default(LOGIN_URL),
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
  })
  .superRefine((c, ctx) => {
    if (c.auth && c.refreshToken) {
      ctx.addIssue({
        code: 'custom',
        path: ['refreshToken'],
        message: 'give auth or refreshToken, not both',
      });
    } else if (c.refreshToken && !c.oauth2) {
      ctx.addIssue({
        code: 'custom',
        path: ['oauth2', 'clientId'],
        message: 'refreshToken needs oauth2.clientId (the connected app whose token it is)',
      });
    } else if (!c.auth && !c.accessToken && !c.refreshToken) {
      ctx.addIssue({
        code: 'custom',
        path: ['auth'],
        message: 'give auth (jwt or refresh-token) or accessToken',
      });
    }
  });

export type SalesforceConfig = z.infer<typeof salesforceConfigSchema>;
export type SalesforceConfigInput = z.input<typeof salesforceConfigSchema>;

/** The renewing credentials of a configuration (the older refreshToken + oauth2 form included), if any. */
export function salesforceAuthOf(config: SalesforceConfig): SalesforceAuth | undefined {
  if (config.auth) return config.auth;
  if (!config.refreshToken || !config.oauth2) return undefined;
  return {
    type: 'refresh-token',
    clientId: config.oauth2.clientId,
    refreshToken: config.refreshToken,
    loginUrl: config.oauth2.loginUrl,
    ...(config.oauth2.clientSecret ? { clientSecret: config.oauth2.clientSecret } : {}),
  };
}
