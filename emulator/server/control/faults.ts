// Fault control: POST/GET/DELETE /_emulator/faults and DELETE /_emulator/faults/{id}.
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context';
import { faultInputSchema } from '../faults';
import { badRequest, notFound } from '../http-error';
import { emulatorRouteTemplates } from '../routes';
import { validate } from '../validation';
import { controlRoute, pathParam } from './control-route';

/** Route selectors a fault may name: '*', 'METHOD /template' or '/template'. */
function knownRoutes(): Set<string> {
  const keys = emulatorRouteTemplates();
  return new Set(['*', ...keys, ...keys.map((k) => k.slice(k.indexOf(' ') + 1))]);
}

/** Registers the fault control endpoints. */
export function registerFaultControl(app: FastifyInstance, ctx: EmulatorContext): void {
  const routes = knownRoutes();
  controlRoute(app, 'POST', '/faults', (req) => {
    const input = validate(faultInputSchema, req.body);
    if (!routes.has(input.route)) {
      throw badRequest('Validation failed', [
        "route: must be '*', 'METHOD /template' or '/template' of a served route (see GET /_emulator/routes)",
      ]);
    }
    return { status: 201, body: ctx.faults.add(input) };
  });
  controlRoute(app, 'GET', '/faults', () => ({ body: { faults: ctx.faults.list() } }));
  controlRoute(app, 'DELETE', '/faults', () => ({ body: { cleared: ctx.faults.clear() } }));
  controlRoute(app, 'DELETE', '/faults/:id', (req) => {
    const id = pathParam(req, 'id');
    if (!/^\d+$/.test(id) || !ctx.faults.remove(Number(id))) throw notFound(`fault ${id}`);
    return {};
  });
}
