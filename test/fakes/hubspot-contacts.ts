// The fake HubSpot's contact endpoints for the contact sync: list (GET /crm/v3/objects/contacts with
// limit/after), batch archive of at most 100, search with range and IN filters, sorts and `after`
// paging (at most 200 a page and 10,000 a query, as HubSpot), and what HubSpot sets on a contact
// (lastmodifieddate, createdate). Registered by
// hubspot-server.ts; tests change contacts "in the HubSpot UI" through updateContact/deleteContact.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FakeObject, ObjectType } from './hubspot-objects';

type Props = Record<string, string | null>;

/** What the server shares with this file. */
export interface ContactRouteContext {
  store: Map<ObjectType, Map<string, FakeObject>>;
  patch(type: ObjectType, id: string, props: Props): FakeObject;
  view(obj: FakeObject, props?: string[]): unknown;
  objectType(req: FastifyRequest): ObjectType;
  error(status: number, category: string, message: string): Error;
}

export interface FakeHubSpotContacts {
  /** Changes a contact as a user in HubSpot's UI would (bumps lastmodifieddate). */
  updateContact(id: string, properties: Props): void;
  /** Deletes a contact as a user would (it leaves searches and lists). */
  deleteContact(id: string): void;
  /**
   * After `okBatches` more contact batch creates, the next one creates its contacts and then answers
   * 500, as when a worker crashes after HubSpot did the work but before it recorded the answer.
   */
  loseBatchCreateAnswer(okBatches: number): void;
}

/** Sets what HubSpot derives on a contact after every write. */
export function deriveContact(obj: FakeObject): void {
  if (obj.type !== 'contacts') return;
  const p = obj.properties;
  p.lastmodifieddate = obj.updatedAt;
  p.createdate = obj.createdAt;
}

function compare(a: string | null | undefined, b: string): number {
  const ta = a == null ? NaN : /^\d+$/.test(a) ? Number(a) : Date.parse(a);
  const tb = /^\d+$/.test(b) ? Number(b) : Date.parse(b);
  if (!Number.isNaN(ta) && !Number.isNaN(tb)) return ta - tb;
  return (a ?? '').localeCompare(b);
}

/** One search filter against an object (HubSpot's operators the sync uses). */
export function filterMatches(
  obj: FakeObject,
  f: Record<string, unknown>,
  fail: ContactRouteContext['error'],
): boolean {
  const v = obj.properties[f.propertyName as string];
  const value = typeof f.value === 'string' || typeof f.value === 'number' ? String(f.value) : '';
  switch (f.operator) {
    case 'EQ':
      return v === f.value;
    case 'NEQ':
      return v !== f.value;
    case 'GT':
      return v != null && compare(v, value) > 0;
    case 'GTE':
      return v != null && compare(v, value) >= 0;
    case 'LT':
      return v != null && compare(v, value) < 0;
    case 'LTE':
      return v != null && compare(v, value) <= 0;
    case 'HAS_PROPERTY':
      return v != null && v !== '';
    case 'NOT_HAS_PROPERTY':
      return v == null || v === '';
    case 'IN': {
      if (!Array.isArray(f.values) || f.values.length > 100)
        throw fail(400, 'VALIDATION_ERROR', 'IN takes 1 to 100 values');
      return v != null && (f.values as unknown[]).includes(v);
    }
    default:
      throw fail(400, 'VALIDATION_ERROR', `this fake does not support the operator ${String(f.operator)}`);
  }
}

/**
 * A search answer: sorted, paged by `after` (an offset), at most 10,000 results a query
 * (https://developers.hubspot.com/docs/api/crm/search, Limitations).
 */
