// A local HubSpot for tests: the CRM v3 endpoints callsync's HubSpot connector calls through the
// official client (objects create/update/search/batch update for calls, tasks and contacts; property
// and property-group creation; owners), validating what HubSpot requires and answering errors in
// HubSpot's format. In-memory; `requests` and `objects()` let tests assert on what was sent.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

export type ObjectType = 'calls' | 'tasks' | 'contacts';

export interface FakeObject {
  id: string;
  type: ObjectType;
  properties: Record<string, string | null>;
  associations: { toId: string; category: string; typeId: number }[];
  createdAt: string;
  updatedAt: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
  status: number;
  /** When the request arrived (epoch ms), for rate-limit checks over sliding windows. */
  at: number;
}

export interface FakeHubSpot {
  /** Origin to use as the client's basePath. */
  url: string;
  token: string;
  requests: RecordedRequest[];
  objects(type: ObjectType): FakeObject[];
  /** Adds a contact directly (as if created in HubSpot's UI); returns its id. */
  seedContact(properties: Record<string, string>, updatedAt?: string): string;
  /** Adds an owner for /crm/v3/owners lookups; returns its id. */
  seedOwner(email: string): string;
  /** The next `count` requests get 429 (with Retry-After when `retryAfterSeconds` is given). */
  rateLimitNext(count: number, retryAfterSeconds?: number): void;
  /**
   * The next `count` requests matching `method` and `path` (exact, no query) get this error status
   * (a 429 in HubSpot's rate-limit format, with Retry-After when `retryAfterSeconds` is given).
   */
  failNext(method: string, path: string, status: number, count?: number, retryAfterSeconds?: number): void;
  /** Custom properties defined on an object type (what a portal admin or callsync created). */
  customProperties(type: ObjectType): string[];
  close(): Promise<void>;
}

/** Properties each object type knows besides custom ones (a subset of HubSpot's defaults). */
const DEFAULT_PROPERTIES: Record<ObjectType, string[]> = {
  calls: [
    'hs_timestamp',
    'hs_call_title',
    'hs_call_body',
    'hs_call_direction',
    'hs_call_status',
    'hs_call_duration',
    'hs_call_disposition',
    'hs_call_from_number',
    'hs_call_to_number',
    'hs_call_recording_url',
    'hubspot_owner_id',
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
  ],
  tasks: [
    'hs_timestamp',
    'hs_task_subject',
    'hs_task_body',
    'hs_task_status',
    'hs_task_priority',
    'hs_task_type',
    'hubspot_owner_id',
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
  ],
  contacts: [
    'firstname',
    'lastname',
    'email',
    'phone',
    'mobilephone',
    'hubspot_owner_id',
    'hs_searchable_calculated_phone_number',
    'hs_searchable_calculated_mobile_number',
    'createdate',
    'lastmodifieddate',
    'hs_object_id',
  ],
};

const ENUMS: Record<string, string[]> = {
  hs_call_direction: ['INBOUND', 'OUTBOUND'],
  hs_call_status: [
    'BUSY',
    'CALLING_CRM_USER',
    'CANCELED',
    'COMPLETED',
    'CONNECTING',
    'FAILED',
    'IN_PROGRESS',
    'MISSED',
    'NO_ANSWER',
    'QUEUED',
    'RINGING',
  ],
  hs_call_disposition: [
    '9d9162e7-6cf3-4944-bf63-4dff82258764',
    'f240bbac-87c9-4f6e-bf70-924b57d47db7',
    'a4c4c377-d246-4b32-a13b-75a56a4cd0ff',
    'b2cf5968-551e-4856-9783-52b3da59a7d0',
    '73a0d17f-1163-4015-bdd5-ec830791da20',
    '17b47fee-58de-441e-a44c-c6300d46f273',
  ],
  hs_task_status: ['NOT_STARTED', 'IN_PROGRESS', 'WAITING', 'COMPLETED', 'DEFERRED'],
  hs_task_priority: ['NONE', 'LOW', 'MEDIUM', 'HIGH'],
  hs_task_type: ['EMAIL', 'CALL', 'TODO', 'LINKED_IN', 'LINKED_IN_CONNECT', 'LINKED_IN_MESSAGE'],
};
const NUMBERS = new Set(['hs_call_duration']);
const TIMESTAMPS = new Set(['hs_timestamp']);
/** HubSpot-defined association types from these objects to contacts. */
const CONTACT_ASSOCIATION: Partial<Record<ObjectType, number>> = { calls: 194, tasks: 204 };
const OBJECT_TYPES = new Set<string>(['calls', 'tasks', 'contacts']);

