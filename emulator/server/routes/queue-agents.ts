// PATCH /queues/{id}, beyond the spec: the platform's queue agent tool has agents join and leave a
// queue by patching its `users` ({id, status}); the other fields of POST /queues may change too.
import { patchQueueBody } from '../../../connectors/platform/schemas';
import { param, storeWrite } from '../crud';
import { badRequest } from '../http-error';
import { parseRouteSpec } from '../paths';
import { findOwned } from '../records';
import { selfLink, single } from '../responses';
import type { AuthedCall, RouteDef } from '../route-def';
import { validate } from '../validation';

function patchQueue(call: AuthedCall): ReturnType<RouteDef['handle']> {
  const queues = call.ctx.table('queues');
  const row = findOwned(queues, param(call, 'id'), call.identity);
  const body = validate(patchQueueBody, call.body);
  // Every member must be a user of the queue's own account.
  const unknown = (body.users ?? []).flatMap((u, i) => {
    const user = call.ctx.table('users').get(Number(u.id));
    return user?.customerId === call.identity.customer_id
      ? []
      : [`users[${i}].id: no user ${String(u.id)} in this account`];
  });
  if (unknown.length > 0) throw badRequest('Validation failed', unknown);
  const patch = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const updated = storeWrite(() => queues.update(row.id, patch)) ?? row;
  return single(updated, selfLink(call.baseUrl, '/queues', updated));
}

/** PATCH /queues/{id}. */
export function queueAgentRoutes(): RouteDef[] {
  return [{ ...parseRouteSpec('PATCH /queues/{id}'), auth: 'required', handle: patchQueue }];
}