export function searchPage(
  hits: FakeObject[],
  body: Record<string, unknown>,
  limit: number,
  view: (o: FakeObject) => unknown,
  fail: ContactRouteContext['error'],
) {
  const sorts = Array.isArray(body.sorts) ? (body.sorts as unknown[]) : [];
  const sort = sorts[0];
  const prop =
    typeof sort === 'string' ? sort : ((sort as { propertyName?: string } | undefined)?.propertyName ?? null);
  const desc =
    typeof sort === 'object' && (sort as { direction?: string } | null)?.direction === 'DESCENDING';
  const sorted = prop
    ? [...hits].sort(
        (a, b) =>
          (desc ? -1 : 1) * compare(a.properties[prop], b.properties[prop] ?? '') ||
          Number(a.id) - Number(b.id),
      )
    : hits;
  const after = body.after === undefined ? 0 : Number(body.after);
  if (!Number.isInteger(after) || after < 0) throw fail(400, 'VALIDATION_ERROR', 'after must be a number');
  if (after + limit > 10_000)
    throw fail(400, 'VALIDATION_ERROR', 'a search can page through at most 10,000 results');
  const page = sorted.slice(after, after + limit);
  const next = after + limit < sorted.length ? String(after + limit) : null;
  return {
    total: hits.length,
    results: page.map(view),
    ...(next ? { paging: { next: { after: next } } } : {}),
  };
}

export function registerContactRoutes(app: FastifyInstance, ctx: ContactRouteContext): FakeHubSpotContacts {
  const contacts = () => ctx.store.get('contacts')!;
  const propsOf = (req: FastifyRequest): string[] | undefined => {
    const raw = (req.query as { properties?: string | string[] }).properties;
    if (raw === undefined) return undefined;
    return (Array.isArray(raw) ? raw : [raw]).flatMap((p) => p.split(','));
  };

  app.get('/crm/v3/objects/:type', async (req: FastifyRequest) => {
    const type = ctx.objectType(req);
    const q = req.query as { limit?: string; after?: string };
    const limit = q.limit === undefined ? 10 : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw ctx.error(400, 'VALIDATION_ERROR', 'limit must be 1 to 100');
    // In id order: the store holds objects in creation order, ids ascending (sorted only if not).
    const all = [...ctx.store.get(type)!.values()];
    if (all.some((o, i) => i > 0 && Number(o.id) < Number(all[i - 1]!.id)))
      all.sort((a, b) => Number(a.id) - Number(b.id));
    const after = q.after === undefined ? 0 : Number(q.after);
    const start = all.findIndex((o) => Number(o.id) > after);
    const page = start < 0 ? [] : all.slice(start, start + limit);
    const props = propsOf(req);
    const last = page.at(-1);
    return {
      results: page.map((o) => ctx.view(o, props)),
      ...(last && start + limit < all.length ? { paging: { next: { after: last.id } } } : {}),
    };
  });

  // A lost answer: the batch create did its work, the client hears a 500 (see loseBatchCreateAnswer).
  let loseAfter: number | null = null;
  app.addHook('onSend', async (req, reply, payload) => {
    if (loseAfter === null || req.method !== 'POST' || reply.statusCode !== 201) return payload;
    if (!req.url.startsWith('/crm/v3/objects/contacts/batch/create')) return payload;
    if (loseAfter-- > 0) return payload;
    loseAfter = null;
    void reply.code(500);
    return JSON.stringify({
      status: 'error',
      message: 'the answer was lost (fault injected by the test)',
      category: 'INTERNAL_ERROR',
    });
  });

  app.post('/crm/v3/objects/:type/batch/archive', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = ctx.objectType(req);
    const body = req.body as { inputs?: unknown } | null;
    if (!body || !Array.isArray(body.inputs)) throw ctx.error(400, 'VALIDATION_ERROR', 'inputs is required');
    if (body.inputs.length > 100) throw ctx.error(400, 'VALIDATION_ERROR', 'Batch input limit is 100');
    for (const i of body.inputs as { id?: unknown }[]) ctx.store.get(type)!.delete(String(i?.id));
    return reply.code(204).send();
  });

  return {
    updateContact: (id, properties) => {
      if (!contacts().has(id)) throw new Error(`no contact ${id}`);
      ctx.patch('contacts', id, properties);
    },
    deleteContact: (id) => {
      contacts().delete(id);
    },
    loseBatchCreateAnswer: (okBatches) => {
      loseAfter = okBatches;
    },
  };
}
