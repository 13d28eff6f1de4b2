// Collection query parameters: page, limit (a page holds at most 5000 rows, or the page cap), filter
// (JSON conditions), group_by, sort and dir; and the API settings that order and cap pages.
import { z } from 'zod';
import type { CollectionQuery, FilterCondition, Table } from '../store';
import { MAX_LIMIT, type ApiSettings } from './api-settings';
import { badRequest } from './http-error';

/** Page size when a request omits `limit` (the spec does not say; 1000 keeps pages moderate). */
export const DEFAULT_LIMIT = 1000;

const FILTER_OPERATORS = ['eq', '=', 'like', 'gt', 'gte', 'lt', 'lte'] as const;

const integerParam = (what: string) =>
  z
    .string()
    .regex(/^\d+$/, `must be ${what}`)
    .transform(Number)
    .pipe(z.number().min(1, `must be ${what}`).max(Number.MAX_SAFE_INTEGER, `must be ${what}`));

/**
 * Any positive `limit` is taken and the page is cut to 5000 (the spec's maximum) or to a lower page cap:
 * the real platform evidently answers the community Singer tap, written against the live API, with a
 * page of at most 5000 (afonsodiniz/tap-voipstudio tap_voipstudio/client.py: "5.000 rows ... max of the
 * API"); the caller reads `total` to know more remain.
 */
const paramsShape = z.object({
  page: integerParam('a positive integer').optional(),
  limit: integerParam('a positive integer').optional(),
  filter: z.string().optional(),
  group_by: z
    .string()
    .regex(/^[A-Za-z0-9_]+$/, 'must be a property name')
    .optional(),
  // Not in the spec; the platform's official CLI asks for the most recent first with sort and dir.
  sort: z
    .string()
    .regex(/^[A-Za-z0-9_]+$/, 'must be a property name')
    .optional(),
  dir: z
    .string()
    .transform((d) => d.toLowerCase())
    .pipe(z.enum(['asc', 'desc'], { error: 'must be ASC or DESC' }))
    .optional(),
});

const conditionSchema = z.object({
  property: z.string().min(1, 'must be a property name'),
  operator: z
    .string()
    .transform((op) => op.toLowerCase())
    .pipe(z.enum(FILTER_OPERATORS, { error: `must be one of ${FILTER_OPERATORS.join(', ')}` })),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()], {
    error: 'must be a string, number, boolean or null',
  }),
});

const filterSchema = z.array(conditionSchema, {
  error: 'must be a JSON array of {property, operator, value}',
});

/** Repeated query parameters arrive as arrays; the last one wins. */
function scalar(value: unknown): unknown {
  return Array.isArray(value) ? (value as unknown[]).at(-1) : value;
}

function describe(path: readonly PropertyKey[], prefix: string): string {
  return path.reduce<string>(
    (acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : `${acc}.${String(key)}`),
    prefix,
  );
}

/**
 * Reads page/limit/filter/group_by/sort/dir from a query string object; throws 400 naming the bad
 * parameter. `api` may list newest first when the request names no order, and cap the page: page N is then
 * rows [(N-1)·e, N·e) with e = min(limit, cap), so pages read one after another still cover every row once.
 */
export function parseCollectionQuery(
  query: Readonly<Record<string, unknown>>,
  api?: Readonly<ApiSettings>,
): CollectionQuery {
  const cap = Math.min(api?.page_cap ?? MAX_LIMIT, MAX_LIMIT);
  const params = paramsShape.safeParse({
    page: scalar(query.page),
    limit: scalar(query.limit),
    filter: scalar(query.filter),
    group_by: scalar(query.group_by),
    sort: scalar(query.sort),
    dir: scalar(query.dir),
  });
  if (!params.success) {
    throw badRequest(
      'Invalid query parameters',
      params.error.issues.map((i) => `${describe(i.path.slice(1), String(i.path[0]))}: ${i.message}`),
    );
  }
  const { page = 1, limit = DEFAULT_LIMIT, filter, group_by, sort, dir } = params.data;
  const q: CollectionQuery = {
    page,
    limit: Math.min(limit, cap),
    filter: parseFilter(filter),
  };
  if (group_by !== undefined && group_by !== '') q.groupBy = group_by;
  if ((sort !== undefined && sort !== '') || dir !== undefined)
    q.sort = { property: sort !== undefined && sort !== '' ? sort : 'id', desc: dir === 'desc' };
  else if (api?.default_order === 'desc') q.sort = { property: 'id', desc: true };
  return q;
}

/**
 * 400 for a filter or sort on a property the resource does not have: the live API answers
 * "Filtration error" (as the official CLI documents), where a plain match would give an empty 200.
 */
export function checkQueryProperties(table: Table, q: CollectionQuery): void {
  const unknown = [
    ...q.filter.map((c, i) => [`filter[${i}].property`, c.property] as const),
    ...(q.sort !== undefined ? [['sort', q.sort.property] as const] : []),
  ].filter(([, property]) => property !== 'id' && table.hasProperty(property) === false);
  if (unknown.length > 0) {
    throw badRequest(
      'Filtration error',
      unknown.map(([where, property]) => `${where}: ${table.name} have no property "${property}"`),
    );
  }
}

/** Parses the `filter` JSON: an array of {property, operator, value} (a single object is accepted too). */
export function parseFilter(raw: string | undefined): FilterCondition[] {
  if (raw === undefined || raw.trim() === '') return [];
  let decoded: unknown;
  try {
    decoded = JSON.parse(raw);
  } catch {
    throw badRequest('Invalid filter', ['filter: is not valid JSON']);
  }
  // Be liberal: a single condition object stands for a list of one.
  const list: unknown =
    decoded !== null && typeof decoded === 'object' && !Array.isArray(decoded) ? [decoded] : decoded;
  const parsed = filterSchema.safeParse(list);
  if (parsed.success) return parsed.data;
  throw badRequest(
    'Invalid filter',
    parsed.error.issues.map((i) => `${describe(i.path, 'filter')}: ${i.message}`),
  );
}
