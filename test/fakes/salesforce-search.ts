// The Salesforce test server's SOSL: FIND {…} IN PHONE FIELDS RETURNING Contact(…), Lead(…), matching
// phone digits (a predicate of this fake, not Salesforce's own tokenisation), with records created
// through the API unfindable for searchIndexDelayMs as Salesforce indexes asynchronously
// (https://developer.salesforce.com/docs/platform/salesforce-large-data-volumes-bp/guide/ldv-deployments-concepts-search-architecture.html).
// Registered by salesforce-server.ts, which passes its shared state in.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SalesforceError, digits } from './salesforce-errors';
import { PHONE_FIELDS, type SalesforceState } from './salesforce-schema';
import type { SoqlHelpers } from './salesforce-query';

/** The search endpoint. */
export function registerSearchRoute(
  app: FastifyInstance,
  s: SalesforceState,
  q: Pick<SoqlHelpers, 'project' | 'whereFilter'>,
): void {
  const { store, base, createdAt } = s;
  const { project, whereFilter } = q;

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
        if (r.type !== type || r.IsDeleted || !filter(r)) continue;
        if ((createdAt.get(r.Id) ?? -Infinity) + s.indexDelay() > Date.now()) continue; // not indexed yet
        const phones = (PHONE_FIELDS[type] ?? []).map((f) => digits(r.fields[f])).filter(Boolean);
        if (phones.some((p) => terms.some((t) => p === t || (t.length >= 7 && p.endsWith(t))))) {
          searchRecords.push(project(r, fields));
        }
      }
    }
    return { searchRecords };
  }

  app.get(`${base}/search`, async (req: FastifyRequest) => search((req.query as { q?: string }).q ?? ''));
}
