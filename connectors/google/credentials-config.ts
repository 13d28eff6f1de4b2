// `google.credentials`: how callsync authenticates to Google, as config (schema only); the clients
// are made from it in connectors/google/credentials.ts.
import { z } from 'zod';
import { secret } from '../../config/secret';

/** Why selfSignedJwt and subject cannot go together (Google takes no delegation from self-signed JWTs). */
export const SELF_SIGNED_SUBJECT =
  'selfSignedJwt cannot be used with subject: Google accepts domain-wide delegation only through the ' +
  'token exchange, so the impersonation would be lost; drop selfSignedJwt (or subject)';

/**
 * How callsync authenticates to Google: a service account (key file, or its JSON in config) or,
 * with neither, application default credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud, metadata
 * server). A service account exchanges a signed JWT at its key's `token_uri` for access tokens that
 * last an hour and are renewed before they expire. Key material is never logged.
 */
export const googleCredentialsSchema = z
  .object({
    /** Path of a service account's JSON key file (or, the same, `serviceAccountJson: { "file": path }`). */
    keyFile: z.string().min(1).optional(),
    /** A service account's JSON key: a secret (`{ "env" }` or `{ "file" }`), no default. */
    serviceAccountJson: secret().optional(),
    /**
     * Sign access tokens locally (self-signed JWT with scopes, which Google's APIs accept) instead of
     * exchanging a JWT at the key's token_uri; cannot impersonate (no `subject`).
     */
    selfSignedJwt: z.boolean().default(false),
    /** Impersonated user for domain-wide delegation (Workspace), e.g. whose Drive or Tasks to use. */
    subject: z.email().optional(),
  })
  .refine((c) => !(c.keyFile && c.serviceAccountJson), {
    message: 'give keyFile or serviceAccountJson, not both',
    path: ['serviceAccountJson'],
  })
  .refine((c) => !(c.selfSignedJwt && c.subject), {
    message: SELF_SIGNED_SUBJECT,
    path: ['subject'],
  });

export type GoogleCredentialsConfig = z.infer<typeof googleCredentialsSchema>;
export type GoogleCredentialsInput = z.input<typeof googleCredentialsSchema>;
