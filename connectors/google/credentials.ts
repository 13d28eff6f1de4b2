import type { AuthClient } from 'google-auth-library';
import { z } from 'zod';
import { secret } from '../../config/secret';
import { lazyPackage } from '../../lib/lazy-package';

/** google-auth-library, loaded when a Google service is first configured. */
export const googleAuthLibrary = lazyPackage<typeof import('google-auth-library')>('google-auth-library');

/**
 * How callsync authenticates to Google: a service account (key file, or its JSON in config) or,
 * with neither, application default credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud, metadata
 * server). Key material is never logged.
 */
export const googleCredentialsSchema = z
  .object({
    /** Path of a service account's JSON key file (or, the same, `serviceAccountJson: { "file": path }`). */
    keyFile: z.string().min(1).optional(),
    /** A service account's JSON key: a secret (`{ "env" }` or `{ "file" }`), no default. */
    serviceAccountJson: secret().optional(),
    /**
     * Sign access tokens locally (self-signed JWT with scopes, which Google's APIs accept) instead of
     * exchanging a JWT at oauth2.googleapis.com; tests use it against local servers.
     */
    selfSignedJwt: z.boolean().default(false),
    /** Impersonated user for domain-wide delegation (Workspace), e.g. whose Drive or Tasks to use. */
    subject: z.email().optional(),
  })
  .refine((c) => !(c.keyFile && c.serviceAccountJson), {
    message: 'give keyFile or serviceAccountJson, not both',
    path: ['serviceAccountJson'],
  });

export type GoogleCredentialsConfig = z.infer<typeof googleCredentialsSchema>;
export type GoogleCredentialsInput = z.input<typeof googleCredentialsSchema>;

const serviceAccountKeySchema = z.looseObject({
  client_email: z.string().min(1),
  private_key: z.string().min(1),
  private_key_id: z.string().optional(),
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

/** An auth client for the given OAuth scopes, built from the config (see googleCredentialsSchema). */
export async function googleAuthClient(
  config: GoogleCredentialsConfig,
  scopes: readonly string[],
  readKeyFile: (path: string) => Promise<string> = async (path) =>
    (await import('node:fs/promises')).readFile(path, 'utf8'),
): Promise<AuthClient> {
  const text = config.serviceAccountJson ?? (config.keyFile ? await readKeyFile(config.keyFile) : undefined);
  const { GoogleAuth, JWT } = googleAuthLibrary();
  if (text === undefined) return new GoogleAuth({ scopes: [...scopes] }).getClient();
  const key = parseServiceAccountKey(
    text,
    config.keyFile ? `google.keyFile ${config.keyFile}` : 'google.serviceAccountJson',
  );
  const client = new JWT({
    email: key.client_email,
    key: key.private_key,
    scopes: [...scopes],
    ...(key.private_key_id ? { keyId: key.private_key_id } : {}),
    ...(config.subject ? { subject: config.subject } : {}),
  });
  if (config.selfSignedJwt) client.useJWTAccessWithScope = true;
  return client;
}
