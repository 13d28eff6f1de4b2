// Reads the caller's credentials: the spec's `Authorization: Basic base64(user_id:token_or_api_key)`, and the
// bare `X-Auth-Token: <token>` that live clients send (a Bearer token is accepted too).
import type { IncomingHttpHeaders } from 'node:http';
import type { Account } from '../../store';
import { HttpError } from '../http-error';
import type { Identity } from '../route-def';
import type { SessionRegistry } from './sessions';

/** A presented credential: a session token or an API key, with the user id when Basic carried one. */
export interface Credential {
  userId?: string;
  secret: string;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The credential of a request, undefined when it carries none; 401 for a malformed Authorization header. */
export function readCredential(headers: IncomingHttpHeaders): Credential | undefined {
  const authorization = header(headers, 'authorization')?.trim();
  if (authorization) {
    const [scheme = '', value = ''] = authorization.split(/\s+/, 2);
    if (scheme.toLowerCase() === 'basic') {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon <= 0 || colon === decoded.length - 1) {
        throw new HttpError(401, 'Invalid Authorization header', [
          'authorization: expected Basic base64(<user_id>:<token or API key>)',
        ]);
      }
      return { userId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
    }
    if (scheme.toLowerCase() === 'bearer' && value) return { secret: value };
    throw new HttpError(401, 'Invalid Authorization header', [
      'authorization: unsupported scheme, use Basic',
    ]);
  }
  const token = header(headers, 'x-auth-token')?.trim();
  return token ? { secret: token } : undefined;
}

/** 401 for a token the platform does not know; the message names it, as the platform's does. */
export function unknownToken(secret: string, reason?: string): HttpError {
  return new HttpError(401, `Token "${secret}" does not exist`, reason ? [`token: ${reason}`] : []);
}

/** 401 for a request without credentials. */
export function missingToken(): HttpError {
  return new HttpError(401, 'Authentication required', [
    'authorization: send Basic base64(<user_id>:<token or API key>) or X-Auth-Token',
  ]);
}

/** Resolves a credential to an identity: a live session token first, then an API key. Throws 401. */
export function authenticate(
  cred: Credential,
  sessions: SessionRegistry,
  accounts: ReadonlyMap<string, Account>,
  /** Named tokens minted through /apitokens, which authenticate like API keys. */
  mintedToken: (secret: string, userId: string | undefined) => Identity | undefined = () => undefined,
): Identity {
  const found = sessions.use(cred.secret);
  if (found.state === 'valid') {
    const { session } = found;
    if (cred.userId !== undefined && cred.userId !== String(session.user_id)) {
      throw unknownToken(cred.secret, `does not belong to user ${cred.userId}`);
    }
    return { user_id: session.user_id, customer_id: session.customer_id, token: session.token };
  }
  if (found.state === 'expired') throw unknownToken(cred.secret, 'expired after 15 minutes without requests');
  for (const account of accounts.values()) {
    if (
      account.api_key === cred.secret &&
      (cred.userId === undefined || cred.userId === String(account.user_id))
    ) {
      return { user_id: account.user_id, customer_id: account.customer_id };
    }
  }
  const minted = mintedToken(cred.secret, cred.userId);
  if (minted !== undefined) return minted;
  throw unknownToken(cred.secret);
}
