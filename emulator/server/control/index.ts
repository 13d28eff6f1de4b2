// Every control endpoint under /_emulator/ (webhook registration and call traffic of later issues add
// their registrations here).
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context';
import { emulatorRouteTemplates } from '../routes';
import { registerAuthControl } from './auth';
import { registerClockControl } from './clock';
import { controlRoute } from './control-route';
import { registerDataControl } from './data';
import { registerFaultControl } from './faults';
import { registerSimulatorControl } from './simulator';
import { registerWebhookControl } from './webhooks';

/** Registers the control endpoints on the server. */
export function registerControlRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  controlRoute(app, 'GET', '/routes', () => ({ body: { routes: emulatorRouteTemplates() } }));
  controlRoute(app, 'GET', '/info', () => {
    const { email, password, user_id, api_key, customer_id } = ctx.store.admin;
    return {
      body: {
        seed: ctx.seeded.seed,
        cdrs: ctx.seeded.cdrs,
        clock: ctx.seeded.now !== undefined ? 'fixed' : 'real-time',
        now: ctx.clock.nowString(),
        admin: { email, password, user_id, api_key, customer_id },
        customers: ctx.store.customers,
      },
    };
  });
  controlRoute(app, 'GET', '/stats', () => ({ body: ctx.stats.snapshot() }));
  controlRoute(app, 'GET', '/requests', () => ({ body: { requests: ctx.stats.requests() } }));
  controlRoute(app, 'POST', '/stats/reset', () => {
    ctx.stats.reset();
    return { body: ctx.stats.snapshot() };
  });
  registerClockControl(app, ctx);
  registerDataControl(app, ctx);
  registerFaultControl(app, ctx);
  registerAuthControl(app, ctx);
  registerSimulatorControl(app, ctx, registerWebhookControl(app, ctx));
}
