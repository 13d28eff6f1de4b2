// The Salesforce test server's sObject endpoints: create, update and delete of one record, and sObject
// Collections create, update and delete (at most 200 records a request, results in request order),
// under the duplicate rules (salesforce-duplicates.ts). Validation and writes are salesforce-records.ts;
// registered by salesforce-server.ts, which passes its shared state in.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SalesforceError, isRecord } from './salesforce-errors';
import type { DuplicateRules, FakeRecord, Records, SalesforceState } from './salesforce-state';

/** Most records one sObject Collections request takes. */
export const COLLECTION_MAX = 200;

/** `Sforce-Duplicate-Rule-Header: allowSave=true; …` on the request. */
const allowSave = (req: FastifyRequest) =>
  /(?:^|;)\s*allowSave\s*=\s*true\b/i.test(String(req.headers['sforce-duplicate-rule-header'] ?? ''));

/** Registers the sObject and sObject Collections endpoints; returns the injected fault they obey. */
export function registerSObjectRoutes(
  app: FastifyInstance,
  s: SalesforceState,
  records: Records,
  duplicates: DuplicateRules,
) {
  const { store, base, createdAt } = s;
  const { typeOf, validate, insert, update, live, destroy } = records;
  const { checkDuplicates } = duplicates;
  let loseCreate = 0;
  /** A record created through the API: it enters the search index indexDelay later. */
  const created = (record: FakeRecord) => {
    createdAt.set(record.Id, Date.now());
    return record;
  };

  app.post(`${base}/sobjects/:type`, async (req: FastifyRequest, reply: FastifyReply) => {
    const type = typeOf((req.params as { type: string }).type);
    const fields = validate(type, req.body, 'create');
    checkDuplicates(type, fields, allowSave(req));
    const record = created(insert(type, fields));
    return reply.code(201).send({ id: record.Id, success: true, errors: [] });
  });

  app.patch(`${base}/sobjects/:type/:id`, async (req: FastifyRequest, reply: FastifyReply) => {
    const { type, id } = req.params as { type: string; id: string };
    update(typeOf(type), id, req.body, allowSave(req));
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
        update(typeOf(attrs.type), id, r, allowSave(req));
        return { id, success: true, errors: [] };
      } catch (err) {
        if (!(err instanceof SalesforceError)) throw err;
        return { success: false, errors: [err.asRecordError()] };
      }
    });
  });

  return {
    /** The `n`th collections create from now saves its records but answers 503 (FakeSalesforce). */
    loseCollectionCreateAnswer: (n: number) => {
      loseCreate = n;
    },
  };
}
