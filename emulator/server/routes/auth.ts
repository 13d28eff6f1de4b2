// Authentication module: login (with two-factor e-mail codes), logout, keep-alive, confirmation and
// password reset, and the access-control roles.
import {
  confirmationBody,
  login2faBody,
  loginBody,
  passwordBody,
  resetBody,
} from '../../../connectors/platform/schemas';
import type { Account } from '../../store';
import type { EmulatorContext } from '../context';
import { getRoute, listRoute } from '../crud';
import { badRequest, HttpError } from '../http-error';
import { parseRouteSpec, type RouteSpec } from '../paths';
import { json, message } from '../responses';
import type { ApiCall, ApiResponse, AuthedCall, RouteDef } from '../route-def';
import { validate } from '../validation';

function publicRoute(spec: RouteSpec, handle: (call: ApiCall) => ApiResponse): RouteDef {
  return { ...parseRouteSpec(spec), auth: 'none', handle };
}

function tokenAnswer(ctx: EmulatorContext, account: Account): ApiResponse {
  const session = ctx.sessions.create(account.user_id, account.customer_id);
  return json(200, { message: 'Login successful', user_token: session.token, user_id: account.user_id });
}

function login(call: ApiCall): ApiResponse {
  const body = validate(loginBody, call.body);
  const account = call.ctx.account(body.email);
  if (!account || account.password !== body.password) {
    throw badRequest('Invalid e-mail and/or password', ['email: invalid e-mail and/or password']);
  }
  if (account.two_factor === 'E') {
    const { nonce } = call.ctx.codes.issueTwoFactor(account.email);
    return json(200, { message: 'Two-factor authentication code sent', two_factor_required: true, nonce });
  }
  return tokenAnswer(call.ctx, account);
}

function login2fa(call: ApiCall): ApiResponse {
  const body = validate(login2faBody, call.body);
  const email = call.ctx.codes.redeemTwoFactor(body.code.trim(), body.nonce.trim());
  const account = email === undefined ? undefined : call.ctx.account(email);
  if (!account) throw badRequest('Invalid code and/or nonce', ['code: invalid code and/or nonce']);
  return tokenAnswer(call.ctx, account);
}

function logout(call: AuthedCall): ApiResponse {
  const { token } = call.identity;
  // An API key has no session to destroy; the request itself was authenticated, so it succeeds.
  if (token !== undefined && !call.ctx.sessions.destroy(token)) {
    throw new HttpError(401, `Token "${token}" does not exist`);
  }
  return message('Logged out');
}

function knownAccount(call: ApiCall, email: string): Account {
  const account = call.ctx.account(email);
  if (!account) throw badRequest('Unknown e-mail address', ['email: no account uses this e-mail address']);
  return account;
}

/** Routes of the authentication module. */
export function authRoutes(): RouteDef[] {
  return [
    publicRoute('POST /login', login),
    publicRoute('POST /login2fa', login2fa),
    { ...parseRouteSpec('POST /logout'), auth: 'required', handle: logout },
    // Optional authentication: a valid token is refreshed, an invalid one is 401, none is fine.
    {
      ...parseRouteSpec('GET /ping'),
      auth: 'optional',
      handle: () => message('pong'),
    },
    publicRoute('POST /confirmation', (call) => {
      knownAccount(call, validate(confirmationBody, call.body).email);
      return message('Confirmation e-mail sent');
    }),
    publicRoute('POST /password', (call) => {
      const account = knownAccount(call, validate(passwordBody, call.body).email);
      call.ctx.codes.issueReset(account.email);
      return message('Password reset e-mail sent');
    }),
    publicRoute('POST /reset', (call) => {
      const body = validate(resetBody, call.body);
      const email = call.ctx.codes.redeemReset(body.token.trim());
      const account = email === undefined ? undefined : call.ctx.account(email);
      if (!account) throw badRequest('Invalid token', ['token: unknown or expired reset token']);
      call.ctx.store.accounts.set(account.email, { ...account, password: body.password });
      return message('Password changed');
    }),
    listRoute('GET /aclroles', 'aclroles'),
    getRoute('GET /aclroles/{id}', 'aclroles'),
  ];
}
