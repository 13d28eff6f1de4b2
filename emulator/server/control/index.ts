// Every control endpoint under /_emulator/ (webhook registration and call traffic of later issues add
// their registrations here).
import type { FastifyInstance } from 'fastify';
import type { CallSimulator } from '../../simulator/simulator';
import type { WebhookDelivery } from '../../webhooks/delivery';
import type { EmulatorContext } from '../context';
import { emulatorRouteTemplates } from '../routes';
import { registerApiControl } from './api';
import { registerAuthControl } from './auth';
import { registerClockControl } from './clock';
import { controlRoute } from './control-route';
import { registerDataControl } from './data';
import { registerFaultControl } from './faults';
import { registerSimulatorControl } from './simulator';
import { registerWebhookControl } from './webhooks';

/** The stateful parts behind the control endpoints, which the in-process API hands out too. */
export interface EmulatorControls {
  simulator: CallSimulator;
  webhooks: WebhookDelivery;
}

/** Registers the control endpoints on the server. */
export function registerControlRoutes(app: FastifyInstance, ctx: EmulatorContext): EmulatorControls {
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
  registerApiControl(app, ctx);
  const webhooks = registerWebhookControl(app, ctx);
  const simulator = registerSimulatorControl(app, ctx, webhooks);
  return { simulator, webhooks };
}
