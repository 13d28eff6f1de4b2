// Bearer-token checking for the local Google server. A service account with `selfSignedJwt` sends a
// JWT it signed itself (RS256, its private key): the server verifies the signature with the public
// key of the test's generated key pair, the expiry, and that scopes or an audience are claimed.
import { verify, type KeyObject } from 'node:crypto';
import { GoogleApiError } from './router';

/** Google's 401 for a request whose credentials are missing, expired or wrong. */
export const unauthenticated = (message: string) =>
  new GoogleApiError(401, 'UNAUTHENTICATED', message, 'authError', {
    'WWW-Authenticate': 'Bearer realm="https://accounts.google.com/"',
  });

/** Claims of a verified token. */
export interface TokenClaims {
  iss?: string;
  sub?: string;
  scope?: string;
  aud?: string;
  exp?: number;
}

function base64urlJson(part: string): unknown {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

/** Verifies the Authorization header; throws Google's 401 when it is missing or does not verify. */
export function checkBearer(header: string | undefined, publicKey: KeyObject, now = Date.now()): TokenClaims {
  const match = header ? /^Bearer (\S+)$/.exec(header) : null;
  if (!match?.[1]) {
    throw unauthenticated(
      'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
    );
  }
  const parts = match[1].split('.');
  if (parts.length !== 3) throw unauthenticated('Request had invalid authentication credentials.');
  const [head, payload, signature] = parts as [string, string, string];
  let header_: { alg?: string };
  let claims: TokenClaims;
  try {
    header_ = base64urlJson(head) as { alg?: string };
    claims = base64urlJson(payload) as TokenClaims;
  } catch {
    throw unauthenticated('Request had invalid authentication credentials.');
  }
  const ok =
    header_.alg === 'RS256' &&
    verify('RSA-SHA256', Buffer.from(`${head}.${payload}`), publicKey, Buffer.from(signature, 'base64url'));
  if (!ok) throw unauthenticated('Request had invalid authentication credentials (bad signature).');
  if (typeof claims.exp !== 'number' || claims.exp * 1000 < now) {
    throw unauthenticated('Request had invalid authentication credentials (token expired).');
  }
  if (!claims.scope && !claims.aud) throw unauthenticated('The token claims neither scopes nor an audience.');
  return claims;
}
