// The COQL the Zoho test server understands (https://www.zoho.com/crm/developer/docs/api/v8/COQL-Overview.html,
// get-records-through-coql-query.html): `select <fields> from <module> where <condition> [and
// <condition>]… [order by <field> asc|desc] [limit [<offset>,] <count>]`, a condition being
// `<field> = '<value>'`, `<field> >= '<value>'` or `<field> is not null`. A WHERE clause is mandatory in
// Zoho's COQL; LIMIT is at most 2000 (200 by default), and OFFSET plus LIMIT at most 100,000 in v8.
// Anything else is answered SYNTAX_ERROR, as Zoho answers a query it cannot read: stricter than Zoho,
// never kinder.

export type CoqlCondition =
  { field: string; op: '=' | '>='; value: string } | { field: string; op: 'is not null' };

export interface CoqlQuery {
  fields: string[];
  module: string;
  where: CoqlCondition[];
  orderBy: { field: string; desc: boolean } | null;
  limit: number;
  offset: number;
}

/** COQL's documented most rows in one query. */
export const COQL_MAX_LIMIT = 2000;
/**
 * The most records LIMIT and OFFSET reach together in v8 (offset + limit); past them a query must
 * start elsewhere (https://www.zoho.com/crm/developer/docs/api/v8/COQL-Limitations.html).
 */
export const COQL_MAX_OFFSET_ROWS = 100_000;
const COQL_DEFAULT_LIMIT = 200;

const SHAPE =
  /^select\s+([\w$.,\s]+?)\s+from\s+(\w+)\s+where\s+(.+?)(?:\s+order\s+by\s+(\w+)(?:\s+(asc|desc))?)?(?:\s+limit\s+(\d+)(?:\s*,\s*(\d+))?)?\s*$/i;
const CONDITION = /^(\w+)\s*(?:(=|>=)\s*'((?:[^'\\]|\\.)*)'|(is\s+not\s+null))$/i;

/** The query, or the reason Zoho would refuse it. */
export function parseCoql(text: string): CoqlQuery | { error: string } {
  const m = SHAPE.exec(text.trim());
  if (!m) return { error: 'the query is not of a form this test server implements' };
  const where: CoqlCondition[] = [];
  for (const part of m[3]!.split(/\s+and\s+/i)) {
    const c = CONDITION.exec(part.trim().replace(/^\((.*)\)$/, '$1'));
    if (!c) return { error: `unsupported condition: ${part}` };
    if (c[4]) where.push({ field: c[1]!, op: 'is not null' });
    else where.push({ field: c[1]!, op: c[2] as '=' | '>=', value: c[3]!.replace(/\\(.)/g, '$1') });
  }
  // Zoho's `limit <offset>, <count>` form.
  const [offset, limit] = m[7] ? [Number(m[6]), Number(m[7])] : [0, m[6] ? Number(m[6]) : COQL_DEFAULT_LIMIT];
  if (limit < 1 || limit > COQL_MAX_LIMIT) return { error: `limit must be 1 to ${COQL_MAX_LIMIT}` };
  if (offset + limit > COQL_MAX_OFFSET_ROWS)
    return { error: `offset and limit reach at most ${COQL_MAX_OFFSET_ROWS} records` };
  return {
    fields: m[1]!.split(',').map((f) => f.trim()),
    module: m[2]!,
    where,
    orderBy: m[4] ? { field: m[4], desc: (m[5] ?? 'asc').toLowerCase() === 'desc' } : null,
    limit,
    offset,
  };
}
