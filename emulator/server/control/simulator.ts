// Call simulator control: start and stop call traffic, read its counters, place one call of a given
// scenario now (tests use this for determinism), send one inbound SMS, and read the ledger (ground truth).
import type { FastifyInstance } from 'fastify';
import { formatEpoch } from '../../data/calendar';
import { CallSimulator } from '../../simulator/simulator';
import { placeCallBody, sendSmsBody, simulatorConfigBody } from '../../simulator/simulator-config';
import type { WebhookDelivery } from '../../webhooks/delivery';
import type { EmulatorContext } from '../context';
import { badRequest } from '../http-error';
import { validate } from '../validation';
import { controlRoute } from './control-route';

/** Runs a simulator operation, turning its input errors ("field: why") into 400s. */
function guarded<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/^[a-z_]+: /.test(message)) throw badRequest('Validation failed', [message]);
    throw err;
  }
}

/** Registers /_emulator/simulator…; events go through the webhook delivery. */
export function registerSimulatorControl(
  app: FastifyInstance,
  ctx: EmulatorContext,
  delivery: WebhookDelivery,
): CallSimulator {
  const simulator = new CallSimulator(
    () => ctx.store,
    (customerId, event) => {
      delivery.dispatch(customerId, event);
    },
    (err, what) => ctx.logger.warn({ err, what }, 'call simulator step failed'),
    ctx.audio,
  );
  const unsubscribe = ctx.onStoreReplaced((store) => simulator.storeReplaced(store));
  app.addHook('onClose', async () => {
    unsubscribe();
    simulator.close();
  });

  controlRoute(app, 'GET', '/simulator', () => ({ body: simulator.status() }));
  controlRoute(app, 'PATCH', '/simulator', (req) => {
    const body = validate(simulatorConfigBody, req.body ?? {});
    guarded(() => simulator.configure(body));
    return { body: simulator.status() };
  });
  controlRoute(app, 'POST', '/simulator/start', (req) => {
    const body = validate(simulatorConfigBody, req.body ?? {});
    guarded(() => simulator.start(body));
    return { body: simulator.status() };
  });
  controlRoute(app, 'POST', '/simulator/stop', () => {
    simulator.stop();
    return { body: simulator.status() };
  });
  controlRoute(app, 'POST', '/simulator/calls', (req) => {
    const body = validate(placeCallBody, req.body);
    const plan = guarded(() => simulator.placeCall(body));
    const speed = simulator.getConfig().speed;
    const last = plan.steps.at(-1)?.at ?? 0;
    return {
      status: 201,
      body: {
        call_id: plan.callId,
        scenario: plan.scenario,
        start_time: formatEpoch(plan.start),
        events: plan.steps.map((s) => s.name),
        src: plan.src.number,
        dst: plan.dst.number,
        user_id: plan.user.id,
        recorded: plan.recorded,
        cdr_type: plan.cdr.type,
        duration: plan.cdr.duration,
        ends_in_ms: Math.ceil((last * 1000) / speed),
      },
    };
  });
  controlRoute(app, 'GET', '/simulator/ledger', () => ({ body: simulator.ledger() }));
  controlRoute(app, 'DELETE', '/simulator/ledger', () => {
    simulator.clearLedger();
    return { body: simulator.ledger() };
  });
  controlRoute(app, 'POST', '/simulator/sms', (req) => {
    const body = validate(sendSmsBody, req.body ?? {});
    return { status: 201, body: { event: guarded(() => simulator.sendSms(body)) } };
  });
  return simulator;
}
