// Dataverse access tokens for an application user: MSAL's client credentials grant against the
// tenant's Microsoft Entra authority. MSAL keeps the token in memory and gets a new one before it
// expires (access tokens live 60-90 minutes:
// https://learn.microsoft.com/entra/identity-platform/access-tokens#token-lifetime); a token Dataverse
// refuses anyway (401) is dropped, and the next request asks Entra for a new one. There is no refresh
// token in this grant (https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow),
// so nothing needs keeping across workers: each worker signs in on its own.
//
// The authority's metadata is given to MSAL (knownAuthorities, authorityMetadata,
// cloudDiscoveryMetadata, as https://learn.microsoft.com/entra/msal/javascript/node/configuration
// documents), so it signs in with one request to the token endpoint and no discovery requests.
import type { ConfidentialClientApplication } from '@azure/msal-node';
import { lazyPackage } from '../../lib/lazy-package';
import { CrmError } from '../crm/errors';
import { environmentUrl, type DynamicsConfig } from './config';
import { DESTINATION } from './errors';

const msal = lazyPackage<typeof import('@azure/msal-node')>('@azure/msal-node');

/** MSAL's configuration for the tenant's authority, with its metadata so no discovery runs. */
export function msalConfiguration(config: DynamicsConfig) {
  const host = new URL(config.authorityHost).host;
  const authority = `${config.authorityHost.replace(/\/+$/, '')}/${config.tenantId}`;
  return {
    auth: {
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      authority,
      knownAuthorities: [host],
      authorityMetadata: JSON.stringify({
        token_endpoint: `${authority}/oauth2/v2.0/token`,
        authorization_endpoint: `${authority}/oauth2/v2.0/authorize`,
        issuer: `${authority}/v2.0`,
        jwks_uri: `${authority}/discovery/v2.0/keys`,
        end_session_endpoint: `${authority}/oauth2/v2.0/logout`,
      }),
      cloudDiscoveryMetadata: JSON.stringify({
        tenant_discovery_endpoint: `${authority}/v2.0/.well-known/openid-configuration`,
        'api-version': '1.1',
        metadata: [{ preferred_network: host, preferred_cache: host, aliases: [host] }],
      }),
    },
  };
}

/** The access tokens of one environment's application user. */
export class DynamicsAccessToken {
  private app: ConfidentialClientApplication | undefined;
  private readonly scopes: string[];
  /** A token Dataverse refused: the next current() skips MSAL's cache. */
  private refused: string | undefined;
  /** The token handed out last. */
  private last: string | undefined;

  constructor(private readonly config: DynamicsConfig) {
    // The environment's resource with its application permissions (user_impersonation is for users).
    this.scopes = [`${environmentUrl(config)}/.default`];
  }

  /** A token MSAL considers valid (its cache), or a new one when Dataverse refused the cached one. */
  async current(): Promise<string> {
    this.app ??= new (msal().ConfidentialClientApplication)(msalConfiguration(this.config));
    const skipCache = this.refused !== undefined && this.refused === this.last;
    let result;
    try {
      result = await this.app.acquireTokenByClientCredential({ scopes: this.scopes, skipCache });
    } catch (err) {
      throw signInError(err);
    }
    if (!result?.accessToken) throw signInError(new Error('no access token in the answer'));
    this.refused = undefined;
    this.last = result.accessToken;
    return result.accessToken;
  }

  /**
   * Dataverse refused the token last handed out (401): the next current() asks Entra for a new one.
   * Should another request have renewed it meanwhile, that costs one token request more, no failure.
   */
  invalidate(): void {
    this.refused = this.last;
  }
}

/** MSAL's failure as a CrmError: the AADSTS code and text (never the secret); network errors retryable. */
function signInError(err: unknown): CrmError {
  const e = err as { errorCode?: unknown; errorMessage?: unknown; message?: unknown };
  const code = typeof e.errorCode === 'string' ? e.errorCode : undefined;
  const text = typeof e.errorMessage === 'string' ? e.errorMessage : String(e.message ?? err);
  // invalid_client, unauthorized_client, invalid_scope…: a retry cannot fix the app registration.
  const refused = code !== undefined && /^(invalid_|unauthorized_|access_denied)/.test(code);
  return new CrmError({
    destination: DESTINATION,
    code: code ?? 'SIGN_IN_FAILED',
    message: `Microsoft Entra sign-in for the Dataverse application user failed: ${text.split('\n')[0]}`,
    retryable: !refused,
  });
}
