// A throwaway service account for tests: a fresh RSA key pair, the JSON key file Google would issue,
// and verification of the self-signed JWTs google-auth-library signs with it (selfSignedJwt: true).
import { createVerify, generateKeyPairSync } from 'node:crypto';

export interface TestServiceAccount {
  clientEmail: string;
  /** The service account key JSON, as `google.serviceAccountJson` takes it. */
  json: string;
  /** The claims of a bearer token this account signed, or null when the signature or expiry is bad. */
  verify(token: string): Record<string, unknown> | null;
}

/** Creates a service account key for tests (RS256, 2048 bits). */
export function testServiceAccount(
  clientEmail = 'callsync-test@callsync-test.iam.gserviceaccount.com',
): TestServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const json = JSON.stringify({
    type: 'service_account',
    project_id: 'callsync-test',
    private_key_id: 'test-key-1',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
    client_id: '100000000000000000001',
    token_uri: 'https://oauth2.googleapis.com/token',
  });
  return {
    clientEmail,
    json,
    verify(token) {
      const [h, p, s] = token.split('.');
      if (!h || !p || !s) return null;
      const ok = createVerify('RSA-SHA256')
        .update(`${h}.${p}`)
        .verify(publicKey, Buffer.from(s, 'base64url'));
      if (!ok) return null;
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
      if (typeof claims.exp === 'number' && claims.exp * 1000 < Date.now()) return null;
      return claims;
    },
  };
}
