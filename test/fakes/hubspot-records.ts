// The HubSpot test server's records: the CRM v3 object endpoints for calls, tasks and contacts (create,
// read by id or unique property, update and delete, one at a time and in batches of at most 100,
// https://developers.hubspot.com/docs/api/crm/understanding-the-crm), their associations to contacts,
// unique-value conflicts, and what HubSpot calculates on a write. Registered by hubspot-server.ts,
// which passes its shared state in; search is hubspot-search.ts, notes and communications
// hubspot-conversations.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { deriveContact } from './hubspot-contacts';
import { HubSpotError, isRecord } from './hubspot-errors';
import type { FakeObject, HubSpotState, ObjectType } from './hubspot-objects';
import type { PropertyChecks } from './hubspot-properties';

/** HubSpot-defined association types from these objects to contacts. */
const CONTACT_ASSOCIATION: Partial<Record<ObjectType, number>> = { calls: 194, tasks: 204 };
const OBJECT_TYPES = new Set<string>(['calls', 'tasks', 'contacts']);

/** The digits HubSpot puts in hs_searchable_calculated_*_number: the number without its country code. */
function searchableDigits(value: string | null | undefined): string | null {
  if (!value) return null;
  const parsed = parsePhoneNumberFromString(value, 'US');
  return parsed?.nationalNumber ?? (value.replace(/\D/g, '') || null);
}

