// The Zoho test server's requests on several records at once, which the contact sync sends: update
// of up to 100 records (https://www.zoho.com/crm/developer/docs/api/v8/update-records.html: PUT
// /{module}, each record naming its `id`), delete of up to 100 by id
// (https://www.zoho.com/crm/developer/docs/api/v8/delete-records.html: DELETE /{module}?ids=…), each
// record answered on its own in `data[]` (status 200, 207 when some were refused, 400 when all were:
// https://www.zoho.com/crm/developer/docs/api/v8/status-codes.html), and search by e-mail
// (https://www.zoho.com/crm/developer/docs/api/v8/search-records.html: `email` matches the record's
// e-mail fields, once indexed, at most 200 a page, 204 when nothing matches), and the list of deleted
// records (get-deleted-records.html). Built on the single-record rules of zoho-records.ts.
import { mandatoryFields } from './zoho-fields';
import { MAX_PER_PAGE, MAX_WRITE_RECORDS, batchStatus, type Answer, type ZohoRecords } from './zoho-records';

const error = (code: string, message: string, details: Record<string, unknown> = {}) => ({
  code,
  details,
  message,
  status: 'error',
});

/** The one entry of a single-record answer. */
function entryOf(a: Answer): Record<string, unknown> {
  const data = (a.body as { data?: Record<string, unknown>[] } | null)?.data;
  return data?.[0] ?? (a.body as Record<string, unknown>);
}

/**
 * PUT /{module}: every record carries its id; each is updated (or refused) as a single update is. A
 * mandatory field cannot be emptied (MANDATORY_NOT_FOUND, as on insert).
 */
export function updateMany(records: ZohoRecords, module: string, body: unknown): Answer {
  // callsync's key field is never mandatory: any name gives the module's mandatory fields.
  const mandatory = mandatoryFields('Callsync_Key')[module] ?? [];
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length === 0)
    return { status: 400, body: error('INVALID_DATA', 'body must hold a data array', { api_name: 'data' }) };
  if (data.length > MAX_WRITE_RECORDS)
    return { status: 400, body: error('LIMIT_EXCEEDED', `at most ${MAX_WRITE_RECORDS} records a request`) };
  const results = data.map((raw) => {
    const { id, ...fields } = raw as Record<string, unknown>;
    if (typeof id !== 'string' && typeof id !== 'number')
      return error('MANDATORY_NOT_FOUND', 'required field not found', { api_name: 'id' });
    const emptied = mandatory.find((f) => f in fields && (fields[f] === null || fields[f] === ''));
    if (emptied) return error('MANDATORY_NOT_FOUND', 'required field not found', { api_name: emptied, id });
    return entryOf(records.update(module, String(id), { data: [fields] }));
  });
  return { status: batchStatus(results, 200), body: { data: results } };
}

/** DELETE /{module}?ids=1,2: up to 100 ids; an unknown id is refused alone (INVALID_DATA). */
export function deleteMany(records: ZohoRecords, module: string, query: URLSearchParams): Answer {
  const ids = (query.get('ids') ?? '').split(',').filter((id) => id !== '');
  if (ids.length === 0)
    return { status: 400, body: error('REQUIRED_PARAM_MISSING', 'ids is required', { param: 'ids' }) };
  if (ids.length > MAX_WRITE_RECORDS)
    return { status: 400, body: error('LIMIT_EXCEEDED', `at most ${MAX_WRITE_RECORDS} ids a request`) };
  const results = ids.map((id) => entryOf(records.delete(module, id)));
  return { status: batchStatus(results, 200), body: { data: results } };
}

/** GET /{module}/search?email=…: records whose Email is this address (case aside), once indexed. */
export function searchEmail(records: ZohoRecords, module: string, query: URLSearchParams): Answer {
  const wanted = (query.get('email') ?? '').trim().toLowerCase();
  const perPage = Number(query.get('per_page') ?? 200);
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE)
    return {
      status: 400,
      body: error('INVALID_DATA', `per_page must be 1 to ${MAX_PER_PAGE}`, { param: 'per_page' }),
    };
  const now = Date.now();
  const hits = records
    .all(module)
    .filter(
      (r) =>
        r.indexedAt <= now &&
        typeof r.fields.Email === 'string' &&
        r.fields.Email.trim().toLowerCase() === wanted,
    );
  if (hits.length === 0) return { status: 204, body: null };
  return {
    status: 200,
    body: {
      data: hits.slice(0, perPage).map((r) => records.row(r)),
      info: {
        count: Math.min(perPage, hits.length),
        more_records: hits.length > perPage,
        page: 1,
        per_page: perPage,
      },
    },
  };
}

/**
 * GET /{module}/deleted (https://www.zoho.com/crm/developer/docs/api/v8/get-deleted-records.html):
 * `type` all (the default), recycle or permanent (everything deleted here stays in the recycle bin);
 * `page` and `per_page` (at most 200); the If-Modified-Since header keeps those deleted after that
 * time; newest first; 204 when there are none.
 */
export function deletedList(
  records: ZohoRecords,
  module: string,
  query: URLSearchParams,
  ifModifiedSince: string | undefined,
): Answer {
  const type = query.get('type') ?? 'all';
  const page = Number(query.get('page') ?? 1);
  const perPage = Number(query.get('per_page') ?? 200);
  if (!['all', 'recycle', 'permanent'].includes(type))
    return { status: 400, body: error('INVALID_DATA', 'invalid type', { param: 'type' }) };
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE || !(page >= 1))
    return { status: 400, body: error('INVALID_DATA', 'invalid page or per_page') };
  const since = ifModifiedSince === undefined ? null : Date.parse(ifModifiedSince);
  if (since !== null && Number.isNaN(since))
    return { status: 400, body: error('INVALID_DATA', 'If-Modified-Since is not a date-time') };
  // The header has whole seconds: "after" it is from the next second on.
  const all = records.deletions
    .filter((d) => d.module === module && type !== 'permanent')
    .filter((d) => since === null || Math.floor(d.at / 1000) * 1000 > since)
    .reverse();
  const slice = all.slice((page - 1) * perPage, page * perPage);
  if (slice.length === 0) return { status: 204, body: null };
  return {
    status: 200,
    body: {
      data: slice.map((d) => ({
        id: d.id,
        display_name: d.name,
        type: 'recycle',
        deleted_time: new Date(d.at).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
      })),
      info: { page, per_page: perPage, count: slice.length, more_records: page * perPage < all.length },
    },
  };
}
