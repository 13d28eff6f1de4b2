// The faults a chaos run injects through the services' own fault controls, and the count of each
// that really happened, read back from the emulator's fault registry and delivery log and from the
// HubSpot test server's request log.
import type { ChaosStack } from './stack';

/** Platform API faults (POST /_emulator/faults), on every API route. */
const PLATFORM_FAULTS = [
  { name: 'platform_500', body: { route: '*', status: 500, probability: 0.05 } },
  { name: 'platform_503', body: { route: '*', status: 503, probability: 0.05 } },
  { name: 'platform_429', body: { route: '*', status: 429, retry_after_s: 1, probability: 0.05 } },
  { name: 'platform_reset', body: { route: '*', reset: true, probability: 0.02 } },
  { name: 'platform_token_expiry', body: { route: '*', expire_token: true, probability: 0.02 } },
] as const;

/** Webhook delivery faults (POST /_emulator/webhooks/faults). */
const WEBHOOK_FAULTS = { duplicate_probability: 0.1, reorder_probability: 0.1, drop_probability: 0.05 };

/** CRM faults (the HubSpot test server). */
const CRM_FAULTS = { rate429: 0.05, rate5xx: 0.05, retryAfterSeconds: 1 };

export type FaultCounts = Record<string, number>;

export async function control(
  stack: ChaosStack,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(`${stack.emulator.origin}/_emulator${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json: unknown = await res.json().catch(() => null);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Deliveries retry long enough to outlast a restart of PostgreSQL or of a receiver. */
export async function configureDelivery(stack: ChaosStack, seed: number): Promise<void> {
  await control(stack, 'POST', '/webhooks/settings', {
    timeout_ms: 10_000,
    retries: 10,
    backoff_ms: [500, 1000, 2000, 4000, 8000],
  });
  await control(stack, 'POST', '/webhooks/faults', { ...WEBHOOK_FAULTS, seed });
}

/** Switches every API and CRM fault on; returns the emulator's fault ids by name. */
export async function faultsOn(stack: ChaosStack, seed: number): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const f of PLATFORM_FAULTS) {
    const created = (await control(stack, 'POST', '/faults', f.body)) as { id: number };
    ids.set(f.name, created.id);
  }
  stack.hubspot.randomFaults({ ...CRM_FAULTS, seed });
  return ids;
}

/**
 * Switches every fault off (the run then converges); returns how often each platform fault was
 * applied (read just before they are deleted, which forgets the counts).
 */
export async function faultsOff(stack: ChaosStack, ids: Map<string, number>): Promise<FaultCounts> {
  const counts: FaultCounts = {};
  const registered = (await control(stack, 'GET', '/faults')) as {
    faults: { id: number; applied: number }[];
  };
  for (const [name, id] of ids) counts[name] = registered.faults.find((f) => f.id === id)?.applied ?? 0;
  await control(stack, 'DELETE', '/faults');
  await control(stack, 'DELETE', '/webhooks/faults');
  stack.hubspot.randomFaults(null);
  return counts;
}

/** Waits until the emulator has no delivery in flight (or `timeoutMs`); true when idle. */
export async function deliveriesIdle(stack: ChaosStack, timeoutMs: number): Promise<boolean> {
  const r = (await control(stack, 'POST', '/webhooks/deliveries/wait', { timeout_ms: timeoutMs })) as {
    idle: boolean;
  };
  return r.idle;
}

export interface DeliveryEntry {
  event_id: string;
  event_name: string;
  call_id: number | null;
  ok: boolean;
  fault: 'dropped' | 'duplicate' | 'reordered' | null;
}

/** The emulator's log of every delivery attempt. */
export async function deliveryLog(stack: ChaosStack): Promise<DeliveryEntry[]> {
  return ((await control(stack, 'GET', '/webhooks/deliveries')) as { data: DeliveryEntry[] }).data;
}

/** How often each webhook and CRM fault happened (from the delivery log and the CRM's request log). */
export function countDeliveryAndCrmFaults(stack: ChaosStack, deliveries: DeliveryEntry[]): FaultCounts {
  const counts: FaultCounts = {};
  for (const kind of ['dropped', 'duplicate', 'reordered'] as const) {
    counts[`webhook_${kind}`] = deliveries.filter((d) => d.fault === kind).length;
  }
  const statuses = stack.hubspot.requests.map((r) => r.status);
  counts.crm_429 = statuses.filter((s) => s === 429).length;
  counts.crm_5xx = statuses.filter((s) => s >= 500).length;
  return counts;
}