/** Writing and reading stored objects, as the record, contact and search endpoints do. */
export function recordHelpers(s: HubSpotState) {
  const { store, unique, index } = s;

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

  /** Refuses a value another object already holds in a property with hasUniqueValue. */
  function checkUnique(type: ObjectType, props: Record<string, string | null>, selfId?: string): void {
    for (const name of unique.get(type)!) {
      const value = props[name];
      if (value === undefined || value === null || value === '') continue;
      for (const other of store.get(type)!.values()) {
        if (other.id !== selfId && other.properties[name] === value) {
          throw new HubSpotError(
            409,
            'CONFLICT',
            `A ${type.replace(/s$/, '')} with the unique property "${name}" value "${value}" already exists. Existing ID: ${other.id}`,
          );
        }
      }
    }
  }

  /** HubSpot's calculated searchable numbers follow a contact's phone and mobile phone. */
  function calculate(type: ObjectType, props: Record<string, string | null>): void {
    if (type !== 'contacts') return;
    if ('phone' in props) props.hs_searchable_calculated_phone_number = searchableDigits(props.phone);
    if ('mobilephone' in props)
      props.hs_searchable_calculated_mobile_number = searchableDigits(props.mobilephone);
  }

  function insert(
    type: ObjectType,
    properties: Record<string, string | null>,
    associations: FakeObject['associations'],
  ) {
    checkUnique(type, properties);
    const now = new Date().toISOString();
    const id = s.newId();
    const obj: FakeObject = {
      id,
      type,
      properties: { ...properties, hs_object_id: id, hs_createdate: now, hs_lastmodifieddate: now },
      associations,
      createdAt: now,
      updatedAt: now,
    };
    calculate(type, obj.properties);
    deriveContact(obj);
    store.get(type)!.set(id, obj);
    index.wrote(obj);
    return obj;
  }

  function patch(type: ObjectType, id: string, props: Record<string, string | null>) {
    const obj = store.get(type)!.get(id);
    if (!obj) throw new HubSpotError(404, 'OBJECT_NOT_FOUND', 'resource not found');
    checkUnique(type, props, id);
    obj.updatedAt = new Date().toISOString();
    Object.assign(obj.properties, props, { hs_lastmodifieddate: obj.updatedAt });
    calculate(type, obj.properties);
    deriveContact(obj);
    index.wrote(obj);
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

  return { validateAssociations, checkUnique, insert, patch, view, objectType };
}

export type RecordHelpers = ReturnType<typeof recordHelpers>;

/** The object endpoints: create, batch create/read/update, update and delete. */
export function registerRecordRoutes(
  app: FastifyInstance,
  s: HubSpotState,
  records: RecordHelpers,
  validateProperties: PropertyChecks['validateProperties'],
): void {
  const { store, unique, limits } = s;
  const { validateAssociations, checkUnique, insert, patch, view, objectType } = records;

  app.post('/crm/v3/objects/:type', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = objectType(req);
    const body = req.body;
    if (!isRecord(body)) throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON');
    const properties = validateProperties(type, body.properties, true);
    const associations = validateAssociations(type, body.associations);
    return reply.code(201).send(view(insert(type, properties, associations)));
  });

  function checkBatchSize(inputs: unknown[]): void {
    if (inputs.length > limits.batchInputs) {
      throw new HubSpotError(
        400,
        'VALIDATION_ERROR',
        `Batch input limit is ${limits.batchInputs}; received ${inputs.length} inputs`,
      );
    }
  }

  // Batch create is all or nothing: any invalid input or unique-value conflict refuses the batch.
  // Results come back in no particular order (HubSpot does not promise input order; here: reversed).
  app.post('/crm/v3/objects/:type/batch/create', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = objectType(req);
    const body = req.body;
    if (!isRecord(body) || !Array.isArray(body.inputs))
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'inputs is required');
    checkBatchSize(body.inputs);
    const startedAt = new Date().toISOString();
    const inputs = body.inputs.map((input: unknown) => {
      if (!isRecord(input)) throw new HubSpotError(400, 'VALIDATION_ERROR', 'inputs[] must be objects');
      return {
        properties: validateProperties(type, input.properties, true),
        associations: validateAssociations(type, input.associations),
      };
    });
    for (const name of unique.get(type)!) {
      const values = inputs.map((i) => i.properties[name]).filter((v) => v !== undefined && v !== null);
      if (new Set(values).size !== values.length)
        throw new HubSpotError(
          409,
          'CONFLICT',
          `Duplicate values of the unique property "${name}" in the batch`,
        );
    }
    for (const input of inputs) checkUnique(type, input.properties);
    const results = inputs.map((i) => view(insert(type, i.properties, i.associations))).reverse();
    return reply
      .code(201)
      .send({ status: 'COMPLETE', results, startedAt, completedAt: new Date().toISOString() });
  });

  // Batch read by id, or by a unique property (idProperty); missing ones are a 207's errors.
  app.post('/crm/v3/objects/:type/batch/read', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = objectType(req);
    const body = req.body;
    if (!isRecord(body) || !Array.isArray(body.inputs))
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'inputs is required');
    checkBatchSize(body.inputs);
    const idProperty = typeof body.idProperty === 'string' ? body.idProperty : undefined;
    if (idProperty !== undefined && !unique.get(type)!.has(idProperty)) {
      throw new HubSpotError(
        400,
        'VALIDATION_ERROR',
        `${idProperty} is not a unique identifier property of ${type}`,
      );
    }
    const props = Array.isArray(body.properties) ? (body.properties as string[]) : undefined;
    const startedAt = new Date().toISOString();
    const results = [];
    const missing: string[] = [];
    for (const input of body.inputs as unknown[]) {
      if (!isRecord(input) || typeof input.id !== 'string')
        throw new HubSpotError(400, 'VALIDATION_ERROR', 'inputs[].id is required');
      const id = input.id;
      const objects = store.get(type)!;
      const hit =
        idProperty === undefined
          ? objects.get(id)
          : [...objects.values()].find((o) => o.properties[idProperty] === id);
      if (hit) results.push(view(hit, props));
      else missing.push(id);
    }
    const completedAt = new Date().toISOString();
    if (missing.length === 0) return { status: 'COMPLETE', results, startedAt, completedAt };
    return reply.code(207).send({
      status: 'COMPLETE',
      results,
      numErrors: 1,
      errors: [
        {
          status: 'error',
          category: 'OBJECT_NOT_FOUND',
          message: `Could not get some ${type} objects, they may be deleted or not exist. Check that ids are valid.`,
          context: { ids: missing },
        },
      ],
      startedAt,
      completedAt,
    });
  });

  app.patch('/crm/v3/objects/:type/:id', async (req: FastifyRequest) => {
    const type = objectType(req);
    const body = req.body;
    if (!isRecord(body)) throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON');
    const properties = validateProperties(type, body.properties, false);
    return view(patch(type, (req.params as { id: string }).id, properties));
  });

  app.delete('/crm/v3/objects/:type/:id', async (req: FastifyRequest, reply: FastifyReply) => {
    const id = (req.params as { id: string }).id;
    if (!store.get(objectType(req))!.delete(id)) {
      throw new HubSpotError(404, 'OBJECT_NOT_FOUND', `Object not found.  objectId are usually numeric.`);
    }
    return reply.code(204).send();
  });

  app.post('/crm/v3/objects/:type/batch/update', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = objectType(req);
    const body = req.body;
    if (!isRecord(body) || !Array.isArray(body.inputs))
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'inputs is required');
    checkBatchSize(body.inputs);
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
}
