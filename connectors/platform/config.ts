import { z } from 'zod';
import { secret } from '../../config/secret';

/** Largest page the platform serves (spec, Limits: `limit` at most 5000). */
export const MAX_PAGE_SIZE = 5000;

/** API-key credentials: sent at once, no login call (spec, Authentication option B). */
export const apiKeyCredentialsSchema = z.object({
  type: z.literal('apiKey'),
  /** The user the API key belongs to; the Basic credentials are `<userId>:<apiKey>`. */
  userId: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]),
  /** The key from the user's Advanced settings tab; a secret (inline, `{ "env" }` or `{ "file" }`). */
  apiKey: secret(),
});

/** E-mail and password credentials: POST /login (and /login2fa when two-factor is on). */
export const passwordCredentialsSchema = z.object({
  type: z.literal('password'),
  email: z.string().min(1),
  /** A secret (inline, `{ "env" }` or `{ "file" }`). */
  password: secret(),
});

/** How the client authenticates. Secrets have no defaults. */
export const platformCredentialsSchema = z.discriminatedUnion('type', [
  apiKeyCredentialsSchema,
  passwordCredentialsSchema,
]);

/** Options of the platform client that can come from configuration (parsed once at start). */
export const platformClientConfigSchema = z.object({
  /** Base URL including the version and product segments, e.g. `https://host/v1.1/voipstudio`. */
  baseUrl: z.url(),
  /** API key or e-mail and password. */
  credentials: platformCredentialsSchema,
  /** Requests per second to the account, for the whole deployment (every worker together, through
   * PostgreSQL); the platform publishes no limit of its own (spec, Limits: "Rate limits: not shown"). */
  requestsPerSecond: z.number().positive().default(20),
  /** Requests allowed back to back before the rate limit spaces them. */
  burst: z.number().int().min(1).default(1),
  /** Time limit of one HTTP attempt (for binary downloads: until the response headers arrive). */
  timeoutMs: z.number().int().positive().default(30_000),
  /** Retries after the first attempt on 408/429/5xx/network errors; durable retries are Temporal's. */
  maxRetries: z.number().int().min(0).max(10).default(2),
  /** Default `limit` of collection reads. */
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(1000),
  /** Idle time after which the session pings before the next request (token idles out after 15 min). */
  keepAliveMs: z
    .number()
    .int()
    .positive()
    .default(5 * 60_000),
  /** Idle lifetime of a login token; beyond it the session logs in again instead of pinging. */
  tokenIdleLifetimeMs: z
    .number()
    .int()
    .positive()
    .default(15 * 60_000),
  /** Longest Retry-After the core waits for itself; longer ones are thrown for the caller to schedule. */
  maxRetryAfterMs: z.number().int().min(0).default(60_000),
});

/** Parsed client configuration (defaults applied). */
export type PlatformClientConfig = z.infer<typeof platformClientConfigSchema>;
/** Client configuration as written by a caller (defaults optional). */
export type PlatformClientConfigInput = z.input<typeof platformClientConfigSchema>;
/** Parsed credentials. */
export type PlatformCredentials = z.infer<typeof platformCredentialsSchema>;
