// Microsoft Entra ID's token endpoint as the Dynamics 365 test server plays it: the OAuth 2.0 client
// credentials grant (https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow):
// POST /{tenant}/oauth2/v2.0/token with client_id, client_secret, scope `<resource>/.default` and
// grant_type=client_credentials, answered with { token_type: "Bearer", expires_in, ext_expires_in,
// access_token } and no refresh token. Errors as that page shows them: 400/401 with
// { error, error_description: "AADSTS…", error_codes, timestamp, trace_id, correlation_id }.
// Access tokens live 60-90 minutes, a random lifetime in that range
// (https://learn.microsoft.com/entra/identity-platform/access-tokens#token-lifetime); tests set it shorter.
import { randomBytes, randomUUID } from 'node:crypto';

export interface IssuedToken {
  clientId: string;
  /** The resource (environment URL) the token is for: its audience. */
  audience: string;
  expiresAt: number;
}

export interface EntraSettings {
  tenantId: string;
  clientId: string;
  clientSecret: string;
}

export type TokenAnswer = { status: number; body: Record<string, unknown> };

export class FakeEntra {
  private readonly tokens = new Map<string, IssuedToken>();
  /** Lifetime of the tokens issued from now on (ms); default 60-90 minutes, random. */
  lifetimeMs: number | null = null;
  /** Tokens issued so far. */
  issued = 0;

  constructor(readonly settings: EntraSettings) {}

  /** Answers a token request (the form body already parsed). */
  token(tenant: string, form: URLSearchParams, now = Date.now()): TokenAnswer {
    const fail = (status: number, error: string, code: number, text: string): TokenAnswer => ({
      status,
      body: {
        error,
        error_description: `AADSTS${code}: ${text}`,
        error_codes: [code],
        timestamp: new Date(now).toISOString(),
        trace_id: randomUUID(),
        correlation_id: randomUUID(),
      },
    });
    if (tenant !== this.settings.tenantId)
      return fail(400, 'invalid_request', 90002, `Tenant '${tenant}' not found.`);
    if (form.get('grant_type') !== 'client_credentials')
      return fail(400, 'unsupported_grant_type', 70003, 'The app requested an unsupported grant type.');
    if (form.get('client_id') !== this.settings.clientId)
      return fail(400, 'unauthorized_client', 700016, 'Application was not found in the directory.');
    if (form.get('client_secret') !== this.settings.clientSecret)
      return fail(401, 'invalid_client', 7000215, 'Invalid client secret provided.');
    const scopes = (form.get('scope') ?? '').split(' ').filter((s) => s.endsWith('/.default'));
    if (scopes.length !== 1)
      return fail(
        400,
        'invalid_scope',
        1002012,
        'The provided value for scope is not valid. Client credential flows must have a scope value with /.default.',
      );
    const lifetime = this.lifetimeMs ?? (60 + Math.floor(Math.random() * 31)) * 60_000;
    const accessToken = randomBytes(24).toString('base64url');
    this.tokens.set(accessToken, {
      clientId: this.settings.clientId,
      audience: scopes[0]!.slice(0, -'/.default'.length),
      expiresAt: now + lifetime,
    });
    this.issued++;
    const seconds = Math.max(1, Math.floor(lifetime / 1000));
    return {
      status: 200,
      body: { token_type: 'Bearer', expires_in: seconds, ext_expires_in: seconds, access_token: accessToken },
    };
  }

  /** The token's grant, or why Dataverse refuses it. */
  check(accessToken: string, audience: string, now = Date.now()): IssuedToken | 'invalid' | 'expired' {
    const t = this.tokens.get(accessToken);
    if (!t || t.audience.replace(/\/+$/, '') !== audience) return 'invalid';
    return t.expiresAt <= now ? 'expired' : t;
  }

  /** Every token issued so far stops working now. */
  expireAll(now = Date.now()): void {
    for (const t of this.tokens.values()) t.expiresAt = Math.min(t.expiresAt, now);
  }
}
