// Where the Salesforce connector's session (access token) comes from, and how it is renewed when
// Salesforce answers 401 INVALID_SESSION_ID (its token answers carry no expiry; the org's session
// timeout ends a session): a configured access token alone cannot be renewed; the JWT bearer flow signs
// a new assertion; the refresh token flow goes through the vendor token store, which keeps the current
// (rotated) refresh token in PostgreSQL and lets one worker at a time refresh (crm/renewing-token.ts).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { RenewingToken } from '../crm/renewing-token';
import type { TokenStore, VendorTokenKey } from '../crm/vendor-token-store';
import { salesforceAuthOf, type SalesforceAuth, type SalesforceConfig } from './config';
import { DESTINATION } from './errors';
import { jwtBearerGrant, refreshTokenGrant } from './oauth-grants';

/** The session the connector sends, and its renewal. */
export interface SessionSource {
  /** The session to send now (a renewal first when the last one was refused). */
  current(): Promise<string>;
  /** Salesforce refused `token`: returns true when current() will give another one to retry with. */
  invalidate(token: string): boolean;
}

/** Sessions are treated as good until Salesforce refuses one (its answers give no lifetime). */
const UNTIL_REFUSED_MS = 24 * 3600_000;

/** A configured access token: used as is, never renewed. */
class FixedSession implements SessionSource {
  constructor(private readonly token: string) {}
  current(): Promise<string> {
    return Promise.resolve(this.token);
  }
  invalidate(): boolean {
    return false;
  }
}

/** The JWT bearer flow: a new assertion, hence a new session, each time the last one is refused. */
class JwtBearerSession implements SessionSource {
  private token: string | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly auth: Extract<SalesforceAuth, { type: 'jwt' }>,
    private readonly onFailed: () => void,
  ) {}

  current(): Promise<string> {
    if (this.token) return Promise.resolve(this.token);
    this.pending ??= this.login().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  invalidate(token: string): boolean {
    if (this.token === token) this.token = undefined;
    return true;
  }

  private async login(): Promise<string> {
    const { clientId, username, loginUrl } = this.auth;
    try {
      const privateKey = this.auth.privateKey ?? (await readFile(this.auth.privateKeyFile!, 'utf8'));
      const session = await jwtBearerGrant({ clientId, username, loginUrl, privateKey });
      this.token = session.accessToken;
      return session.accessToken;
    } catch (err) {
      this.onFailed();
      throw err;
    }
  }
}

/** The store key of a refresh-token install: the org, the app, and which authorisation seeded it. */
export function refreshTokenKey(
  instanceUrl: string,
  clientId: string,
  seedRefreshToken: string,
): VendorTokenKey {
  // A new authorisation (a new refresh token in config) starts a new row instead of resurrecting the
  // old one; the digest names the seed without revealing it.
  const seed = createHash('sha256').update(seedRefreshToken).digest('hex').slice(0, 16);
  return { vendor: DESTINATION, identity: `${instanceUrl.replace(/\/$/, '')}#${clientId}#${seed}` };
}

/** The refresh token flow through the shared token store (rotation persisted before use). */
class RefreshTokenSession<S> implements SessionSource {
  private readonly renewing: RenewingToken<S>;

  constructor(
    auth: Extract<SalesforceAuth, { type: 'refresh-token' }>,
    instanceUrl: string,
    store: TokenStore<S>,
    initialAccessToken: string | undefined,
    onFailed: () => void,
  ) {
    this.renewing = new RenewingToken({
      store,
      key: refreshTokenKey(instanceUrl, auth.clientId, auth.refreshToken),
      skewMs: 0,
      onRefreshFailed: onFailed,
      refresh: async (refreshToken) => {
        const session = await refreshTokenGrant(auth, refreshToken);
        return {
          accessToken: session.accessToken,
          refreshToken: session.refreshToken ?? null,
          expiresAt: new Date(Date.now() + UNTIL_REFUSED_MS),
        };
      },
      seed: () => ({
        accessToken: initialAccessToken ?? '',
        refreshToken: auth.refreshToken,
        // A configured access token is used until refused; without one the first use refreshes.
        expiresAt: new Date(initialAccessToken ? Date.now() + UNTIL_REFUSED_MS : 0),
        details: {},
      }),
    });
  }

  current(): Promise<string> {
    return this.renewing.current();
  }

  invalidate(token: string): boolean {
    this.renewing.invalidate(token);
    return true;
  }
}

/** Where the refresh token flow keeps its tokens; built only when that flow is configured. */
export type TokenStoreFactory = () => TokenStore<unknown>;

/** The session source a configuration asks for. */
export function sessionSource(
  config: SalesforceConfig,
  deps: { tokenStore?: TokenStoreFactory | undefined; onRefreshFailed?: (() => void) | undefined },
): SessionSource {
  const auth = salesforceAuthOf(config);
  const onFailed = deps.onRefreshFailed ?? (() => undefined);
  if (auth?.type === 'jwt') return new JwtBearerSession(auth, onFailed);
  if (auth?.type === 'refresh-token') {
    if (!deps.tokenStore) {
      throw new Error(
        'salesforce auth refresh-token: no token store (PostgreSQL) was given to the connector',
      );
    }
    return new RefreshTokenSession(auth, config.instanceUrl, deps.tokenStore(), config.accessToken, onFailed);
  }
  return new FixedSession(config.accessToken ?? '');
}
