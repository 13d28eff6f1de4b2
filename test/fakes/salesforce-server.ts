// A local Salesforce for tests: the REST API calls callsync's Salesforce connector makes through
// jsforce (sObject create and update for Task and Contact, sObject Collections update, SOQL query and
// SOSL phone search), checking field names, types, picklists, create-only fields and references as
// Salesforce does, and answering errors in its format (`[{ message, errorCode, fields }]`).
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

export type SObjectType = 'Task' | 'Contact' | 'Lead' | 'User';

export interface FakeRecord {
  Id: string;
  type: SObjectType;
  fields: Record<string, unknown>;
  CreatedDate: string;
  LastModifiedDate: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: string | null;
  body: unknown;
  status: number;
}

export interface FakeSalesforce {
  /** Instance URL for jsforce. */
  url: string;
  token: string;
  version: string;
  requests: RecordedRequest[];
  records(type: SObjectType): FakeRecord[];
  seed(type: Exclude<SObjectType, 'Task'>, fields: Record<string, unknown>, lastModified?: string): string;
  /** The next `count` requests are refused with REQUEST_LIMIT_EXCEEDED (the org's 24-hour API limit). */
  limitExceededNext(count: number): void;
  close(): Promise<void>;
}

type Kind = 'string' | 'textarea' | 'int' | 'date' | 'boolean' | 'reference' | 'picklist';
interface FieldDef {
  kind: Kind;
  max?: number;
  values?: string[];
  /** Settable on create only (Salesforce refuses it in an update). */
  createOnly?: boolean;
  /** Read-only: never settable. */
  readOnly?: boolean;
  refersTo?: SObjectType[];
}

const TASK: Record<string, FieldDef> = {
  Subject: { kind: 'string', max: 255 },
  Description: { kind: 'textarea', max: 32_000 },
  Status: {
    kind: 'picklist',
    values: ['Not Started', 'In Progress', 'Completed', 'Waiting on someone else', 'Deferred'],
  },
  Priority: { kind: 'picklist', values: ['High', 'Normal', 'Low'] },
  ActivityDate: { kind: 'date' },
  TaskSubtype: {
    kind: 'picklist',
    values: ['Task', 'Email', 'ListEmail', 'Cadence', 'Call', 'LinkedIn'],
    createOnly: true,
  },
  CallType: { kind: 'picklist', values: ['Internal', 'Inbound', 'Outbound'] },
  CallDurationInSeconds: { kind: 'int' },
  CallDisposition: { kind: 'string', max: 255 },
  CallObject: { kind: 'string', max: 255 },
  WhoId: { kind: 'reference', refersTo: ['Contact', 'Lead'] },
  OwnerId: { kind: 'reference', refersTo: ['User'] },
};
const PERSON: Record<string, FieldDef> = {
  FirstName: { kind: 'string', max: 40 },
  LastName: { kind: 'string', max: 80 },
  Phone: { kind: 'string', max: 40 },
  MobilePhone: { kind: 'string', max: 40 },
  Email: { kind: 'string', max: 80 },
  OwnerId: { kind: 'reference', refersTo: ['User'] },
  Company: { kind: 'string', max: 255 },
  IsConverted: { kind: 'boolean' },
  IsActive: { kind: 'boolean' },
};
const SCHEMA: Record<SObjectType, Record<string, FieldDef>> = {
  Task: TASK,
  Contact: PERSON,
  Lead: PERSON,
  User: PERSON,
};
const REQUIRED: Record<SObjectType, string[]> = {
  Task: [],
  Contact: ['LastName'],
  Lead: ['LastName', 'Company'],
  User: [],
};
const DEFAULTS: Record<SObjectType, Record<string, unknown>> = {
  Task: { Status: 'Not Started', Priority: 'Normal', TaskSubtype: 'Task' },
  Contact: {},
  Lead: { IsConverted: false },
  User: { IsActive: true },
};
const PREFIX: Record<SObjectType, string> = { Task: '00T', Contact: '003', Lead: '00Q', User: '005' };

