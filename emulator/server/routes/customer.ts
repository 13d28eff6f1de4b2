// Customer module: users (and their nested collections), user groups and policies, queue groups,
// customer deletion and the caller's own metadata (/me).
import { createHash } from 'node:crypto';
import {
  bulkPatchUsersBody,
  createQueueGroupBody,
  createUserGroupBody,
  createUserGroupPolicyBody,
  patchQueueGroupBody,
  patchUserGroupBody,
  patchUserGroupPolicyBody,
} from '../../../connectors/platform/schemas';
import { TABLE_NAMES, type FilterCondition, type Row } from '../../store';
import {
  bulkPatchRoute,
  createRoute,
  deleteRoute,
  getRoute,
  listRoute,
  param,
  parentRow,
  patchRoute,
} from '../crud';
import { accessDenied, notFound } from '../http-error';
import { parseRouteSpec, type RouteSpec } from '../paths';
import { findOwned } from '../records';
import { bytes, noContent, single } from '../responses';
import type { ApiResponse, AuthedCall, RouteDef } from '../route-def';
import { userAudio } from './media-content';

function authed(spec: RouteSpec, handle: (call: AuthedCall) => ApiResponse): RouteDef {
  return { ...parseRouteSpec(spec), auth: 'required', handle };
}

const eq = (property: string, value: string | number): FilterCondition => ({
  property,
  operator: 'eq',
  value,
});

function me(call: AuthedCall): ApiResponse {
  const user = findOwned(call.ctx.table('users'), String(call.identity.user_id), call.identity);
  // The seeded customers carry balance, currency and defaults beyond the interface's {id, name}.
  const customer: Record<string, unknown> =
    call.ctx.store.customers.find((c) => c.id === call.identity.customer_id) ?? {};
  const text = (...values: unknown[]): string =>
    values.find((v): v is string => typeof v === 'string' && v !== '') ?? '';
  return single(
    {
      id: String(user.id),
      balance: typeof customer.balance === 'number' ? customer.balance : 0,
      cc: text(user.cc, customer.cc),
      cli: text(user.cli, customer.cli),
      currency_iso: text(customer.currency_iso, 'EUR'),
      is_root: user.is_root === true ? '1' : '0',
      language: text(user.language, customer.language),
      // Beyond the spec: what the official clients read from /me.
      email: text(user.email),
      first_name: text(user.first_name),
      last_name: text(user.last_name),
      customer_id: call.identity.customer_id,
      ...sipRegistration(user, text(customer.domain), call.ctx.store.admin.api_key),
    },
    `${call.baseUrl}/me`,
  );
}

/**
 * The SIP account the browser CTI connector registers with (it reads these from /me; the spec does
 * not show them). The password is derived, so the same seed gives the same one.
 */
function sipRegistration(user: Row, domain: string, salt: string): Record<string, string> {
  const sipDomain = `sip.${domain || 'emulator.local'}`;
  return {
    sip_username: `u${String(user.id)}`,
    sip_password: createHash('sha256')
      .update(`${salt}:sip:${String(user.id)}`)
      .digest('hex')
      .slice(0, 20),
    sip_domain: sipDomain,
    sip_proxy: `${sipDomain}:5060`,
    sip_wss_url: `wss://${sipDomain}:7443/ws`,
  };
}

/** Deletes the caller's own customer account: every row, login and session of it. */
function deleteCustomer(call: AuthedCall): ApiResponse {
  const raw = param(call, 'id');
  const customerId = call.identity.customer_id;
  if (raw !== String(customerId)) {
    if (call.ctx.store.customers.some((c) => String(c.id) === raw)) throw accessDenied();
    throw notFound(`customers ${raw}`);
  }
  for (const name of TABLE_NAMES) call.ctx.table(name).removeAll(customerId);
  const { accounts } = call.ctx.store;
  for (const [email, account] of accounts) if (account.customer_id === customerId) accounts.delete(email);
  call.ctx.sessions.expireAll((s) => s.customer_id === customerId);
  return noContent();
}

