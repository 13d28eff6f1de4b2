// Webhook control: register, edit, disable and delete webhooks (the spec's Integrations settings), read
// and clear the delivery log, set delivery faults and settings, and send any event by hand.
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { TEST_EVENT_NAME } from '../../../connectors/platform/schemas/events';
import { deliveryFaultsBody } from '../../webhooks/faults';
import {
  deliverySettingsBody,
  WebhookDelivery,
  type DeliveryLogFilter,
  type EventBody,
} from '../../webhooks/delivery';
import { createWebhookBody, patchWebhookBody, urlProblem, WebhookRegistry } from '../../webhooks/registry';
import type { EmulatorContext } from '../context';
import { badRequest, notFound } from '../http-error';
import { validate } from '../validation';
import { controlRoute, pathParam, queryValue } from './control-route';

const sendEventBody = z.strictObject({
  customer_id: z.number().int().optional(),
  event: z.looseObject({ id: z.string().min(1), event_name: z.string().min(1) }),
});

const waitBody = z.strictObject({ timeout_ms: z.number().int().min(0).max(600_000).optional() }).optional();

/** Refuses a URL the spec would not take, or one whose test event does not get a 2xx. */
async function testUrl(
  delivery: WebhookDelivery,
  ctx: EmulatorContext,
  url: string,
  webhookId: number | null,
): Promise<string> {
  const problem = urlProblem(url);
  if (problem !== undefined) throw badRequest('Webhook not saved', [problem]);
  const event: EventBody = {
    id: randomUUID(),
    event_name: TEST_EVENT_NAME,
    event_time: ctx.clock.nowString(),
  };
  const result = await delivery.sendTest(url, event, webhookId);
  if (result.status === null)
    throw badRequest('Webhook not saved', [
      `url: the test event could not be delivered (${result.error ?? 'error'})`,
    ]);
  if (result.status < 200 || result.status > 299)
    throw badRequest('Webhook not saved', [`url: the test event got HTTP ${result.status}, not 2xx`]);
  return event.id;
}

function webhookId(raw: string): number {
  if (!/^\d+$/.test(raw)) throw notFound(`webhook ${raw}`);
  return Number(raw);
}

function intQuery(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw badRequest('Validation failed', [`${name}: must be an integer`]);
  return Number(raw);
}

/** Registers /_emulator/webhooks…; returns the delivery, which the call simulator sends through. */
export function registerWebhookControl(app: FastifyInstance, ctx: EmulatorContext): WebhookDelivery {
  const registry = new WebhookRegistry(() => ctx.clock.nowString());
  const delivery = new WebhookDelivery(registry);
  app.addHook('onClose', async () => delivery.close());

  controlRoute(app, 'POST', '/webhooks', async (req) => {
    const body = validate(createWebhookBody, req.body);
    const customerId = body.customer_id ?? ctx.store.admin.customer_id;
    if (!ctx.store.customers.some((c) => c.id === customerId))
      throw badRequest('Validation failed', ['customer_id: no such customer']);
    const testEventId = await testUrl(delivery, ctx, body.url, null);
    const hook = registry.add({
      name: body.name,
      categories: body.categories,
      url: body.url,
      customer_id: customerId,
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    });
    return { status: 201, body: { data: hook, test_event_id: testEventId } };
  });
  controlRoute(app, 'GET', '/webhooks', () => {
    const data = registry.list();
    return { body: { data, total: data.length } };
  });

  controlRoute(app, 'GET', '/webhooks/deliveries', (req) => {
    const filter: DeliveryLogFilter = {};
    const eventId = queryValue(req, 'event_id');
    const callId = intQuery(queryValue(req, 'call_id'), 'call_id');
    const hookId = intQuery(queryValue(req, 'webhook_id'), 'webhook_id');
    const eventName = queryValue(req, 'event_name');
    if (eventId) filter.event_id = eventId;
    if (callId !== undefined) filter.call_id = callId;
    if (hookId !== undefined) filter.webhook_id = hookId;
    if (eventName) filter.event_name = eventName;
    const data = delivery.log(filter);
    return { body: { data, total: data.length, in_flight: delivery.inFlight } };
  });
  controlRoute(app, 'DELETE', '/webhooks/deliveries', () => ({ body: { cleared: delivery.clearLog() } }));
  controlRoute(app, 'POST', '/webhooks/deliveries/wait', async (req) => {
    const body = validate(waitBody, req.body);
    const idle = await delivery.idle(body?.timeout_ms ?? 30_000);
    return { body: { idle, in_flight: delivery.inFlight } };
  });

  controlRoute(app, 'GET', '/webhooks/faults', () => ({ body: delivery.faults.get() }));
  controlRoute(app, 'POST', '/webhooks/faults', (req) => ({
    body: delivery.faults.set(validate(deliveryFaultsBody, req.body)),
  }));
  controlRoute(app, 'DELETE', '/webhooks/faults', () => ({ body: delivery.faults.clear() }));

  controlRoute(app, 'GET', '/webhooks/settings', () => ({ body: delivery.getSettings() }));
  controlRoute(app, 'POST', '/webhooks/settings', (req) => ({
    body: delivery.setSettings(validate(deliverySettingsBody, req.body)),
  }));

  controlRoute(app, 'POST', '/webhooks/events', (req) => {
    const body = validate(sendEventBody, req.body);
    const sent_to = delivery.dispatch(body.customer_id ?? ctx.store.admin.customer_id, body.event);
    return { status: 202, body: { sent_to } };
  });

  controlRoute(app, 'GET', '/webhooks/:id', (req) => {
    const id = webhookId(pathParam(req, 'id'));
    const hook = registry.get(id);
    if (!hook) throw notFound(`webhook ${id}`);
    return { body: { data: hook } };
  });
  controlRoute(app, 'PATCH', '/webhooks/:id', async (req) => {
    const id = webhookId(pathParam(req, 'id'));
    const hook = registry.get(id);
    if (!hook) throw notFound(`webhook ${id}`);
    const body = validate(patchWebhookBody, req.body);
    let testEventId: string | null = null;
    if (body.url !== undefined && body.url !== hook.url)
      testEventId = await testUrl(delivery, ctx, body.url, id);
    const updated = registry.update(id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.categories !== undefined ? { categories: body.categories } : {}),
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    });
    return { body: { data: updated, test_event_id: testEventId } };
  });
  controlRoute(app, 'DELETE', '/webhooks/:id', (req) => {
    const id = webhookId(pathParam(req, 'id'));
    if (!registry.remove(id)) throw notFound(`webhook ${id}`);
    return {};
  });
  return delivery;
}
