import { z } from 'zod';
import { secret } from '../../config/secret';

/**
 * An API token (Admin Center → Apps and integrations → Zendesk API), sent as Basic
 * `{email}/token:{api_token}`
 * (https://developer.zendesk.com/api-reference/introduction/security-and-auth/). Requests act as the
 * agent of `email`, so that agent's role decides what callsync may do.
 */
const apiTokenAuthSchema = z.object({
  type: z.literal('api-token'),
  /** The e-mail of the agent (or admin) the token acts as. */
  email: z.email(),
  /** The API token; a secret (`{ "env" }` or `{ "file" }`), no default. */
  apiToken: secret(),
});

/**
 * An OAuth client's tokens, renewed by the refresh token grant (POST /oauth/tokens with
 * grant_type=refresh_token: https://developer.zendesk.com/api-reference/ticketing/oauth/grant_type_tokens/).
 * Zendesk answers a new access token and a new refresh token and deletes the old pair, so callsync
 * keeps the current pair in PostgreSQL (sealed under temporal.encryption's keys), seeded from here.
 */
const oauthAuthSchema = z.object({
  type: z.literal('oauth'),
  /** The OAuth client's unique identifier (Admin Center → Apps and integrations → OAuth clients). */
  clientId: z.string().min(1),
  /** The client's secret (confidential clients); a secret, no default. */
  clientSecret: secret().optional(),
  /** The refresh token of the first authorisation (scopes `read write`); a secret, no default. */
  refreshToken: secret(),
  /** The access token that came with it, used until it expires or is refused; a secret. */
  accessToken: secret().optional(),
  /**
   * Lifetime asked for each new access token, in seconds (Zendesk: 300 to 172,800); Zendesk's own
   * default when absent.
   */
  accessTokenSeconds: z.number().int().min(300).max(172_800).optional(),
  /** Renew the access token when it expires within this many seconds. */
  refreshBeforeExpirySeconds: z.number().int().min(0).max(3600).default(120),
});

/** How callsync authenticates to Zendesk (see apiTokenAuthSchema and oauthAuthSchema). */
export const zendeskAuthSchema = z.discriminatedUnion('type', [apiTokenAuthSchema, oauthAuthSchema]);
export type ZendeskAuth = z.infer<typeof zendeskAuthSchema>;

/** A Zendesk Support destination: end users found by phone, calls and callbacks as tickets. */
export const zendeskConfigSchema = z.object({
  type: z.literal('zendesk'),
  /** The account's subdomain: `acme` for https://acme.zendesk.com. */
  subdomain: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'the subdomain only, e.g. "acme" for acme.zendesk.com'),
  auth: zendeskAuthSchema,
  /** API origin (default `https://<subdomain>.zendesk.com`); only tests point it elsewhere. */
  baseUrl: z.url().optional(),
  /**
   * Requests per minute callsync sends. Zendesk limits the whole account per minute by plan (Team
   * 200, Growth and Professional 400, Enterprise 700, Enterprise Plus or the High Volume API add-on
   * 2,500: https://developer.zendesk.com/api-reference/introduction/rate-limits/), shared with the
   * agents' apps and other integrations, so the default leaves half of a Team plan's to them.
   */
  requestsPerMinute: z.number().int().min(10).max(2500).default(100),
  /**
   * The window Zendesk counts requests in, in seconds: its minute. Only tests shorten it (with
   * requestsPerMinute then meaning requests per this window), so a lower plan is crossed in seconds.
   */
  rateWindowSeconds: z.number().int().min(1).max(60).default(60),
  /**
   * How long Zendesk's incremental exports leave out the latest changes, in seconds: "any items that
   * were created or changed within the minute prior to your request are excluded"
   * (https://developer.zendesk.com/documentation/ticketing/managing-tickets/using-the-incremental-export-api).
   * The contact sync reads changes from this long before its cursor. Only tests shorten it (their
   * test server then leaves out as little).
   */
  exportLagSeconds: z.number().int().min(0).max(300).default(60),
  /** Group new tickets are assigned to (Zendesk group id); the account's default group when absent. */
  groupId: z.number().int().positive().optional(),
  /** Tags put on every ticket callsync creates (besides `callsync` and its kind). */
  tags: z.array(z.string().regex(/^[^\s,]+$/, 'a tag has no spaces or commas')).default([]),
});

export type ZendeskConfig = z.infer<typeof zendeskConfigSchema>;
export type ZendeskConfigInput = z.input<typeof zendeskConfigSchema>;

/** Where the API answers: the configured override or the account's own host. */
export function zendeskOrigin(config: Pick<ZendeskConfig, 'subdomain' | 'baseUrl'>): string {
  return (config.baseUrl ?? `https://${config.subdomain}.zendesk.com`).replace(/\/$/, '');
}
