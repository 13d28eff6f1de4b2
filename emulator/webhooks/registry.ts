// Webhook registrations as the platform keeps them (spec Events, Configuration): a name, the selected
// event categories and a target URL; editable and disable-able.
import { z } from 'zod';
import { EVENT_CATEGORIES, type EventCategory } from '../../connectors/platform/schemas/events';

/** One registered webhook. */
export interface Webhook {
  id: number;
  name: string;
  categories: EventCategory[];
  url: string;
  enabled: boolean;
  /** Customer whose events it receives. */
  customer_id: number;
  created_at: string;
  updated_at: string;
}

const categories = z
  .array(z.enum(EVENT_CATEGORIES, { error: `must be one of ${EVENT_CATEGORIES.join(', ')}` }))
  .min(1, 'select at least one category')
  .transform((list) => [...new Set(list)]);

/** Body of POST /_emulator/webhooks. */
export const createWebhookBody = z.strictObject({
  name: z.string().trim().min(1, 'required').max(200),
  categories,
  url: z.string().min(1, 'required'),
  enabled: z.boolean().optional(),
  customer_id: z.number().int().optional(),
});

/** Body of PATCH /_emulator/webhooks/{id}. */
export const patchWebhookBody = z.strictObject({
  name: z.string().trim().min(1, 'required').max(200).optional(),
  categories: categories.optional(),
  url: z.string().min(1, 'required').optional(),
  enabled: z.boolean().optional(),
});

const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** Whether a URL host is loopback (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '[::1]' || h === '::1' || LOOPBACK_V4.test(h);
}

/**
 * Why a webhook URL is refused, or undefined when it is acceptable: the spec allows HTTPS only; the
 * emulator also accepts plain http to loopback, for local use.
 */
export function urlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url: must be an absolute URL';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  if (url.protocol === 'http:')
    return 'url: must be an HTTPS URL (plain http only to loopback: 127.0.0.0/8, ::1, localhost)';
  return 'url: must be an HTTPS URL';
}

/** The webhooks of one emulator, in memory. */
export class WebhookRegistry {
  private readonly hooks = new Map<number, Webhook>();
  private lastId = 0;

  constructor(private readonly now: () => string) {}

  add(input: {
    name: string;
    categories: EventCategory[];
    url: string;
    enabled?: boolean;
    customer_id: number;
  }): Webhook {
    const at = this.now();
    const hook: Webhook = {
      id: ++this.lastId,
      name: input.name,
      categories: input.categories,
      url: input.url,
      enabled: input.enabled ?? true,
      customer_id: input.customer_id,
      created_at: at,
      updated_at: at,
    };
    this.hooks.set(hook.id, hook);
    return { ...hook };
  }

  get(id: number): Webhook | undefined {
    const hook = this.hooks.get(id);
    return hook ? { ...hook } : undefined;
  }

  list(): Webhook[] {
    return [...this.hooks.values()].map((h) => ({ ...h }));
  }

  /** Enabled webhooks of a customer. */
  active(customerId: number): Webhook[] {
    return [...this.hooks.values()].filter((h) => h.enabled && h.customer_id === customerId);
  }

  update(
    id: number,
    patch: Partial<Pick<Webhook, 'name' | 'categories' | 'url' | 'enabled'>>,
  ): Webhook | undefined {
    const hook = this.hooks.get(id);
    if (!hook) return undefined;
    const next: Webhook = { ...hook, ...patch, id, updated_at: this.now() };
    this.hooks.set(id, next);
    return { ...next };
  }

  remove(id: number): boolean {
    return this.hooks.delete(id);
  }
}
