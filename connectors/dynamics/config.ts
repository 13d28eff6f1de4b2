import { z } from 'zod';
import { secret } from '../../config/secret';

/** Microsoft Entra ID's sign-in host (the public cloud). */
export const ENTRA_HOST = 'https://login.microsoftonline.com';

/**
 * A Microsoft Dynamics 365 (Dataverse) destination. callsync signs in as an application user
 * (Microsoft Entra ID app registration, OAuth 2.0 client credentials) and writes contacts, phone call
 * activities and task activities through the Dataverse Web API (docs/crm.md "Microsoft Dynamics 365").
 */
export const dynamicsConfigSchema = z.object({
  type: z.literal('dynamics'),
  /** The environment's URL, e.g. https://contoso.crm4.dynamics.com (Power Platform admin center → Environment URL). */
  url: z.url({ protocol: /^https?$/ }),
  /** The Microsoft Entra tenant: its id (a GUID) or a verified domain (contoso.onmicrosoft.com). */
  tenantId: z.string().regex(/^[A-Za-z0-9.-]+$/, 'a tenant id (GUID) or domain'),
  /** The app registration's application (client) id; Dataverse knows it as an application user. */
  clientId: z.string().min(1),
  /** The app registration's client secret; a secret (`{ "env" }` or `{ "file" }`), no default. */
  clientSecret: secret(),
  /** Microsoft Entra's sign-in host; national clouds have their own; only tests point it elsewhere. */
  authorityHost: z.url({ protocol: /^https$/ }).default(ENTRA_HOST),
  /** Web API version (`/api/data/v<version>/`). */
  apiVersion: z
    .string()
    .regex(/^\d+\.\d$/)
    .default('9.2'),
  /**
   * Requests per second this connector sends. Dataverse allows an application user 6,000 requests in
   * any 5 minutes (20 per second) and 52 at once; the default leaves half for the org's other apps.
   */
  requestsPerSecond: z.number().positive().max(20).default(10),
  /** The model-driven app (its id) screen-pop and dashboard links open records in; the user's default when absent. */
  appId: z.uuid().optional(),
});

export type DynamicsConfig = z.infer<typeof dynamicsConfigSchema>;
export type DynamicsConfigInput = z.input<typeof dynamicsConfigSchema>;

/** The environment URL without its trailing slash. */
export function environmentUrl(config: Pick<DynamicsConfig, 'url'>): string {
  return config.url.replace(/\/+$/, '');
}

/** `dynamics:<environment URL>`: the environment names the org in cache keys, rate windows and mappings. */
export function dynamicsDestinationId(config: Pick<DynamicsConfig, 'url'>): string {
  return `dynamics:${environmentUrl(config)}`;
}
