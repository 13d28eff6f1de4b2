// The local HubSpot's endpoints for conversations and screen-pop, registered by hubspot-server.ts:
// account-info (the portal id in record links), communications (SMS) and notes, with their
// callsync_key property, contact associations, search by EQ or IN and archive. A portal started with
// `communications: false` lacks the communications object (403), as portals without it do.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type ConversationType = 'communications' | 'notes';

export interface FakeEngagement {
  id: string;
  type: ConversationType;
  properties: Record<string, string | null>;
  associations: { toId: string; typeId: number }[];
}

export interface HubSpotConversationsOptions {
  portalId: number;
  communications: boolean;
  contactExists(id: string): boolean;
  nextId(): string;
  /** Throws a HubSpot-shaped error (the server's error handler formats it). */
  fail(status: number, category: string, message: string): never;
}

const PROPERTIES: Record<ConversationType, string[]> = {
  communications: [
    'hs_timestamp',
    'hs_communication_channel_type',
    'hs_communication_logged_from',
    'hs_communication_body',
    'hubspot_owner_id',
  ],
  notes: ['hs_timestamp', 'hs_note_body', 'hubspot_owner_id'],
};
const CHANNELS = ['SMS', 'WHATS_APP', 'LINKEDIN_MESSAGE', 'PHYSICAL_MAIL', 'CUSTOM_CHANNEL_CONVERSATION'];
/** HubSpot-defined association types to contacts. */
const TO_CONTACT: Record<ConversationType, number> = { communications: 81, notes: 202 };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function registerHubSpotConversations(app: FastifyInstance, opts: HubSpotConversationsOptions) {
  const store: Record<ConversationType, Map<string, FakeEngagement>> = {
    communications: new Map(),
    notes: new Map(),
  };
  const custom: Record<ConversationType, Set<string>> = { communications: new Set(), notes: new Set() };
  const known = (type: ConversationType, name: string) =>
    PROPERTIES[type].includes(name) || custom[type].has(name) || name.startsWith('hs_object');

  const available = (type: ConversationType) => {
    if (type === 'communications' && !opts.communications) {
      opts.fail(403, 'MISSING_SCOPES', 'This portal has no access to the communications object.');
    }
  };

  const properties = (type: ConversationType, input: unknown, creating: boolean) => {
    if (!isRecord(input)) opts.fail(400, 'VALIDATION_ERROR', 'Invalid input JSON: properties is required');
    const out: Record<string, string | null> = {};
    for (const [name, value] of Object.entries(input)) {
      if (!known(type, name)) opts.fail(400, 'VALIDATION_ERROR', `Property "${name}" does not exist`);
      if (value !== null && typeof value !== 'string')
        opts.fail(400, 'VALIDATION_ERROR', `${name}: ${JSON.stringify(value)} is not a string`);
      if (name === 'hs_communication_channel_type' && !CHANNELS.includes(String(value)))
        opts.fail(400, 'VALIDATION_ERROR', `${String(value)} was not one of the allowed options`);
      out[name] = value;
    }
    if (creating && !out.hs_timestamp) opts.fail(400, 'VALIDATION_ERROR', 'hs_timestamp is required');
    if (creating && type === 'communications' && !out.hs_communication_channel_type)
      opts.fail(400, 'VALIDATION_ERROR', 'hs_communication_channel_type is required');
    return out;
  };

  const associations = (type: ConversationType, list: unknown): FakeEngagement['associations'] => {
    if (list === undefined) return [];
    if (!Array.isArray(list)) opts.fail(400, 'VALIDATION_ERROR', 'associations must be an array');
    return list.map((a: unknown) => {
      const to = isRecord(a) && isRecord(a.to) ? a.to.id : undefined;
      const spec: unknown = isRecord(a) && Array.isArray(a.types) ? a.types[0] : undefined;
      const typeId = isRecord(spec) ? spec.associationTypeId : undefined;
      if (typeof to !== 'string' || typeId !== TO_CONTACT[type])
        opts.fail(
          400,
          'VALIDATION_ERROR',
          `association type ${String(typeId)} is not valid from ${type} to contacts`,
        );
      if (!opts.contactExists(to)) opts.fail(400, 'VALIDATION_ERROR', `contact ${to} does not exist`);
      return { toId: to, typeId };
    });
  };

  const view = (e: FakeEngagement) => ({
    id: e.id,
    properties: { ...e.properties, hs_object_id: e.id },
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    archived: false,
  });

  app.get('/account-info/v3/details', async () => ({
    portalId: opts.portalId,
    accountType: 'STANDARD',
    timeZone: 'Europe/London',
    companyCurrency: 'GBP',
    uiDomain: 'app.hubspot.com',
    dataHostingLocation: 'na1',
  }));

  for (const type of ['communications', 'notes'] as const) {
    app.post(`/crm/v3/objects/${type}`, async (req: FastifyRequest, reply: FastifyReply) => {
      available(type);
      const body = isRecord(req.body) ? req.body : {};
      const engagement: FakeEngagement = {
        id: opts.nextId(),
        type,
        properties: properties(type, body.properties, true),
        associations: associations(type, body.associations),
      };
      store[type].set(engagement.id, engagement);
      return reply.code(201).send(view(engagement));
    });
    app.patch(`/crm/v3/objects/${type}/:id`, async (req: FastifyRequest) => {
      available(type);
      const found = store[type].get((req.params as { id: string }).id);
      if (!found) opts.fail(404, 'OBJECT_NOT_FOUND', 'resource not found');
      Object.assign(
        found.properties,
        properties(type, isRecord(req.body) ? req.body.properties : null, false),
      );
      return view(found);
    });
    // Archive (HubSpot's delete): 204, or 404 for an object that is not there.
    app.delete(`/crm/v3/objects/${type}/:id`, async (req: FastifyRequest, reply: FastifyReply) => {
      available(type);
      if (!store[type].delete((req.params as { id: string }).id))
        opts.fail(404, 'OBJECT_NOT_FOUND', 'resource not found');
      return reply.code(204).send();
    });
    app.post(`/crm/v3/objects/${type}/search`, async (req: FastifyRequest) => {
      available(type);
      const groups = isRecord(req.body) && Array.isArray(req.body.filterGroups) ? req.body.filterGroups : [];
      const hits = [...store[type].values()].filter((e) =>
        groups.some(
          (g: unknown) =>
            isRecord(g) &&
            Array.isArray(g.filters) &&
            g.filters.every(
              (f: unknown) =>
                isRecord(f) &&
                typeof f.propertyName === 'string' &&
                (f.operator === 'EQ'
                  ? e.properties[f.propertyName] === f.value
                  : f.operator === 'IN' &&
                    Array.isArray(f.values) &&
                    f.values.includes(e.properties[f.propertyName])),
            ),
        ),
      );
      return { total: hits.length, results: hits.map(view) };
    });
    app.get(`/crm/v3/properties/${type}/:name`, async (req: FastifyRequest) => {
      available(type);
      const name = (req.params as { name: string }).name;
      if (!known(type, name))
        opts.fail(404, 'OBJECT_NOT_FOUND', `Unable to find property ${name} on ${type}`);
      return { name, label: name, type: 'string', fieldType: 'text', groupName: 'callsync' };
    });
    app.post(`/crm/v3/properties/${type}/groups`, async (req: FastifyRequest, reply: FastifyReply) => {
      available(type);
      const body = isRecord(req.body) ? req.body : {};
      return reply.code(201).send({ name: body.name, label: body.label, displayOrder: -1, archived: false });
    });
    app.post(`/crm/v3/properties/${type}`, async (req: FastifyRequest, reply: FastifyReply) => {
      available(type);
      const name = isRecord(req.body) && typeof req.body.name === 'string' ? req.body.name : '';
      if (!name) opts.fail(400, 'VALIDATION_ERROR', 'name is required');
      if (known(type, name))
        opts.fail(409, 'OBJECT_ALREADY_EXISTS', `Property named '${name}' already exists.`);
      custom[type].add(name);
      return reply.code(201).send({ ...(req.body as object) });
    });
  }

  return {
    /** Communications or notes callsync wrote. */
    engagements: (type: ConversationType): FakeEngagement[] => [...store[type].values()],
  };
}
