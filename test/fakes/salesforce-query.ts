// The Salesforce test server's SOQL: query and queryAll (records in the recycle bin too) with
// SELECT … FROM … WHERE … ORDER BY … LIMIT, relationship fields such as Account.Name, and queryMore
// paging by locator (at most a page of records a request, Salesforce's default batch size 2000).
// Registered by salesforce-server.ts, which passes its shared state in; SOSL is salesforce-sosl.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SalesforceError } from './salesforce-errors';
import { SCHEMA } from './salesforce-schema';
import type { FakeRecord, SalesforceState, Soql } from './salesforce-state';

/** Records one query page holds (Salesforce's default batch size); the rest come by queryMore. */
export const QUERY_PAGE = 2000;

/** `v <op> value` as SOQL compares: null only with = and !=, datetimes as instants. */
function compareSoql(v: unknown, op: string, value: unknown): boolean {
  if (value === null || v === null || v === undefined) {
    const isNull = v === null || v === undefined;
    if (op === '=') return value === null ? isNull : false;
    if (op === '!=') return value === null ? !isNull : !isNull;
    return false;
  }
  if (value instanceof Date) {
    const d = Date.parse((typeof v === 'string' ? v : '').replace(/\+0000$/, 'Z'));
    const t = value.getTime();
    return { '=': d === t, '!=': d !== t, '>': d > t, '>=': d >= t, '<': d < t, '<=': d <= t }[op] ?? false;
  }
  if (op === '=') return v === value;
  if (op === '!=') return v !== value;
  const [a, b] = [v as string | number, value as string | number];
  return { '>': a > b, '>=': a >= b, '<': a < b, '<=': a <= b }[op] ?? false;
}

