import type { AuthClient, GoogleAuth, JWT } from 'google-auth-library';
import { z } from 'zod';
import { lazyPackage } from '../../lib/lazy-package';
import { SELF_SIGNED_SUBJECT, type GoogleCredentialsConfig } from './credentials-config';

/** google-auth-library, loaded when a Google service is first configured. */
export const googleAuthLibrary = lazyPackage<typeof import('google-auth-library')>('google-auth-library');

/** Google's token endpoint, where google-auth-library sends every service account's assertion. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

function secureOrLoopback(uri: string): boolean {
  const url = new URL(uri);
  return url.protocol === 'https:' || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

const serviceAccountKeySchema = z.looseObject({
  client_email: z.string().min(1),
  private_key: z.string().min(1),
  private_key_id: z.string().optional(),
  /** Where the signed JWT is exchanged for an access token; Google's keys name GOOGLE_TOKEN_URL. */
  token_uri: z
    .url()
    .refine(secureOrLoopback, 'must be https (or http to this machine, for a local test server)')
    .optional(),
});

type ServiceAccountKey = z.infer<typeof serviceAccountKeySchema>;

/** Parses a service account key, naming what is missing without echoing the key. */
export function parseServiceAccountKey(text: string, origin: string): ServiceAccountKey {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${origin}: not JSON (a service account key is the JSON file Google lets you download)`);
  }
  const parsed = serviceAccountKeySchema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.')).join(', ');
    throw new Error(`${origin}: not a service account key (missing or invalid: ${fields})`);
  }
  return parsed.data;
}

/**
 * Sends the client's token exchange to `tokenUri`: google-auth-library posts every assertion to
 * GOOGLE_TOKEN_URL whatever the key says, and a key may name another endpoint (a private or test one).
 */
function exchangeAt(client: AuthClient, tokenUri: string | undefined): void {
  if (!tokenUri || tokenUri === GOOGLE_TOKEN_URL) return;
  client.transporter.interceptors.request.add({
    resolved: async (options) => {
      if (String(options.url) === GOOGLE_TOKEN_URL) options.url = new URL(tokenUri);
      return options;
    },
  });
}

/**
 * An auth client for the given OAuth scopes, built from the config (see googleCredentialsSchema).
 * Its access tokens renew themselves (google-auth-library exchanges a fresh JWT when the token is
 * within five minutes of expiry).
 */
export async function googleAuthClient(
  config: GoogleCredentialsConfig,
  scopes: readonly string[],
  readKeyFile: (path: string) => Promise<string> = async (path) =>
    (await import('node:fs/promises')).readFile(path, 'utf8'),
): Promise<AuthClient> {
  // A subject added at run time (google-tasks' perUser: delegate) gets the same refusal as in config.
  if (config.selfSignedJwt && config.subject) throw new Error(`google.credentials: ${SELF_SIGNED_SUBJECT}`);
  const text = config.serviceAccountJson ?? (config.keyFile ? await readKeyFile(config.keyFile) : undefined);
  if (text === undefined) return applicationDefault(config, scopes);
  const key = parseServiceAccountKey(
    text,
    config.keyFile ? `google.keyFile ${config.keyFile}` : 'google.serviceAccountJson',
  );
  const client = new (googleAuthLibrary().JWT)({
    email: key.client_email,
    key: key.private_key,
    scopes: [...scopes],
    ...(key.private_key_id ? { keyId: key.private_key_id } : {}),
    ...(config.subject ? { subject: config.subject } : {}),
  });
  if (config.selfSignedJwt) client.useJWTAccessWithScope = true;
  else exchangeAt(client, key.token_uri);
  return client;
}

/**
 * Application default credentials: GoogleAuth reads GOOGLE_APPLICATION_CREDENTIALS (then gcloud's
 * file, then the metadata server). A service account key found there gets what a configured key
 * gets: its token_uri, the subject, selfSignedJwt.
 */
async function applicationDefault(
  config: GoogleCredentialsConfig,
  scopes: readonly string[],
): Promise<AuthClient> {
  const { GoogleAuth, JWT } = googleAuthLibrary();
  const auth: GoogleAuth = new GoogleAuth({
    scopes: [...scopes],
    ...(config.subject ? { clientOptions: { subject: config.subject } } : {}),
  });
  const client = await auth.getClient();
  const json = auth.jsonContent as { token_uri?: unknown } | null;
  if (!(client instanceof JWT)) {
    if (config.subject) {
      throw new Error(
        'google.credentials.subject: domain-wide delegation needs a service account key; the application default credentials are not one',
      );
    }
    return client;
  }
  const jwt: JWT = client;
  if (config.selfSignedJwt) jwt.useJWTAccessWithScope = true;
  else if (json) {
    const tokenUri = serviceAccountKeySchema.shape.token_uri.safeParse(json.token_uri);
    if (!tokenUri.success) {
      throw new Error('application default credentials: token_uri must be https (or http to this machine)');
    }
    exchangeAt(jwt, tokenUri.data);
  }
  return jwt;
}

/**
 * Whether the credentials act for a person, who may own Drive files, rather than for a service
 * account, which owns none: domain-wide delegation (`subject`), or a user's own application default
 * credentials (gcloud's login).
 */
export function actsForPerson(config: GoogleCredentialsConfig, client: AuthClient): boolean {
  return config.subject !== undefined || client instanceof googleAuthLibrary().UserRefreshClient;
}
