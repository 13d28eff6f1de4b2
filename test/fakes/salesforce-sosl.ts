// The Salesforce test server's SOSL endpoint: FIND {…} IN PHONE FIELDS RETURNING Contact(…), Lead(…)
// with WHERE clauses, matched on the search index's tokens as salesforce-search.ts models them, at most
// 2,000 records, and without the records created less than the search index's lag ago
// (searchIndexDelayMs). Registered by salesforce-server.ts, which passes its shared state in.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SalesforceError } from './salesforce-errors';
import { findPredicate, searchTokens, SOSL_MAX_ROWS } from './salesforce-search';
import type { SalesforceState, SObjectType, Soql } from './salesforce-state';

/** The phone fields SOSL's IN PHONE FIELDS searches, per object. */
const PHONE_FIELDS: Partial<Record<SObjectType, string[]>> = {
  Contact: ['Phone', 'MobilePhone', 'HomePhone', 'OtherPhone', 'AssistantPhone'],
  Lead: ['Phone', 'MobilePhone'],
};

export function registerSearchRoute(app: FastifyInstance, s: SalesforceState, soql: Soql): void {
  const { store, createdAt, base } = s;
  const { whereFilter, project } = soql;

  function search(sosl: string) {
    const m = /^FIND\s+\{(.+?)\}\s+IN\s+PHONE\s+FIELDS\s+RETURNING\s+(.+)$/i.exec(sosl.trim());
    if (!m)
      throw new SalesforceError(
        400,
        'MALFORMED_SEARCH',
        `this fake supports FIND {…} IN PHONE FIELDS RETURNING … only: ${sosl}`,
      );
    const terms = m[1]!.split(/\s+OR\s+/i).map((t) => t.trim());
    if (terms.some((t) => /[?&|!{}[\]()^~:\\"'+-]/.test(t))) {
      throw new SalesforceError(
        400,
        'MALFORMED_SEARCH',
        'reserved characters in the search term must be escaped',
      );
    }
    // Matched on the search index's tokens (salesforce-search.ts), at most 2,000 records.
    const matches = findPredicate(m[1]!);
    const searchRecords: unknown[] = [];
    for (const part of m[2]!.matchAll(/(\w+)\s*\(([^)]*)\)/g)) {
      const type = part[1]!;
      if (type !== 'Contact' && type !== 'Lead')
        throw new SalesforceError(400, 'INVALID_TYPE', `sObject type '${type}' is not supported here`);
      const [fieldList, where] = part[2]!.split(/\s+WHERE\s+/i);
      const fields = fieldList!.split(',').map((f) => f.trim());
      const filter = whereFilter(where);
      for (const r of store.values()) {
        if (!matches || searchRecords.length >= SOSL_MAX_ROWS) break;
        if (r.type !== type || r.IsDeleted || !filter(r)) continue;
        if ((createdAt.get(r.Id) ?? -Infinity) + s.indexDelay > Date.now()) continue; // not indexed yet
        const tokens = new Set(
          (PHONE_FIELDS[type] ?? []).flatMap((f) => {
            const v = r.fields[f];
            return typeof v === 'string' ? searchTokens(v) : [];
          }),
        );
        if (matches(tokens)) searchRecords.push(project(r, fields));
      }
    }
    return { searchRecords };
  }

  app.get(`${base}/search`, async (req: FastifyRequest) => search((req.query as { q?: string }).q ?? ''));
}
