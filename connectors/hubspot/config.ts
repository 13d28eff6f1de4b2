import { z } from 'zod';
import { secret } from '../../config/secret';

/** A HubSpot app installed through OAuth: its tokens are kept (sealed) in PostgreSQL and renew themselves. */
export const hubspotOAuthSchema = z.object({
  /** The app's client id (HubSpot developer account → app → Auth). */
  clientId: z.string().min(1),
  /** The app's client secret; a secret (`{ "env" }` or `{ "file" }`), no default. */
  clientSecret: secret(),
  /**
   * Where HubSpot sends the browser back after the install: the dashboard's
   * `https://<server>/dashboard/hubspot/callback`, also listed among the app's redirect URLs.
   */
  redirectUrl: z.url(),
  /** Scopes the install asks for: the app's required scopes (docs/crm.md "Connecting HubSpot or Salesforce"). */
  scopes: z.array(z.string().min(1)).min(1),
  /** HubSpot's consent page; only tests point it elsewhere. */
  authorizeUrl: z.url().default('https://app.hubspot.com/oauth/authorize'),
  /** Renew the access token (HubSpot's live 30 minutes) when it expires within this many seconds. */
  refreshBeforeExpirySeconds: z.number().min(0).max(1200).default(300),
});
export type HubSpotOAuthConfig = z.infer<typeof hubspotOAuthSchema>;

/** A HubSpot destination: a private app's access token, or an OAuth app installed from the dashboard. */
export const hubspotConfigSchema = z
  .object({
    type: z.literal('hubspot'),
    /** Private-app access token, a secret (`{ "env" }` or `{ "file" }`); or `oauth`. */
    accessToken: secret().optional(),
    /** An OAuth app, installed per account from the dashboard (`/dashboard/hubspot/install`); or `accessToken`. */
    oauth: hubspotOAuthSchema.optional(),
    /** API origin; only tests point it elsewhere. */
    basePath: z.url().default('https://api.hubapi.com'),
    /**
     * Requests per 10 seconds the app may send (HubSpot: 100 for OAuth apps and free/starter private
     * apps, 190 for Professional/Enterprise private apps). The client stays under it.
     */
    requestsPer10Seconds: z.number().int().min(10).max(1000).default(100),
    /** Search requests per second (HubSpot allows 5 per account, whatever the token). */
    searchRequestsPerSecond: z.number().int().min(1).max(5).default(4),
    /**
     * The portal (hub) id the private app's token belongs to, when known. HubSpot counts the search
     * limit and the daily limit per portal: destinations given the same portalId (two private apps
     * of one portal) share one search rate and one daily budget. Without it each token counts alone.
     */
    portalId: z.number().int().positive().optional(),
    /**
     * How long HubSpot's search may take to see a write ("a few moments"). Looking for an object an
     * earlier attempt may have created (its answer lost), callsync searches again after this long
     * before it creates one.
     */
    searchLagSeconds: z.number().min(0).max(60).default(5),
    /** Priority of callback tasks. */
    taskPriority: z.enum(['LOW', 'MEDIUM', 'HIGH']).default('HIGH'),
  })
  .superRefine((c, ctx) => {
    if ((c.accessToken === undefined) === (c.oauth === undefined))
      ctx.addIssue({
        code: 'custom',
        path: c.accessToken === undefined ? ['accessToken'] : ['oauth'],
        message:
          c.accessToken === undefined
            ? 'set accessToken (a private app) or oauth (an OAuth app), one of the two'
            : 'accessToken and oauth are two ways to authenticate: set one of the two',
      });
  });

export type HubSpotConfig = z.infer<typeof hubspotConfigSchema>;
export type HubSpotConfigInput = z.input<typeof hubspotConfigSchema>;
