// The HubSpot test server's properties: the default properties of calls, tasks and contacts, the
// enumerations and formats HubSpot checks when values are written, the property and property-group
// endpoints (custom properties and hasUniqueValue, https://developers.hubspot.com/docs/api/crm/properties),
// owners (/crm/v3/owners) and the portal's call dispositions (/calling/v1/dispositions). Registered by
// hubspot-server.ts, which passes its shared state in.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HubSpotError, isRecord } from './hubspot-errors';
import type { HubSpotState, ObjectType } from './hubspot-objects';

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
    'company',
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
/** HubSpot's default call outcomes (GET /calling/v1/dispositions). */
const DISPOSITION_LABELS: Record<string, string> = {
  '9d9162e7-6cf3-4944-bf63-4dff82258764': 'Busy',
  'f240bbac-87c9-4f6e-bf70-924b57d47db7': 'Connected',
  'a4c4c377-d246-4b32-a13b-75a56a4cd0ff': 'Left live message',
  'b2cf5968-551e-4856-9783-52b3da59a7d0': 'Left voicemail',
  '73a0d17f-1163-4015-bdd5-ec830791da20': 'No answer',
  '17b47fee-58de-441e-a44c-c6300d46f273': 'Wrong number',
};
const NUMBERS = new Set(['hs_call_duration']);
const TIMESTAMPS = new Set(['hs_timestamp']);
/** Object types of this server whose properties may have unique values (hasUniqueValue). */
const UNIQUE_VALUE_TYPES = new Set<ObjectType>(['contacts']);

/** HubSpot's timestamp properties take epoch milliseconds or an ISO 8601 UTC string. */
function validTimestamp(value: string): boolean {
  if (/^\d{10,14}$/.test(value)) return true;
  return /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/.test(value) && !Number.isNaN(Date.parse(value));
}

/** Whether an object type has a property, and the validation of property values written. */
export function propertyChecks(s: HubSpotState) {
  const { custom } = s;
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

  return { known, validateProperties };
}

export type PropertyChecks = ReturnType<typeof propertyChecks>;

/** The property and property-group endpoints, owners and call dispositions. */
export function registerPropertyRoutes(
  app: FastifyInstance,
  s: HubSpotState,
  objectType: (req: FastifyRequest) => ObjectType,
  known: PropertyChecks['known'],
): void {
  const { custom, unique, groups, owners, requireScope } = s;

  app.get('/crm/v3/properties/:type/:name', async (req: FastifyRequest) => {
    const type = objectType(req);
    requireScope(`crm.schemas.${type}.read`);
    const name = (req.params as { name: string }).name;
    if (!known(type, name))
      throw new HubSpotError(404, 'OBJECT_NOT_FOUND', `Unable to find property ${name} on ${type}`);
    return {
      name,
      label: name,
      type: 'string',
      fieldType: 'text',
      groupName: 'callsync',
      hasUniqueValue: unique.get(type)!.has(name),
    };
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
    // Unique-value properties exist on contacts, companies, deals, tickets and custom objects only
    // (https://developers.hubspot.com/docs/api/crm/properties): not on calls, tasks or other engagements.
    if (body.hasUniqueValue === true && UNIQUE_VALUE_TYPES.has(type) === false) {
      throw new HubSpotError(
        400,
        'VALIDATION_ERROR',
        `Property ${name} cannot have unique values: hasUniqueValue is not supported on ${type}`,
      );
    }
    if (known(type, name))
      throw new HubSpotError(409, 'OBJECT_ALREADY_EXISTS', `Property named '${name}' already exists.`);
    custom.get(type)!.add(name);
    if (body.hasUniqueValue === true) unique.get(type)!.add(name);
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

  // GET /crm/v3/owners/{ownerId}: one owner by id (idProperty=id), 404 when there is none.
  app.get('/crm/v3/owners/:ownerId', async (req: FastifyRequest) => {
    requireScope('crm.objects.owners.read');
    const { ownerId } = req.params as { ownerId: string };
    const o = owners.find((x) => x.id === ownerId);
    if (!o) throw new HubSpotError(404, 'OBJECT_NOT_FOUND', `No owner with id ${ownerId}`);
    const now = new Date().toISOString();
    return {
      id: o.id,
      email: o.email,
      userId: Number(o.id),
      createdAt: now,
      updatedAt: now,
      archived: false,
    };
  });

  // GET /calling/v1/dispositions: the portal's call outcomes (HubSpot's six defaults here).
  app.get('/calling/v1/dispositions', async () =>
    Object.entries(DISPOSITION_LABELS).map(([id, label]) => ({ id, label, deleted: false })),
  );
}
