// Authentication module: login exchanges, session ping/logout, password-reset e-mails, ACL roles.
import type { z } from 'zod';
import type { AuthSession } from '../core/auth';
import type { PlatformCore } from '../core/http-core';
import type { ListOptions } from '../core/pagination';
import {
  aclRoleSchema,
  confirmationBody,
  loginBody,
  login2faBody,
  loginResponseSchema,
  messageResponseSchema,
  passwordBody,
  resetBody,
} from '../schemas';
import { getOne, list, type Body, type CallOptions, type Id } from './common';

/** Authentication endpoints; the client's own session is `client.session`. */
export function createAuthResource(core: PlatformCore, session: AuthSession) {
  const unauthenticated = <S extends typeof loginResponseSchema | typeof messageResponseSchema>(
    template: string,
    body: unknown,
    schema: S,
    auth: 'none' | 'optional',
    o: CallOptions,
  ): Promise<z.output<S>> =>
    core.request({
      method: 'POST',
      template,
      body,
      auth,
      response: 'json',
      schema,
      envelope: 'auto',
      signal: o.signal,
    }) as Promise<z.output<S>>;

  return {
    /** POST /login: a token for these credentials, or a two-factor challenge. Leaves the client's session as is. */
    login: (body: Body<typeof loginBody>, o: CallOptions = {}) =>
      unauthenticated('/login', body, loginResponseSchema, 'none', o),
    /** POST /login2fa: exchanges a two-factor code and nonce for a token. Leaves the client's session as is. */
    login2fa: (body: Body<typeof login2faBody>, o: CallOptions = {}) =>
      unauthenticated('/login2fa', body, loginResponseSchema, 'none', o),
    /** POST /logout: ends the client's session token (a password session logs in again on the next request). */
    logout: () => session.logout(),
    /** GET /ping: keeps the session token alive. */
    ping: () => session.keepAlive(),
    /** POST /confirmation: resends the account confirmation e-mail. */
    resendConfirmation: (body: Body<typeof confirmationBody>, o: CallOptions = {}) =>
      unauthenticated('/confirmation', body, messageResponseSchema, 'optional', o),
    /** POST /password: starts a password reset (an e-mail with a token). */
    requestPasswordReset: (body: Body<typeof passwordBody>, o: CallOptions = {}) =>
      unauthenticated('/password', body, messageResponseSchema, 'optional', o),
    /** POST /reset: sets a new password with the token from the reset e-mail. */
    resetPassword: (body: Body<typeof resetBody>, o: CallOptions = {}) =>
      unauthenticated('/reset', body, messageResponseSchema, 'optional', o),
    aclRoles: {
      /** GET /aclroles */
      list: (options?: ListOptions) => list(core, '/aclroles', aclRoleSchema, options),
      /** GET /aclroles/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/aclroles/{id}', { id }, aclRoleSchema, o),
    },
  };
}

export type AuthResource = ReturnType<typeof createAuthResource>;
