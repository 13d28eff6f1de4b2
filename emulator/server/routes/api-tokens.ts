// Named API tokens (/apitokens), beyond the spec: the official CLI logs in with /login, lists its old
// token by name with a filter, deletes it with DELETE /apitokens/{token}, and mints a new one with
// POST /apitokens {name, expiry}, reading data.token. A minted token authenticates like an API key
// until it expires or is deleted. Name and user are unique together.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { formatDateTime, type Row } from '../../store';
import { checkQueryProperties, parseCollectionQuery } from '../collection-query';
import { HttpError, notFound } from '../http-error';
import { parseRouteSpec, type RouteSpec } from '../paths';
import { collection, noContent, single } from '../responses';
import type { AuthedCall, RouteDef } from '../route-def';
import { validate } from '../validation';

const EXPIRY_PROBLEM = 'must be a number of seconds or a date, YYYY-MM-DD[ HH:MM:SS]';

const createTokenBody = z.looseObject({
  name: z
    .string({ error: 'must be a string' })
    .regex(/\S/, 'must not be empty')
    .max(100, 'at most 100 characters'),
  /**
   * Seconds from now, as the vendor's API documentation and the official CLI send it (2592000: 30 days,
   * VoIPstudio/cli-client src/auth.js CLI_TOKEN_EXPIRY_SECONDS), or an expiry date (`YYYY-MM-DD` or
   * `YYYY-MM-DD HH:MM:SS`, UTC); absent: never.
   */
  expiry: z
    .union(
      [
        z.number().int(EXPIRY_PROBLEM).positive(EXPIRY_PROBLEM),
        z.string().regex(/^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/, EXPIRY_PROBLEM),
      ],
      { error: EXPIRY_PROBLEM },
    )
    .nullable()
    .optional(),
});

/** The expiry as a `YYYY-MM-DD HH:MM:SS` date (UTC), or null for a token that never expires. */
function expiryOf(raw: number | string | null | undefined, now: Date): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'number') return formatDateTime(new Date(now.getTime() + raw * 1000));
  const s = raw.replace('T', ' ');
  return s.length === 10 ? `${s} 23:59:59` : s.length === 16 ? `${s}:00` : s;
}

function authed(spec: RouteSpec, handle: (call: AuthedCall) => ReturnType<RouteDef['handle']>): RouteDef {
  return { ...parseRouteSpec(spec), auth: 'required', handle };
}

/** The caller's tokens (filter, sort and paging apply). */
function listTokens(call: AuthedCall): ReturnType<RouteDef['handle']> {
  const table = call.ctx.apiTokens.table;
  const q = parseCollectionQuery(call.query, call.ctx.api);
  checkQueryProperties(table, q);
  const mine = { property: 'user_id', operator: 'eq' as const, value: call.identity.user_id };
  return collection(table.query(call.identity.customer_id, { ...q, filter: [mine, ...q.filter] }));
}

function createToken(call: AuthedCall): ReturnType<RouteDef['handle']> {
  const body = validate(createTokenBody, call.body);
  const table = call.ctx.apiTokens.table;
  const taken = table.query(call.identity.customer_id, {
    page: 1,
    limit: 1,
    filter: [
      { property: 'user_id', operator: 'eq', value: call.identity.user_id },
      { property: 'name', operator: 'eq', value: body.name },
    ],
  });
  if (taken.total > 0)
    throw new HttpError(409, 'Conflict', [`name: a token named "${body.name}" exists for this user`]);
  const row: Omit<Row, 'id'> = {
    name: body.name,
    token: randomBytes(20).toString('hex'),
    user_id: call.identity.user_id,
    expiry: expiryOf(body.expiry, call.ctx.clock.now()),
    created_at: formatDateTime(call.ctx.clock.now()),
  };
  const created = table.insert(call.identity.customer_id, row);
  return single(created, `${call.baseUrl}/apitokens/${String(created.token)}`, 201);
}

function deleteToken(call: AuthedCall): ReturnType<RouteDef['handle']> {
  const table = call.ctx.apiTokens.table;
  const token = String(call.params.token ?? '');
  const { data } = table.query(call.identity.customer_id, {
    page: 1,
    limit: 1,
    filter: [
      { property: 'token', operator: 'eq', value: token },
      { property: 'user_id', operator: 'eq', value: call.identity.user_id },
    ],
  });
  const row = data[0];
  if (row === undefined) throw notFound('apitokens token');
  table.remove(row.id);
  return noContent();
}

/** GET, POST /apitokens and DELETE /apitokens/{token}. */
export function apiTokenRoutes(): RouteDef[] {
  return [
    authed('GET /apitokens', listTokens),
    authed('POST /apitokens', createToken),
    authed('DELETE /apitokens/{token}', deleteToken),
  ];
}
