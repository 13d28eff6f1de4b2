// The Salesforce test server's sObjects: validation of the fields written (names, types, lengths,
// restricted picklists, https://developer.salesforce.com/docs/atlas.en-us.260.0.api_meta.meta/api_meta/meta_picklist.htm;
// references and converted Leads, https://help.salesforce.com/s/articleView?id=000384333&type=1;
// required fields), sObject create, update and delete, sObject Collections create, update and delete
// (at most 200 records), and the describe with its picklist values. Duplicate rules are
// salesforce-duplicates.ts. Registered by salesforce-server.ts, which passes its shared state in.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SalesforceError, isRecord } from './salesforce-errors';
import { DEFAULTS, REQUIRED, SCHEMA, type FieldDef, type SalesforceState } from './salesforce-schema';
import type { FakeRecord, SObjectType } from './salesforce-server';
import type { DuplicateCheck } from './salesforce-duplicates';

/** Most records one sObject Collections request takes. */
export const COLLECTION_MAX = 200;

/** Reading, validating and writing records, as the sObject, query and search endpoints do. */
export function sobjectHelpers(s: SalesforceState) {
  const { store, hidden, setup, picklists, base, newId, setupCheck } = s;

  /** The values a write may set: the active ones of the field's picklist. */
  const picklistValues = (def: FieldDef): string[] =>
    def.orgPicklist
      ? picklists[def.orgPicklist].filter((e) => e.active !== false).map((e) => e.value)
      : def.values!;
  const picklistDefault = (field: 'Status' | 'Priority') =>
    picklists[field].find((e) => e.defaultValue && e.active !== false)?.value;

  const typeOf = (name: string): SObjectType => {
    if (!(name in SCHEMA))
      throw new SalesforceError(404, 'NOT_FOUND', `The requested resource does not exist`);
    return name as SObjectType;
  };

  function validate(type: SObjectType, input: unknown, mode: 'create' | 'update'): Record<string, unknown> {
    if (!isRecord(input))
      throw new SalesforceError(400, 'JSON_PARSER_ERROR', 'The request body must be a JSON object');
    const schema = SCHEMA[type];
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(input)) {
      if (name === 'attributes' || name === 'Id' || name === 'id') continue;
      const def =
        (type === 'Task' && hidden.has(name)) || !setup.visible(type, name) ? undefined : schema[name];
      if (!def)
        throw new SalesforceError(
          400,
          'INVALID_FIELD',
          `No such column '${name}' on sobject of type ${type}`,
          [name],
        );
      if (def.readOnly || (def.createOnly && mode === 'update')) {
        throw new SalesforceError(
          400,
          'INVALID_FIELD_FOR_INSERT_UPDATE',
          `Unable to create/update fields: ${name}. Please check the security settings of this field and verify that it is read/write for your profile or permission set.`,
          [name],
        );
      }
      if (value === null) {
        out[name] = null;
        continue;
      }
      const wrongType = () =>
        new SalesforceError(
          400,
          'JSON_PARSER_ERROR',
          `Cannot deserialize instance of ${def.kind} from ${typeof value} value ${JSON.stringify(value)} at [field ${name}]`,
          [name],
        );
      switch (def.kind) {
        case 'string':
        case 'textarea':
          if (typeof value !== 'string') throw wrongType();
          if (def.max !== undefined && value.length > def.max) {
            throw new SalesforceError(
              400,
              'STRING_TOO_LONG',
              `${name}: data value too large (max length=${def.max})`,
              [name],
            );
          }
          break;
        case 'int':
          if (typeof value !== 'number' || !Number.isInteger(value)) throw wrongType();
          break;
        case 'boolean':
          if (typeof value !== 'boolean') throw wrongType();
          break;
        case 'date':
          if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw wrongType();
          break;
        case 'datetime':
          if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw wrongType();
          break;
        case 'picklist':
          if (typeof value !== 'string') throw wrongType();
          // A restricted picklist takes only its own active values through the API ("users can't
          // load or remove values through the API";
          // https://developer.salesforce.com/docs/atlas.en-us.260.0.api_meta.meta/api_meta/meta_picklist.htm).
          if (!picklistValues(def).includes(value)) {
            throw new SalesforceError(
              400,
              'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST',
              `${name}: bad value for restricted picklist field: ${value}`,
              [name],
            );
          }
          break;
        case 'reference': {
          if (typeof value !== 'string') throw wrongType();
          const target = store.get(value);
          if (!target || !def.refersTo!.includes(target.type)) {
            throw new SalesforceError(
              400,
              'FIELD_INTEGRITY_EXCEPTION',
              `${name}: id value of incorrect type: ${value}`,
              [name],
            );
          }
          // A converted Lead cannot be referenced (a Task's WhoId): "after a lead is converted, only
          // convertedAccountId or convertedContactId can be referenced"
          // (https://help.salesforce.com/s/articleView?id=000384333&type=1).
          if (target.type === 'Lead' && target.fields.IsConverted === true) {
            throw new SalesforceError(
              400,
              'CANNOT_UPDATE_CONVERTED_LEAD',
              'cannot reference converted lead',
              [name],
            );
          }
          break;
        }
      }
      out[name] = value;
    }
    {
      // A create must set every required field; an update must not clear one.
      const missing = REQUIRED[type].filter((f) =>
        mode === 'create' ? out[f] === undefined || out[f] === null || out[f] === '' : f in out && !out[f],
      );
      if (missing.length > 0) {
        throw new SalesforceError(
          400,
          'REQUIRED_FIELD_MISSING',
          `Required fields are missing: [${missing.join(', ')}]`,
          missing,
        );
      }
    }
    return out;
  }

  function insert(type: SObjectType, fields: Record<string, unknown>, lastModified?: string): FakeRecord {
    setupCheck(() => {
      setup.checkSetupWrite(type);
      setup.checkDuplicate(type, { ...DEFAULTS[type], ...fields });
    });
    const now = new Date().toISOString();
    const defaults: Record<string, unknown> = { ...DEFAULTS[type] };
    if (type === 'Task') {
      defaults.Status = picklistDefault('Status') ?? null;
      defaults.Priority = picklistDefault('Priority') ?? null;
    }
    const record: FakeRecord = {
      Id: newId(type),
      type,
      fields: { ...defaults, ...fields },
      CreatedDate: now,
      LastModifiedDate: lastModified ?? now,
      SystemModstamp: lastModified ?? now,
      IsDeleted: false,
    };
    store.set(record.Id, record);
    return record;
  }

  /** A live record of `type`, or Salesforce's error for a missing or deleted one. */
  function live(type: SObjectType, id: string): FakeRecord {
    const record = store.get(id);
    if (!record || record.type !== type)
      throw new SalesforceError(404, 'NOT_FOUND', 'The requested resource does not exist');
    if (record.IsDeleted) throw new SalesforceError(404, 'ENTITY_IS_DELETED', 'entity is deleted');
    return record;
  }

  function touch(record: FakeRecord) {
    record.LastModifiedDate = record.SystemModstamp = new Date().toISOString();
  }

  function update(type: SObjectType, id: string, input: unknown) {
    setupCheck(() => setup.checkSetupWrite(type));
    const record = live(type, id);
    if (type === 'Lead' && record.fields.IsConverted === true)
      throw new SalesforceError(400, 'CANNOT_UPDATE_CONVERTED_LEAD', 'cannot reference converted lead');
    Object.assign(record.fields, validate(type, input, 'update'));
    touch(record);
  }

  function destroy(id: string) {
    const record = store.get(id);
    if (!record) throw new SalesforceError(404, 'NOT_FOUND', 'The requested resource does not exist');
    live(record.type, id);
    record.IsDeleted = true;
    touch(record);
  }

  const attributes = (r: FakeRecord) => ({ type: r.type, url: `${base}/sobjects/${r.type}/${r.Id}` });

  return { typeOf, validate, insert, live, touch, update, destroy, attributes };
}