/** Deletes a user with its login and sessions. */
function deleteUser(call: AuthedCall): ApiResponse {
  const users = call.ctx.table('users');
  const user = findOwned(users, param(call, 'id'), call.identity);
  users.remove(user.id);
  const { accounts } = call.ctx.store;
  for (const [email, account] of accounts) if (account.user_id === user.id) accounts.delete(email);
  call.ctx.sessions.expireAll((s) => s.user_id === user.id);
  return noContent();
}

/** SMS between two numbers, either direction, of one user. */
function smsThread(call: AuthedCall, userId: number): FilterCondition[][] {
  const a = param(call, 'from');
  const b = param(call, 'to');
  return [
    [eq('user_id', userId), eq('from', a), eq('to', b)],
    [eq('user_id', userId), eq('from', b), eq('to', a)],
  ];
}

/** Routes of the customer module. */
export function customerRoutes(): RouteDef[] {
  const userId = (call: AuthedCall): number => Number(param(call, 'id'));
  return [
    listRoute('GET /contacts/{id}/cdrs', 'cdrs', {
      parent: 'contacts',
      scopeAnyOf: (call) => [
        [eq('src_id', `contact:${param(call, 'id')}`)],
        [eq('dst_id', `contact:${param(call, 'id')}`)],
      ],
    }),
    listRoute('GET /queuegroups', 'queuegroups'),
    createRoute('POST /queuegroups', 'queuegroups', createQueueGroupBody),
    getRoute('GET /queuegroups/{id}', 'queuegroups'),
    patchRoute('PATCH /queuegroups/{id}', 'queuegroups', patchQueueGroupBody),
    deleteRoute('DELETE /queuegroups/{id}', 'queuegroups'),
    authed('DELETE /customers/{id}', deleteCustomer),
    listRoute('GET /users', 'users'),
    bulkPatchRoute('PATCH /users', 'users', bulkPatchUsersBody),
    getRoute('GET /users/{id}', 'users'),
    authed('DELETE /users/{id}', deleteUser),
    authed('GET /me', me),
    listRoute('GET /users/{id}/contacts', 'contacts', {
      parent: 'users',
      scope: (call) => [eq('user_id', userId(call))],
    }),
    listRoute('GET /users/{id}/cdrs', 'cdrs', {
      parent: 'users',
      scope: (call) => [eq('user_id', userId(call))],
    }),
    listRoute('GET /users/{id}/chatmsgs', 'chatmsgs', {
      parent: 'users',
      scope: (call) => [eq('user_id', userId(call))],
    }),
    listRoute('GET /users/{id}/calls', 'calls', {
      parent: 'users',
      scopeAnyOf: (call) => [[eq('src_id', String(userId(call)))], [eq('dst_id', String(userId(call)))]],
    }),
    listRoute('GET /usergroups', 'usergroups'),
    createRoute('POST /usergroups', 'usergroups', createUserGroupBody),
    getRoute('GET /usergroups/{id}', 'usergroups'),
    patchRoute('PATCH /usergroups/{id}', 'usergroups', patchUserGroupBody),
    deleteRoute('DELETE /usergroups/{id}', 'usergroups'),
    listRoute('GET /usergrouppolicies', 'usergrouppolicies'),
    createRoute('POST /usergrouppolicies', 'usergrouppolicies', createUserGroupPolicyBody),
    getRoute('GET /usergrouppolicies/{id}', 'usergrouppolicies'),
    patchRoute('PATCH /usergrouppolicies/{id}', 'usergrouppolicies', patchUserGroupPolicyBody),
    deleteRoute('DELETE /usergrouppolicies/{id}', 'usergrouppolicies'),
    authed('GET /users/{id}/audio', (call) => {
      const user = parentRow(call, 'users', '/users/{id}/audio');
      return bytes('audio/mpeg', userAudio(user));
    }),
    authed('DELETE /users/{id}/audio', (call) => {
      parentRow(call, 'users', '/users/{id}/audio');
      return noContent();
    }),
    listRoute('GET /users/{id}/smsthreads/{from}/{to}', 'sms', {
      parent: 'users',
      scopeAnyOf: (call) => smsThread(call, userId(call)),
    }),
    listRoute('GET /users/{id}/sms/threads/{from}/{to}', 'sms', {
      parent: 'users',
      scopeAnyOf: (call) => smsThread(call, userId(call)),
    }),
  ];
}
