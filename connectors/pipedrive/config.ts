import { z } from 'zod';
import { secret } from '../../config/secret';

/**
 * A Pipedrive OAuth app (Marketplace or private): callsync keeps the current tokens in PostgreSQL
 * (sealed under temporal.encryption's keys), seeded from `refreshToken` on first use, and renews the
 * access token (Pipedrive's live about an hour) with the refresh_token grant at oauthUrl.
 * https://pipedrive.readme.io/docs/marketplace-oauth-authorization
 */
export const pipedriveOAuthSchema = z.object({
  /** The app's client id (Developer Hub → the app → OAuth & access scopes). */
  clientId: z.string().min(1),
  /** The app's client secret; a secret (`{ "env" }` or `{ "file" }`), no default. */
  clientSecret: secret(),
  /** The refresh token of the install's authorisation; a secret, no default. */
  refreshToken: secret(),
  /** Pipedrive's OAuth server; only tests point it elsewhere. */
  oauthUrl: z.url().default('https://oauth.pipedrive.com'),
  /** Renew the access token when it expires within this many seconds. */
  refreshBeforeExpirySeconds: z.number().min(0).max(1800).default(300),
});
export type PipedriveOAuthConfig = z.infer<typeof pipedriveOAuthSchema>;

/** A Pipedrive destination: the company, and a personal API token or an OAuth app. */
export const pipedriveConfigSchema = z
  .object({
    type: z.literal('pipedrive'),
    /** The company's subdomain (`acme` for https://acme.pipedrive.com): record pages and identity. */
    companyDomain: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/i, 'must be the subdomain of <name>.pipedrive.com, e.g. "acme"'),
    /** A user's personal API token (sent as x-api-token), a secret; or `oauth`. */
    apiToken: secret().optional(),
    /** An OAuth app's install (refresh token flow); or `apiToken`. */
    oauth: pipedriveOAuthSchema.optional(),
    /** API origin; default https://<companyDomain>.pipedrive.com. Only tests point it elsewhere. */
    apiUrl: z.url().optional(),
    /**
     * Requests per rolling 2 seconds callsync may send with its token (Pipedrive's burst limit per
     * user: 20 on the lowest plan with an API token, more on higher plans and for OAuth apps).
     */
    requestsPer2Seconds: z.number().int().min(2).max(1000).default(20),
    /** Search requests per rolling 2 seconds (Pipedrive's Search API limit is 10 on every plan). */
    searchRequestsPer2Seconds: z.number().int().min(1).max(10).default(10),
    /**
     * How far back (days) findCallLog looks for a call log whose create lost its answer; Temporal
     * retries such a create within minutes, so a few days is ample.
     */
    recoveryLookbackDays: z.number().int().min(1).max(90).default(7),
  })
  .superRefine((c, ctx) => {
    if ((c.apiToken === undefined) === (c.oauth === undefined))
      ctx.addIssue({
        code: 'custom',
        path: c.apiToken === undefined ? ['apiToken'] : ['oauth'],
        message:
          c.apiToken === undefined
            ? 'set apiToken (a personal API token) or oauth (an OAuth app), one of the two'
            : 'apiToken and oauth are two ways to authenticate: set one of the two',
      });
  });

export type PipedriveConfig = z.infer<typeof pipedriveConfigSchema>;
export type PipedriveConfigInput = z.input<typeof pipedriveConfigSchema>;

/** The API origin the connector calls (the company domain unless a test overrides it). */
export function pipedriveApiUrl(config: Pick<PipedriveConfig, 'apiUrl' | 'companyDomain'>): string {
  return (config.apiUrl ?? `https://${config.companyDomain}.pipedrive.com`).replace(/\/$/, '');
}