/** Field values, projections, WHERE clauses and SOQL queries over the server's records. */
export function soqlHelpers(s: SalesforceState): Soql {
  const { store, setup, base, pageSize, attributes } = s;
  /** Query cursors: the rest of a result, by locator. */
  const cursors = new Map<string, { fields: string[]; hits: FakeRecord[] }>();
  let cursorCounter = 1;

  const fieldValue = (r: FakeRecord, f: string): unknown => {
    if (f === 'Id') return r.Id;
    if (f === 'CreatedDate' || f === 'LastModifiedDate' || f === 'SystemModstamp')
      return r[f].replace('Z', '+0000');
    if (f === 'IsDeleted') return r.IsDeleted;
    // A person's Name is compound (first and last); Account's and PermissionSet's are fields.
    if (f === 'Name' && (r.type === 'Contact' || r.type === 'Lead' || r.type === 'User'))
      return [r.fields.FirstName, r.fields.LastName].filter(Boolean).join(' ');
    if (!(f in SCHEMA[r.type]) || !setup.visible(r.type, f))
      throw new SalesforceError(400, 'INVALID_FIELD', `No such column '${f}' on entity '${r.type}'`);
    return r.fields[f] ?? null;
  };
  /** A relationship (`Account.Name`): the parent record's fields nested, or null without a parent. */
  const related = (r: FakeRecord, path: string): [string, unknown] => {
    const [rel, field] = path.split('.') as [string, string];
    const def = SCHEMA[r.type][`${rel}Id`];
    if (!def || def.kind !== 'reference')
      throw new SalesforceError(
        400,
        'INVALID_FIELD',
        `Didn't understand relationship '${rel}' in field path. If you are attempting to use a custom relationship, be sure to append the '__r' after the custom relationship name.`,
      );
    const parentId = r.fields[`${rel}Id`];
    const parent = typeof parentId === 'string' ? store.get(parentId) : undefined;
    return [rel, parent ? { attributes: attributes(parent), [field]: fieldValue(parent, field) } : null];
  };
  const project = (r: FakeRecord, fields: string[]) => ({
    attributes: attributes(r),
    ...Object.fromEntries(fields.map((f) => (f.includes('.') ? related(r, f) : [f, fieldValue(r, f)]))),
  });

  function parseValue(text: string): unknown {
    if (/^'(?:[^'\\]|\\.)*'$/.test(text)) return text.slice(1, -1).replace(/\\(.)/g, '$1');
    if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
    if (/^-?\d+$/.test(text)) return Number(text);
    if (/^null$/i.test(text)) return null;
    // A datetime literal (unquoted in SOQL), compared as an instant.
    if (/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})$/.test(text)) return new Date(text);
    throw new SalesforceError(400, 'MALFORMED_QUERY', `unexpected token: ${text}`);
  }

  /** Conditions `Field <op> value` (=, !=, <, <=, >, >=; null, datetimes) or `Field IN (…)` joined by AND. */
  function whereFilter(clause: string | undefined): (r: FakeRecord) => boolean {
    if (!clause) return () => true;
    const conds = clause.split(/\s+AND\s+/i).map((c) => {
      const list = /^(\w+)\s+IN\s*\((.+)\)$/i.exec(c.trim());
      if (list) {
        const values = (list[2]!.match(/'(?:[^'\\]|\\.)*'|[^,\s]+/g) ?? []).map(parseValue);
        return { field: list[1]!, test: (v: unknown) => values.includes(v) };
      }
      const m = /^(\w+)\s*(!=|>=|<=|=|>|<)\s*(.+)$/.exec(c.trim());
      if (!m) throw new SalesforceError(400, 'MALFORMED_QUERY', `unexpected token: ${c}`);
      const value = parseValue(m[3]!.trim());
      return { field: m[1]!, test: (v: unknown) => compareSoql(v, m[2]!, value) };
    });
    return (r) => conds.every((c) => c.test(fieldValue(r, c.field)));
  }

  /** One page of a result; the rest kept behind a locator for queryMore. */
  function page(fields: string[], hits: FakeRecord[], totalSize: number) {
    const records = hits.slice(0, pageSize).map((r) => project(r, fields));
    if (hits.length <= pageSize) return { totalSize, done: true, records };
    const locator = `01gD0000000${String(cursorCounter++).padStart(4, '0')}-${pageSize}`;
    cursors.set(locator, { fields, hits: hits.slice(pageSize) });
    return { totalSize, done: false, nextRecordsUrl: `${base}/query/${locator}`, records };
  }

  /** SOQL; `all` is queryAll (records in the recycle bin too). */
  function query(soql: string, all: boolean) {
    const m =
      /^SELECT\s+(.+?)\s+FROM\s+(\w+)(?:\s+WHERE\s+(.+?))?(?:\s+ORDER\s+BY\s+(.+?))?(?:\s+LIMIT\s+(\d+))?\s*$/i.exec(
        soql.trim(),
      );
    if (!m) throw new SalesforceError(400, 'MALFORMED_QUERY', `unexpected token in: ${soql}`);
    const fields = m[1]!.split(',').map((f) => f.trim());
    const type = m[2]!;
    if (!(type in SCHEMA))
      throw new SalesforceError(400, 'INVALID_TYPE', `sObject type '${type}' is not supported.`);
    const filter = whereFilter(m[3]);
    let hits = [...store.values()].filter((r) => r.type === type && (all || !r.IsDeleted) && filter(r));
    if (m[4]) {
      const keys = m[4].split(',').map((k) => {
        const o = /^(\w+)(?:\s+(ASC|DESC))?$/i.exec(k.trim());
        if (!o) throw new SalesforceError(400, 'MALFORMED_QUERY', `unexpected token: ${k}`);
        return { field: o[1]!, dir: (o[2] ?? 'ASC').toUpperCase() === 'DESC' ? -1 : 1 };
      });
      // Ties on every key fall back to creation order, as ids grow.
      hits = hits.sort((a, b) => {
        for (const { field, dir } of keys) {
          const [x, y] = [fieldValue(a, field), fieldValue(b, field)];
          const c =
            typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
          if (c !== 0) return dir * c;
        }
        return a.Id.localeCompare(b.Id);
      });
    }
    if (m[5]) hits = hits.slice(0, Number(m[5]));
    return page(fields, hits, hits.length);
  }

  function queryMore(locator: string) {
    const cursor = cursors.get(locator);
    if (!cursor) throw new SalesforceError(400, 'INVALID_QUERY_LOCATOR', 'invalid query locator');
    cursors.delete(locator);
    return page(cursor.fields, cursor.hits, cursor.hits.length);
  }

  return { whereFilter, project, query, queryMore };
}

/** query, queryAll and their queryMore locators. */
export function registerQueryRoutes(app: FastifyInstance, base: string, soql: Soql): void {
  const { query, queryMore } = soql;
  app.get(`${base}/query`, async (req: FastifyRequest) =>
    query((req.query as { q?: string }).q ?? '', false),
  );
  app.get(`${base}/queryAll`, async (req: FastifyRequest) =>
    query((req.query as { q?: string }).q ?? '', true),
  );
  app.get(`${base}/query/:locator`, async (req: FastifyRequest) =>
    queryMore((req.params as { locator: string }).locator),
  );
  app.get(`${base}/queryAll/:locator`, async (req: FastifyRequest) =>
    queryMore((req.params as { locator: string }).locator),
  );
}
