// Salesforce's OAuth token endpoint ({loginUrl}/services/oauth2/token) for the two server-side grants
// callsync uses: the JWT bearer flow (a JWT signed with the connected app's certificate key) and the
// refresh token flow. Answers are parsed by their schema; errors name Salesforce's error code and
// description, never a token or the assertion.
import { createPrivateKey, sign } from 'node:crypto';
import { z } from 'zod';
import { CrmError } from '../crm/errors';
import { DESTINATION } from './errors';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Salesforce takes an assertion that expires within 3 minutes. */
const ASSERTION_SECONDS = 170;

const sessionSchema = z.looseObject({
  access_token: z.string().min(1),
  instance_url: z.url().optional(),
  /** Present with refresh token rotation: the refresh token to use next time. */
  refresh_token: z.string().min(1).optional(),
});
const errorSchema = z.looseObject({ error: z.string(), error_description: z.string().optional() });

/** A session from the token endpoint. */
export interface SalesforceSession {
  accessToken: string;
  /** The new refresh token when the app rotates them. */
  refreshToken?: string;
}

/** Sends one grant; `fetchImpl` is for tests. */
async function tokenRequest(
  loginUrl: string,
  form: Record<string, string>,
  grant: string,
  /** What to do about a refusal (400/401), appended to the error. */
  refusedHint: string,
  fetchImpl: typeof fetch = fetch,
): Promise<SalesforceSession> {
  const url = `${loginUrl.replace(/\/$/, '')}/services/oauth2/token`;
  let res: Response;
  try {
    res = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    throw new CrmError({
      destination: DESTINATION,
      message: `Salesforce ${grant}: ${url} unreachable (${err instanceof Error ? err.message : String(err)})`,
      retryable: true,
    });
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const e = errorSchema.safeParse(body);
    const reason = e.success ? `${e.data.error}: ${e.data.error_description ?? ''}` : `HTTP ${res.status}`;
    throw new CrmError({
      destination: DESTINATION,
      status: res.status === 400 ? 401 : res.status,
      code: e.success ? e.data.error : undefined,
      message: `Salesforce refused the ${grant} (${reason})${res.status < 500 && res.status !== 429 ? `: ${refusedHint}` : ''}`,
      retryable: res.status === 429 || res.status >= 500,
    });
  }
  const parsed = sessionSchema.safeParse(body);
  if (!parsed.success) {
    throw new CrmError({
      destination: DESTINATION,
      message: `Salesforce ${grant}: the token endpoint answered without an access_token`,
      retryable: true,
    });
  }
  return {
    accessToken: parsed.data.access_token,
    ...(parsed.data.refresh_token ? { refreshToken: parsed.data.refresh_token } : {}),
  };
}

/** The JWT bearer flow's assertion: iss = client id, sub = username, aud = login URL, exp < 3 min. */
export function jwtBearerAssertion(
  input: { clientId: string; username: string; loginUrl: string; privateKey: string },
  now = Date.now(),
): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const claims = {
    iss: input.clientId,
    sub: input.username,
    aud: input.loginUrl.replace(/\/$/, ''),
    exp: Math.floor(now / 1000) + ASSERTION_SECONDS,
  };
  const unsigned = `${b64({ alg: 'RS256' })}.${b64(claims)}`;
  const signature = sign('RSA-SHA256', Buffer.from(unsigned), createPrivateKey(input.privateKey));
  return `${unsigned}.${signature.toString('base64url')}`;
}

/** A new session by the JWT bearer flow (no refresh token comes with it). */
export function jwtBearerGrant(
  input: { clientId: string; username: string; loginUrl: string; privateKey: string },
  fetchImpl?: typeof fetch,
): Promise<SalesforceSession> {
  return tokenRequest(
    input.loginUrl,
    { grant_type: JWT_BEARER, assertion: jwtBearerAssertion(input) },
    'JWT bearer grant',
    "check auth.clientId, auth.username (pre-approved for the connected app) and that the app's certificate matches the private key",
    fetchImpl,
  );
}

/** A new session by the refresh token flow (and, with rotation, the next refresh token). */
export function refreshTokenGrant(
  input: { clientId: string; clientSecret?: string | undefined; loginUrl: string },
  refreshToken: string,
  fetchImpl?: typeof fetch,
): Promise<SalesforceSession> {
  return tokenRequest(
    input.loginUrl,
    {
      grant_type: 'refresh_token',
      client_id: input.clientId,
      refresh_token: refreshToken,
      ...(input.clientSecret ? { client_secret: input.clientSecret } : {}),
    },
    'refresh token grant',
    "authorise callsync's connected app again and put the new refresh token in auth.refreshToken",
    fetchImpl,
  );
}