class SalesforceError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly fields: string[] = [],
  ) {
    super(message);
  }
  toJSON() {
    return { message: this.message, errorCode: this.errorCode, fields: this.fields };
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const digits = (s: unknown) => (typeof s === 'string' ? s.replace(/\D/g, '') : '');

export interface FakeSalesforceOptions {
  token?: string;
  version?: string;
  /**
   * Task fields the user's Field-Level Security hides ('CallObject'): absent from the describe, and
   * refused in writes as Salesforce refuses a field the user cannot see.
   */
  hiddenTaskFields?: string[];
}

export async function startFakeSalesforce(opts: FakeSalesforceOptions = {}): Promise<FakeSalesforce> {
  const hidden = new Set(opts.hiddenTaskFields ?? []);
  const token = opts.token ?? '00Dfake!session';
  const version = opts.version ?? '62.0';
  const store = new Map<string, FakeRecord>();
  const requests: RecordedRequest[] = [];
  let counter = 1;
  let limitExceeded = 0;

  const newId = (type: SObjectType) => `${PREFIX[type]}${String(counter++).padStart(12, '0')}AAA`;
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
      const def = type === 'Task' && hidden.has(name) ? undefined : schema[name];
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
        case 'picklist':
          if (typeof value !== 'string') throw wrongType();
          if (!def.values!.includes(value)) {
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
          break;
        }
      }
      out[name] = value;
    }
    if (mode === 'create') {
      const missing = REQUIRED[type].filter((f) => out[f] === undefined || out[f] === null || out[f] === '');
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
    const now = new Date().toISOString();
    const record: FakeRecord = {
      Id: newId(type),
      type,
      fields: { ...DEFAULTS[type], ...fields },
      CreatedDate: now,
      LastModifiedDate: lastModified ?? now,
    };
    store.set(record.Id, record);
    return record;
  }

  function update(type: SObjectType, id: string, input: unknown) {
    const record = store.get(id);
    if (!record || record.type !== type)
      throw new SalesforceError(404, 'NOT_FOUND', 'The requested resource does not exist');
    Object.assign(record.fields, validate(type, input, 'update'));
    record.LastModifiedDate = new Date().toISOString();
  }

  const base = `/services/data/v${version}`;
  const attributes = (r: FakeRecord) => ({ type: r.type, url: `${base}/sobjects/${r.type}/${r.Id}` });
  const fieldValue = (r: FakeRecord, f: string): unknown => {
    if (f === 'Id') return r.Id;
    if (f === 'CreatedDate' || f === 'LastModifiedDate') return r[f].replace('Z', '+0000');
    if (f === 'Name') return [r.fields.FirstName, r.fields.LastName].filter(Boolean).join(' ');
    if (!(f in SCHEMA[r.type]))
      throw new SalesforceError(400, 'INVALID_FIELD', `No such column '${f}' on entity '${r.type}'`);
    return r.fields[f] ?? null;
  };
  const project = (r: FakeRecord, fields: string[]) => ({
    attributes: attributes(r),
    ...Object.fromEntries(fields.map((f) => [f, fieldValue(r, f)])),
  });

  function parseValue(text: string): unknown {
    if (/^'(?:[^'\\]|\\.)*'$/.test(text)) return text.slice(1, -1).replace(/\\(.)/g, '$1');
    if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
    if (/^-?\d+$/.test(text)) return Number(text);
    throw new SalesforceError(400, 'MALFORMED_QUERY', `unexpected token: ${text}`);
  }

  /** Conditions `Field = value` joined by AND (the subset callsync sends). */
  function whereFilter(clause: string | undefined): (r: FakeRecord) => boolean {
    if (!clause) return () => true;
    const conds = clause.split(/\s+AND\s+/i).map((c) => {
      const m = /^(\w+)\s*=\s*(.+)$/.exec(c.trim());
      if (!m) throw new SalesforceError(400, 'MALFORMED_QUERY', `unexpected token: ${c}`);
      return { field: m[1]!, value: parseValue(m[2]!.trim()) };
    });
    return (r) => conds.every((c) => fieldValue(r, c.field) === c.value);
  }

  function query(soql: string) {
    const m =
      /^SELECT\s+(.+?)\s+FROM\s+(\w+)(?:\s+WHERE\s+(.+?))?(?:\s+ORDER\s+BY\s+(\w+)(?:\s+(ASC|DESC))?)?(?:\s+LIMIT\s+(\d+))?\s*$/i.exec(
        soql.trim(),
      );
    if (!m) throw new SalesforceError(400, 'MALFORMED_QUERY', `unexpected token in: ${soql}`);
    const fields = m[1]!.split(',').map((f) => f.trim());
    const type = m[2]!;
    if (!(type in SCHEMA))
      throw new SalesforceError(400, 'INVALID_TYPE', `sObject type '${type}' is not supported.`);
    const filter = whereFilter(m[3]);
    let hits = [...store.values()].filter((r) => r.type === type && filter(r));
    if (m[4]) {
      const dir = (m[5] ?? 'ASC').toUpperCase() === 'DESC' ? -1 : 1;
      const key = m[4];
      // Ties on the timestamp fall back to creation order, as ids grow.
      hits = hits.sort(
        (a, b) =>
          dir *
          (String(fieldValue(a, key)).localeCompare(String(fieldValue(b, key))) || a.Id.localeCompare(b.Id)),
      );
    }
    if (m[6]) hits = hits.slice(0, Number(m[6]));
    return { totalSize: hits.length, done: true, records: hits.map((r) => project(r, fields)) };
  }

  function search(sosl: string) {
    const m = /^FIND\s+\{(.+?)\}\s+IN\s+PHONE\s+FIELDS\s+RETURNING\s+(.+)$/i.exec(sosl.trim());
    if (!m)
      throw new SalesforceError(
        400,
        'MALFORMED_SEARCH',
        `this fake supports FIND {…} IN PHONE FIELDS RETURNING … only: ${sosl}`,
      );
    const terms = m[1]!.split(/\s+OR\s+/i).map((t) => t.trim());
    if (terms.some((t) => /[?&|!{}[\]()^~*:\\"'+-]/.test(t))) {
      throw new SalesforceError(
        400,
        'MALFORMED_SEARCH',
        'reserved characters in the search term must be escaped',
      );
    }
    const searchRecords: unknown[] = [];
    for (const part of m[2]!.matchAll(/(\w+)\s*\(([^)]*)\)/g)) {
      const type = part[1]!;
      if (type !== 'Contact' && type !== 'Lead')
        throw new SalesforceError(400, 'INVALID_TYPE', `sObject type '${type}' is not supported here`);
      const [fieldList, where] = part[2]!.split(/\s+WHERE\s+/i);
      const fields = fieldList!.split(',').map((f) => f.trim());
      const filter = whereFilter(where);
      for (const r of store.values()) {
        if (r.type !== type || !filter(r)) continue;
        const phones = [digits(r.fields.Phone), digits(r.fields.MobilePhone)].filter(Boolean);
        if (phones.some((p) => terms.some((t) => p === t || (t.length >= 7 && p.endsWith(t))))) {
          searchRecords.push(project(r, fields));
        }
      }
    }
    return { searchRecords };
  }

  const app = Fastify({ logger: false, bodyLimit: 5 * 1024 * 1024 });
  app.addHook('onRequest', async (req, reply) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      return reply
        .code(401)
        .send([{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }]);
    }
    if (limitExceeded > 0) {
      limitExceeded--;
      return reply
        .code(403)
        .send([{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }]);
    }
  });
  app.addHook('onResponse', async (req, reply) => {
    const [path, query] = req.url.split('?');
    requests.push({
      method: req.method,
      path: path!,
      query: query ?? null,
      body: req.body ?? null,
      status: reply.statusCode,
    });
  });
  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof SalesforceError) return reply.code(err.status).send([err.toJSON()]);
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    return reply.code(status).send([
      {
        message: (err as Error).message,
        errorCode: status === 400 ? 'JSON_PARSER_ERROR' : 'UNKNOWN_EXCEPTION',
      },
    ]);
  });

  app.post(`${base}/sobjects/:type`, async (req: FastifyRequest, reply: FastifyReply) => {
    const type = typeOf((req.params as { type: string }).type);
    const record = insert(type, validate(type, req.body, 'create'));
    return reply.code(201).send({ id: record.Id, success: true, errors: [] });
  });

  app.patch(`${base}/sobjects/:type/:id`, async (req: FastifyRequest, reply: FastifyReply) => {
    const { type, id } = req.params as { type: string; id: string };
    update(typeOf(type), id, req.body);
    return reply.code(204).send();
  });

  app.patch(`${base}/composite/sobjects`, async (req: FastifyRequest) => {
    const body = req.body;
    if (!isRecord(body) || !Array.isArray(body.records))
      throw new SalesforceError(400, 'JSON_PARSER_ERROR', 'records is required');
    if (body.records.length > 200)
      throw new SalesforceError(
        400,
        'EXCEEDED_ID_LIMIT',
        'record limit reached. cannot submit more than 200 records into this call',
      );
    return body.records.map((rec: unknown) => {
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
      .filter(([name]) => !(type === 'Task' && hidden.has(name)))
      .map(([name, def]) => ({
        name,
        type: def.kind,
        createable: !def.readOnly,
        updateable: !def.readOnly && !def.createOnly,
        ...(def.max !== undefined ? { length: def.max } : {}),
        ...(def.refersTo ? { referenceTo: def.refersTo } : {}),
      }));
    return {
      name: type,
      createable: true,
      updateable: true,
      fields: [{ name: 'Id', type: 'id' }, ...fields],
    };
  });

  app.get(`${base}/query`, async (req: FastifyRequest) => query((req.query as { q?: string }).q ?? ''));
  app.get(`${base}/search`, async (req: FastifyRequest) => search((req.query as { q?: string }).q ?? ''));

  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('fake Salesforce did not bind a port');

  return {
    url: `http://127.0.0.1:${address.port}`,
    token,
    version,
    requests,
    records: (type) => [...store.values()].filter((r) => r.type === type),
    seed: (type, fields, lastModified) => insert(type, fields, lastModified).Id,
    limitExceededNext: (count) => {
      limitExceeded = count;
    },
    close: () => app.close(),
  };
}