class HubSpotError extends Error {
  constructor(
    readonly status: number,
    readonly category: string,
    message: string,
    readonly errors: unknown[] = [],
  ) {
    super(message);
  }
}

/** HubSpot's answer when an app exceeds its rolling 10-second limit. */
function rateLimitBody() {
  return {
    status: 'error',
    message: 'You have reached your ten_secondly_rolling limit.',
    errorType: 'RATE_LIMIT',
    correlationId: randomUUID(),
    policyName: 'TEN_SECONDLY_ROLLING',
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** HubSpot's timestamp properties take epoch milliseconds or an ISO 8601 UTC string. */
function validTimestamp(value: string): boolean {
  if (/^\d{10,14}$/.test(value)) return true;
  return /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/.test(value) && !Number.isNaN(Date.parse(value));
}

/** Scopes of a private app; a fake started with `scopes` grants only those (default: all). */
export interface FakeHubSpotOptions {
  token?: string;
  scopes?: string[];
}

export async function startFakeHubSpot(opts: FakeHubSpotOptions = {}): Promise<FakeHubSpot> {
  const token = opts.token ?? 'pat-test-token';
  const requireScope = (scope: string): void => {
    if (!opts.scopes || opts.scopes.includes(scope)) return;
    throw new HubSpotError(
      403,
      'MISSING_SCOPES',
      "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
      [
        {
          message: 'One or more of the following scopes are required.',
          context: { requiredGranularScopes: [scope] },
        },
      ],
    );
  };
  const failures: {
    method: string;
    path: string;
    status: number;
    count: number;
    retryAfter: number | undefined;
  }[] = [];
  const store = new Map<ObjectType, Map<string, FakeObject>>([
    ['calls', new Map()],
    ['tasks', new Map()],
    ['contacts', new Map()],
  ]);
  const custom = new Map<ObjectType, Set<string>>([
    ['calls', new Set()],
    ['tasks', new Set()],
    ['contacts', new Set()],
  ]);
  const groups = new Map<string, Set<string>>();
  const owners: { id: string; email: string }[] = [];
  const requests: RecordedRequest[] = [];
  let nextId = 10_001;
  let rateLimited = 0;
  let retryAfter: number | undefined;

  const known = (type: ObjectType, name: string) =>
    DEFAULT_PROPERTIES[type].includes(name) || custom.get(type)!.has(name);

  function validateProperties(
    type: ObjectType,
    props: unknown,
    creating: boolean,
  ): Record<string, string | null> {
    if (!isRecord(props))
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON: properties is required');
    const problems: { isValid: false; message: string; error: string; name: string }[] = [];
    const out: Record<string, string | null> = {};
    for (const [name, value] of Object.entries(props)) {
      if (!known(type, name)) {
        problems.push({
          isValid: false,
          message: `Property "${name}" does not exist`,
          error: 'PROPERTY_DOESNT_EXIST',
          name,
        });
        continue;
      }
      if (value !== null && typeof value !== 'string') {
        problems.push({
          isValid: false,
          message: `${JSON.stringify(value)} is not a string`,
          error: 'INVALID_STRING',
          name,
        });
        continue;
      }
      if (value !== null && value !== '') {
        const options = ENUMS[name];
        if (options && !options.includes(value)) {
          problems.push({
            isValid: false,
            message: `${value} was not one of the allowed options: [${options.join(', ')}]`,
            error: 'INVALID_OPTION',
            name,
          });
        }
        if (NUMBERS.has(name) && !/^\d+(\.\d+)?$/.test(value)) {
          problems.push({
            isValid: false,
            message: `${value} is not a valid number`,
            error: 'INVALID_INTEGER',
            name,
          });
        }
        if (TIMESTAMPS.has(name) && !validTimestamp(value)) {
          problems.push({
            isValid: false,
            message: `${value} is not a valid datetime`,
            error: 'INVALID_DATE',
            name,
          });
        }
      }
      out[name] = value;
    }
    if (creating && type !== 'contacts' && !out.hs_timestamp) {
      problems.push({
        isValid: false,
        message: 'hs_timestamp is required',
        error: 'REQUIRED_PROPERTY',
        name: 'hs_timestamp',
      });
    }
    if (problems.length > 0) {
      throw new HubSpotError(
        400,
        'VALIDATION_ERROR',
        `Property values were not valid: ${JSON.stringify(problems)}`,
      );
    }
    return out;
  }

  function validateAssociations(type: ObjectType, list: unknown): FakeObject['associations'] {
    if (list === undefined) return [];
    if (!Array.isArray(list))
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON: associations must be an array');
    return list.map((a: unknown) => {
      if (
        !isRecord(a) ||
        !isRecord(a.to) ||
        typeof a.to.id !== 'string' ||
        !Array.isArray(a.types) ||
        a.types.length === 0
      ) {
        throw new HubSpotError(
          400,
          'VALIDATION_ERROR',
          'Invalid input JSON: each association needs to.id and types',
        );
      }
      const spec = a.types[0] as unknown;
      if (
        !isRecord(spec) ||
        typeof spec.associationTypeId !== 'number' ||
        typeof spec.associationCategory !== 'string'
      ) {
        throw new HubSpotError(
          400,
          'VALIDATION_ERROR',
          'Invalid input JSON: associationCategory and associationTypeId are required',
        );
      }
      if (!['HUBSPOT_DEFINED', 'USER_DEFINED', 'INTEGRATOR_DEFINED'].includes(spec.associationCategory)) {
        throw new HubSpotError(
          400,
          'VALIDATION_ERROR',
          `Unknown associationCategory ${spec.associationCategory}`,
        );
      }
      if (
        spec.associationCategory === 'HUBSPOT_DEFINED' &&
        spec.associationTypeId !== CONTACT_ASSOCIATION[type]
      ) {
        throw new HubSpotError(
          400,
          'VALIDATION_ERROR',
          `association type ${spec.associationTypeId} is not valid from ${type} to contacts`,
        );
      }
      if (!store.get('contacts')!.has(a.to.id)) {
        throw new HubSpotError(
          400,
          'VALIDATION_ERROR',
          `One or more associations are invalid: contact ${a.to.id} does not exist`,
        );
      }
      return { toId: a.to.id, category: spec.associationCategory, typeId: spec.associationTypeId };
    });
  }

  function insert(
    type: ObjectType,
    properties: Record<string, string | null>,
    associations: FakeObject['associations'],
  ) {
    const now = new Date().toISOString();
    const id = String(nextId++);
    const obj: FakeObject = {
      id,
      type,
      properties: { ...properties, hs_object_id: id, hs_createdate: now, hs_lastmodifieddate: now },
      associations,
      createdAt: now,
      updatedAt: now,
    };
    store.get(type)!.set(id, obj);
    return obj;
  }

  function patch(type: ObjectType, id: string, props: Record<string, string | null>) {
    const obj = store.get(type)!.get(id);
    if (!obj) throw new HubSpotError(404, 'OBJECT_NOT_FOUND', 'resource not found');
    obj.updatedAt = new Date().toISOString();
    Object.assign(obj.properties, props, { hs_lastmodifieddate: obj.updatedAt });
    return obj;
  }

  const view = (obj: FakeObject, props?: string[]) => ({
    id: obj.id,
    properties: props
      ? Object.fromEntries(
          [...props, 'hs_object_id', 'hs_createdate', 'hs_lastmodifieddate'].map((p) => [
            p,
            obj.properties[p] ?? null,
          ]),
        )
      : obj.properties,
    createdAt: obj.createdAt,
    updatedAt: obj.updatedAt,
    archived: false,
  });

  function objectType(req: FastifyRequest): ObjectType {
    const type = (req.params as { type: string }).type;
    if (!OBJECT_TYPES.has(type))
      throw new HubSpotError(404, 'OBJECT_NOT_FOUND', `Unknown object type ${type}`);
    return type as ObjectType;
  }

  function search(type: ObjectType, body: unknown) {
    if (!isRecord(body)) throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON');
    const filterGroups = (body.filterGroups ?? []) as unknown[];
    if (!Array.isArray(filterGroups) || filterGroups.length > 5) {
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'There can be at most 5 filterGroups');
    }
    const total = filterGroups.reduce<number>(
      (n, g) => n + (isRecord(g) && Array.isArray(g.filters) ? g.filters.length : 0),
      0,
    );
    if (total > 18) throw new HubSpotError(400, 'VALIDATION_ERROR', 'There can be at most 18 filters');
    const matches = (obj: FakeObject, g: unknown) => {
      if (!isRecord(g) || !Array.isArray(g.filters))
        throw new HubSpotError(400, 'VALIDATION_ERROR', 'filterGroups[].filters is required');
      if (g.filters.length > 6)
        throw new HubSpotError(400, 'VALIDATION_ERROR', 'A filterGroup can have at most 6 filters');
      return g.filters.every((f: unknown) => {
        if (!isRecord(f) || typeof f.propertyName !== 'string' || f.operator !== 'EQ') {
          throw new HubSpotError(400, 'VALIDATION_ERROR', 'this fake supports EQ filters only');
        }

        return obj.properties[f.propertyName] === f.value;
      });
    };
    // HubSpot refuses a filter on a property the object type does not have, whatever the data.
    for (const g of filterGroups) {
      const filters = isRecord(g) && Array.isArray(g.filters) ? (g.filters as unknown[]) : [];
      for (const f of filters) {
        if (isRecord(f) && typeof f.propertyName === 'string' && !known(type, f.propertyName)) {
          throw new HubSpotError(
            400,
            'VALIDATION_ERROR',
            `There was a problem with the request: property ${f.propertyName} does not exist on ${type}`,
          );
        }
      }
    }
    const limit = typeof body.limit === 'number' ? body.limit : 10;
    if (limit > 200) throw new HubSpotError(400, 'VALIDATION_ERROR', 'limit must be at most 200');
    const props = Array.isArray(body.properties) ? (body.properties as string[]) : undefined;
    const hits = [...store.get(type)!.values()].filter(
      (o) => filterGroups.length === 0 || filterGroups.some((g) => matches(o, g)),
    );
    return { total: hits.length, results: hits.slice(0, limit).map((o) => view(o, props)) };
  }

  const app = Fastify({ logger: false, bodyLimit: 5 * 1024 * 1024 });

  app.addHook('onRequest', async (req, reply) => {
    const failure = failures.find(
      (f) => f.count > 0 && f.method === req.method && f.path === req.url.split('?')[0],
    );
    if (failure) {
      failure.count--;
      if (failure.retryAfter !== undefined) void reply.header('retry-after', String(failure.retryAfter));
      if (failure.status === 429) return reply.code(429).send(rateLimitBody());
      return reply.code(failure.status).send({
        status: 'error',
        message: `fault injected by the test (${failure.status})`,
        correlationId: randomUUID(),
        category: failure.status === 400 ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR',
      });
    }
    if (rateLimited > 0) {
      rateLimited--;
      if (retryAfter !== undefined) void reply.header('retry-after', String(retryAfter));
      return reply.code(429).send(rateLimitBody());
    }
    if (req.headers.authorization !== `Bearer ${token}`) {
      return reply.code(401).send({
        status: 'error',
        message: 'Authentication credentials not found. This API supports OAuth 2.0 authentication.',
        correlationId: randomUUID(),
        category: 'INVALID_AUTHENTICATION',
      });
    }
  });
  app.addHook('onResponse', async (req, reply) => {
    requests.push({
      method: req.method,
      path: req.url,
      body: req.body ?? null,
      status: reply.statusCode,
      at: Date.now() - reply.elapsedTime,
    });
  });
  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof HubSpotError) {
      return reply.code(err.status).send({
        status: 'error',
        message: err.message,
        correlationId: randomUUID(),
        category: err.category,
        ...(err.errors.length > 0 ? { errors: err.errors } : {}),
      });
    }
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    return reply.code(status).send({
      status: 'error',
      message: (err as Error).message,
      correlationId: randomUUID(),
      category: status === 400 ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR',
    });
  });

  app.post('/crm/v3/objects/:type', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = objectType(req);
    const body = req.body;
    if (!isRecord(body)) throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON');
    const properties = validateProperties(type, body.properties, true);
    const associations = validateAssociations(type, body.associations);
    return reply.code(201).send(view(insert(type, properties, associations)));
  });

  app.patch('/crm/v3/objects/:type/:id', async (req: FastifyRequest) => {
    const type = objectType(req);
    const body = req.body;
    if (!isRecord(body)) throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON');
    const properties = validateProperties(type, body.properties, false);
    return view(patch(type, (req.params as { id: string }).id, properties));
  });

  app.post('/crm/v3/objects/:type/search', async (req: FastifyRequest) => search(objectType(req), req.body));

  app.post('/crm/v3/objects/:type/batch/update', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = objectType(req);
    const body = req.body;
    if (!isRecord(body) || !Array.isArray(body.inputs))
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'inputs is required');
    if (body.inputs.length > 100) throw new HubSpotError(400, 'VALIDATION_ERROR', 'Batch input limit is 100');
    const startedAt = new Date().toISOString();
    // Validate everything first: HubSpot rejects the whole batch when an input is invalid.
    const inputs = body.inputs.map((input: unknown) => {
      if (!isRecord(input) || typeof input.id !== 'string')
        throw new HubSpotError(400, 'VALIDATION_ERROR', 'inputs[].id is required');
      return { id: input.id, properties: validateProperties(type, input.properties, false) };
    });
    const results = [];
    const errors = [];
    for (const input of inputs) {
      try {
        results.push(view(patch(type, input.id, input.properties)));
      } catch {
        errors.push({
          status: 'error',
          category: 'OBJECT_NOT_FOUND',
          message: `Object ${input.id} not found`,
          context: { ids: [input.id] },
        });
      }
    }
    const completedAt = new Date().toISOString();
    if (errors.length > 0) {
      return reply
        .code(207)
        .send({ status: 'COMPLETE', results, numErrors: errors.length, errors, startedAt, completedAt });
    }
    return { status: 'COMPLETE', results, startedAt, completedAt };
  });

  app.get('/crm/v3/properties/:type/:name', async (req: FastifyRequest) => {
    const type = objectType(req);
    requireScope(`crm.schemas.${type}.read`);
    const name = (req.params as { name: string }).name;
    if (!known(type, name))
      throw new HubSpotError(404, 'OBJECT_NOT_FOUND', `Unable to find property ${name} on ${type}`);
    return { name, label: name, type: 'string', fieldType: 'text', groupName: 'callsync' };
  });

  app.post('/crm/v3/properties/:type/groups', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = objectType(req);
    requireScope(`crm.schemas.${type}.write`);
    const body = req.body;
    if (!isRecord(body) || typeof body.name !== 'string' || typeof body.label !== 'string') {
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'name and label are required');
    }
    const set = groups.get(type) ?? new Set<string>();
    groups.set(type, set);
    if (set.has(body.name))
      throw new HubSpotError(409, 'OBJECT_ALREADY_EXISTS', `Property group ${body.name} already exists`);
    set.add(body.name);
    return reply.code(201).send({ name: body.name, label: body.label, displayOrder: -1, archived: false });
  });

  app.post('/crm/v3/properties/:type', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = objectType(req);
    requireScope(`crm.schemas.${type}.write`);
    const body = req.body;
    if (!isRecord(body)) throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON');
    for (const field of ['name', 'label', 'type', 'fieldType', 'groupName']) {
      if (typeof body[field] !== 'string')
        throw new HubSpotError(400, 'VALIDATION_ERROR', `${field} is required`);
    }
    const name = body.name as string;
    if (
      !(groups.get(type)?.has(body.groupName as string) ?? false) &&
      !['callinformation', 'task', 'contactinformation'].includes(body.groupName as string)
    ) {
      throw new HubSpotError(
        400,
        'VALIDATION_ERROR',
        `Property group ${String(body.groupName)} does not exist`,
      );
    }
    if (known(type, name))
      throw new HubSpotError(409, 'OBJECT_ALREADY_EXISTS', `Property named '${name}' already exists.`);
    custom.get(type)!.add(name);
    const now = new Date().toISOString();
    return reply
      .code(201)
      .send({ ...body, createdAt: now, updatedAt: now, hidden: false, options: [], formField: false });
  });

  app.get('/crm/v3/owners/', async (req: FastifyRequest) => {
    requireScope('crm.objects.owners.read');
    const email = (req.query as { email?: string }).email;
    const hits = owners.filter((o) => email === undefined || o.email === email.toLowerCase());
    const now = new Date().toISOString();
    return {
      results: hits.map((o) => ({
        id: o.id,
        email: o.email,
        userId: Number(o.id),
        createdAt: now,
        updatedAt: now,
        archived: false,
      })),
    };
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('fake HubSpot did not bind a port');

  return {
    url: `http://127.0.0.1:${address.port}`,
    token,
    requests,
    objects: (type) => [...store.get(type)!.values()],
    seedContact: (properties, updatedAt) => {
      const obj = insert('contacts', properties, []);
      if (updatedAt) obj.updatedAt = updatedAt;
      return obj.id;
    },
    seedOwner: (email) => {
      const id = String(90_000 + owners.length + 1);
      owners.push({ id, email: email.toLowerCase() });
      return id;
    },
    rateLimitNext: (count, retryAfterSeconds) => {
      rateLimited = count;
      retryAfter = retryAfterSeconds;
    },
    failNext: (method, path, status, count = 1, retryAfterSeconds) => {
      failures.push({ method, path, status, count, retryAfter: retryAfterSeconds });
    },
    customProperties: (type) => [...custom.get(type)!],
    close: () => app.close(),
  };
}
