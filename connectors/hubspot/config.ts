import { z } from 'zod';
import { secret } from '../../config/secret';

/** A HubSpot destination: a private app's access token (or an OAuth access token). */
export const hubspotConfigSchema = z.object({
  type: z.literal('hubspot'),
  /** Private-app access token; a secret (`{ "env" }` or `{ "file" }`), no default. */
  accessToken: secret(),
  /** API origin; only tests point it elsewhere. */
  basePath: z.url().default('https://api.hubapi.com'),
  /**
   * Requests per 10 seconds the app may send (HubSpot: 100 for OAuth apps and free/starter private
   * apps, 190 for Professional/Enterprise private apps). The client stays under it.
   */
  requestsPer10Seconds: z.number().int().min(10).max(1000).default(100),
  /** Search requests per second (HubSpot allows 5 per token). */
  searchRequestsPerSecond: z.number().int().min(1).max(5).default(4),
  /** Priority of callback tasks. */
  taskPriority: z.enum(['LOW', 'MEDIUM', 'HIGH']).default('HIGH'),
});

export type HubSpotConfig = z.infer<typeof hubspotConfigSchema>;
export type HubSpotConfigInput = z.input<typeof hubspotConfigSchema>;
