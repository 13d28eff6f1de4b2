// The COQL the Zoho test server understands (https://www.zoho.com/crm/developer/docs/api/v8/COQL-Overview.html,
// get-records-through-coql-query.html): `select <fields> from <module> where <field> = '<value>'
// [order by <field> asc|desc] [limit <n>[, <offset>]]`. A WHERE clause is mandatory in Zoho's COQL; LIMIT
// is at most 2000 (200 by default). Anything else is answered SYNTAX_ERROR, as Zoho answers a query it
// cannot read: stricter than Zoho, never kinder.

export interface CoqlQuery {
  fields: string[];
  module: string;
  where: { field: string; value: string };
  orderBy: { field: string; desc: boolean } | null;
  limit: number;
  offset: number;
}

/** COQL's documented most rows in one query. */
export const COQL_MAX_LIMIT = 2000;
const COQL_DEFAULT_LIMIT = 200;

const SHAPE =
  /^select\s+([\w$,\s]+?)\s+from\s+(\w+)\s+where\s+(\w+)\s*=\s*'((?:[^'\\]|\\.)*)'(?:\s+order\s+by\s+(\w+)(?:\s+(asc|desc))?)?(?:\s+limit\s+(\d+)(?:\s*,\s*(\d+))?)?\s*$/i;

/** The query, or the reason Zoho would refuse it. */
export function parseCoql(text: string): CoqlQuery | { error: string } {
  const m = SHAPE.exec(text.trim());
  if (!m) return { error: 'the query is not of a form this test server implements' };
  const limit = m[7] ? Number(m[7]) : COQL_DEFAULT_LIMIT;
  if (limit < 1 || limit > COQL_MAX_LIMIT) return { error: `limit must be 1 to ${COQL_MAX_LIMIT}` };
  return {
    fields: m[1]!.split(',').map((f) => f.trim()),
    module: m[2]!,
    where: { field: m[3]!, value: m[4]!.replace(/\\(.)/g, '$1') },
    orderBy: m[5] ? { field: m[5], desc: (m[6] ?? 'asc').toLowerCase() === 'desc' } : null,
    // Zoho's `limit <offset>, <count>` form.
    ...(m[8] ? { limit: Number(m[8]), offset: limit } : { limit, offset: 0 }),
  };
}