export type SObjectHelpers = ReturnType<typeof sobjectHelpers>;

/** The sObject, sObject Collections and describe endpoints. */
export function registerSObjectRoutes(
  app: FastifyInstance,
  s: SalesforceState,
  h: SObjectHelpers,
  checkDuplicates: DuplicateCheck,
) {
  const { store, hidden, setup, picklists, base, createdAt } = s;
  const { typeOf, validate, insert, live, update, destroy } = h;
  let loseCreate = 0;
  /** Records created through the API enter the search index later (salesforce-search.ts). */
  const created = (record: FakeRecord) => {
    createdAt.set(record.Id, Date.now());
    return record;
  };
  /** `Sforce-Duplicate-Rule-Header: allowSave=true; …` on the request. */
  const allowSave = (req: FastifyRequest) =>
    /(?:^|;)\s*allowSave\s*=\s*true\b/i.test(String(req.headers['sforce-duplicate-rule-header'] ?? ''));

  app.post(`${base}/sobjects/:type`, async (req: FastifyRequest, reply: FastifyReply) => {
    const type = typeOf((req.params as { type: string }).type);
    const fields = validate(type, req.body, 'create');
    checkDuplicates(type, fields, allowSave(req));
    const record = created(insert(type, fields));
    return reply.code(201).send({ id: record.Id, success: true, errors: [] });
  });

  app.patch(`${base}/sobjects/:type/:id`, async (req: FastifyRequest, reply: FastifyReply) => {
    const { type, id } = req.params as { type: string; id: string };
    update(typeOf(type), id, req.body);
    return reply.code(204).send();
  });

  app.delete(`${base}/sobjects/:type/:id`, async (req: FastifyRequest, reply: FastifyReply) => {
    const { type, id } = req.params as { type: string; id: string };
    live(typeOf(type), id);
    destroy(id);
    return reply.code(204).send();
  });

  // sObject Collections delete: `?ids=` (at most 200), results in request order.
  app.delete(`${base}/composite/sobjects`, async (req: FastifyRequest) => {
    const ids = ((req.query as { ids?: string }).ids ?? '').split(',').filter(Boolean);
    if (ids.length > COLLECTION_MAX)
      throw new SalesforceError(
        400,
        'EXCEEDED_ID_LIMIT',
        `record limit reached. cannot submit more than ${COLLECTION_MAX} records into this call`,
      );
    return ids.map((id) => {
      try {
        destroy(id);
        return { id, success: true, errors: [] };
      } catch (err) {
        if (!(err instanceof SalesforceError)) throw err;
        return {
          id,
          success: false,
          errors: [{ statusCode: err.errorCode, message: err.message, fields: [] }],
        };
      }
    });
  });

  const collection = (body: unknown): unknown[] => {
    if (!isRecord(body) || !Array.isArray(body.records))
      throw new SalesforceError(400, 'JSON_PARSER_ERROR', 'records is required');
    if (body.records.length > COLLECTION_MAX)
      throw new SalesforceError(
        400,
        'EXCEEDED_ID_LIMIT',
        `record limit reached. cannot submit more than ${COLLECTION_MAX} records into this call`,
      );
    return body.records as unknown[];
  };

  // sObject Collections create: results in request order; allOrNone false saves what it can.
  app.post(`${base}/composite/sobjects`, async (req: FastifyRequest, reply: FastifyReply) => {
    const lost = loseCreate > 0 && --loseCreate === 0;
    const before = [...store.values()];
    const results = collection(req.body).map((rec: unknown) => {
      try {
        const r = isRecord(rec) ? rec : {};
        const attrs = isRecord(r.attributes) ? r.attributes : {};
        if (typeof attrs.type !== 'string')
          throw new SalesforceError(400, 'INVALID_TYPE', 'Must send a concrete entity type.');
        const type = typeOf(attrs.type);
        const fields = validate(type, r, 'create');
        checkDuplicates(type, fields, allowSave(req), before);
        return { id: created(insert(type, fields)).Id, success: true, errors: [] };
      } catch (err) {
        if (!(err instanceof SalesforceError)) throw err;
        return { success: false, errors: [err.asRecordError()] };
      }
    });
    if (lost) {
      return reply
        .code(503)
        .send([{ message: 'Server temporarily unavailable', errorCode: 'SERVER_UNAVAILABLE' }]);
    }
    return results;
  });

  app.patch(`${base}/composite/sobjects`, async (req: FastifyRequest) => {
    return collection(req.body).map((rec: unknown) => {
      const r = isRecord(rec) ? rec : {};
      const id = typeof r.id === 'string' ? r.id : '';
      try {
        const attrs = isRecord(r.attributes) ? r.attributes : {};
        if (typeof attrs.type !== 'string')
          throw new SalesforceError(400, 'INVALID_TYPE', 'Must send a concrete entity type.');
        update(typeOf(attrs.type), id, r);
        return { id, success: true, errors: [] };
      } catch (err) {
        if (!(err instanceof SalesforceError)) throw err;
        return {
          success: false,
          errors: [{ statusCode: err.errorCode, message: err.message, fields: err.fields }],
        };
      }
    });
  });

  // The describe of an sObject: its fields as this user sees them (hidden ones left out).
  app.get(`${base}/sobjects/:type/describe`, async (req: FastifyRequest) => {
    const type = typeOf((req.params as { type: string }).type);
    const fields = Object.entries(SCHEMA[type])
      .filter(([name]) => !(type === 'Task' && hidden.has(name)) && setup.visible(type, name))
      .map(([name, def]) => ({
        name,
        type: def.kind,
        createable: !def.readOnly,
        updateable: !def.readOnly && !def.createOnly,
        ...(def.max !== undefined ? { length: def.max } : {}),
        ...(def.refersTo ? { referenceTo: def.refersTo } : {}),
        ...(def.kind === 'picklist'
          ? {
              restrictedPicklist: true,
              picklistValues: def.orgPicklist
                ? picklists[def.orgPicklist].map((e) => ({
                    value: e.value,
                    label: e.label ?? e.value,
                    active: e.active !== false,
                    defaultValue: e.defaultValue === true,
                    validFor: null,
                  }))
                : def.values!.map((v) => ({
                    value: v,
                    label: v,
                    active: true,
                    defaultValue: false,
                    validFor: null,
                  })),
            }
          : {}),
      }));
    return {
      name: type,
      createable: true,
      updateable: true,
      fields: [{ name: 'Id', type: 'id' }, ...fields],
    };
  });

  return {
    loseCollectionCreateAnswer: (n: number) => {
      loseCreate = n;
    },
  };
}
