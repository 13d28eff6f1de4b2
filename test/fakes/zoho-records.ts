// The records the Zoho test server holds, and the record APIs on them: insert
// (https://www.zoho.com/crm/developer/docs/api/v8/insert-records.html: at most 100 records a request,
// mandatory fields, unique fields refused as DUPLICATE_DATA), update (update-specific-record.html),
// delete (delete-specific-record.html), search by phone (search-records.html: at most 200 a page, 204
// when nothing matches, and records appear in search only once indexed, a while after the write) and
// COQL (consistent with the writes). Each answer is {status, body} in Zoho's shapes.
import { parseCoql, type CoqlCondition } from './zoho-coql';
import { mandatoryFields, moduleFields } from './zoho-fields';

export interface ZohoRecord {
  id: string;
  module: string;
  fields: Record<string, unknown>;
  createdAt: number;
  modifiedAt: number;
  /** When search starts seeing the record. */
  indexedAt: number;
}

export interface Answer {
  status: number;
  body: unknown;
}

/** Insert and update take at most this many records (api-limits.html). */
export const MAX_WRITE_RECORDS = 100;
/** Search answers at most this many records a page (search-records.html). */
export const MAX_PER_PAGE = 200;
const PHONE_FIELDS = ['Phone', 'Mobile', 'Home_Phone', 'Other_Phone'];

/**
 * The status of a write of several records, each answered in `data[]`: all refused 400, some 207
 * Multi-Status, none `ok` (https://www.zoho.com/crm/developer/docs/api/v8/status-codes.html).
 */
export function batchStatus(results: readonly Record<string, unknown>[], ok: number): number {
  const failed = results.filter((r) => r.status === 'error').length;
  return failed === 0 ? ok : failed === results.length ? 400 : 207;
}

const error = (code: string, message: string, details: Record<string, unknown> = {}) => ({
  code,
  details,
  message,
  status: 'error',
});
/** A scalar field's text ('' for anything else). */
const text = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
const digits = (v: unknown) => (typeof v === 'string' ? v.replace(/\D/g, '') : '');

export class ZohoRecords {
  private readonly byId = new Map<string, ZohoRecord>();
  /** Records deleted so far, oldest first (the deleted records API lists them). */
  readonly deletions: { id: string; module: string; name: string; at: number }[] = [];
  private next = 5_725_767_000_001_000_000n;
  private readonly mandatory: Record<string, string[]>;
  readonly modules: Set<string>;

  constructor(
    private readonly keyField: string,
    private readonly searchLagMs: number,
  ) {
    this.mandatory = mandatoryFields(keyField);
    this.modules = new Set(Object.keys(moduleFields(keyField)));
  }

  all(module: string): ZohoRecord[] {
    return [...this.byId.values()].filter((r) => r.module === module);
  }

  get(id: string): ZohoRecord | undefined {
    return this.byId.get(id);
  }

  /** A record put in directly (an agent's, long indexed); `modifiedAt` as given. */
  seed(module: string, fields: Record<string, unknown>, modifiedAt = Date.now()): ZohoRecord {
    const r = this.store(module, fields, modifiedAt);
    r.indexedAt = 0;
    return r;
  }

  private store(module: string, fields: Record<string, unknown>, now = Date.now()): ZohoRecord {
    const id = String((this.next += 1n));
    const r = {
      id,
      module,
      fields: { ...fields },
      createdAt: now,
      modifiedAt: now,
      indexedAt: now + this.searchLagMs,
    };
    this.byId.set(id, r);
    return r;
  }

  insert(module: string, body: unknown): Answer {
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data) || data.length === 0)
      return {
        status: 400,
        body: error('INVALID_DATA', 'body must hold a data array', { api_name: 'data' }),
      };
    if (data.length > MAX_WRITE_RECORDS)
      return { status: 400, body: error('LIMIT_EXCEEDED', `at most ${MAX_WRITE_RECORDS} records a request`) };
    const results = data.map((raw) => this.insertOne(module, raw as Record<string, unknown>));
    return { status: batchStatus(results, 201), body: { data: results } };
  }

  private insertOne(module: string, fields: Record<string, unknown>): Record<string, unknown> {
    for (const name of this.mandatory[module] ?? [])
      if (fields[name] === undefined || fields[name] === null || fields[name] === '')
        return error('MANDATORY_NOT_FOUND', 'required field not found', { api_name: name });
    const invalid = this.invalidLookup(fields);
    if (invalid) return invalid;
    const key = fields[this.keyField];
    if (typeof key === 'string') {
      const holder = this.all(module).find((r) => r.fields[this.keyField] === key);
      // callsync's key field is created with "Do not allow duplicate values".
      if (holder)
        return error('DUPLICATE_DATA', 'duplicate data', {
          api_name: this.keyField,
          duplicate_record: { id: holder.id, module: { api_name: module } },
        });
    }
    const r = this.store(module, fields);
    const at = new Date(r.createdAt).toISOString();
    return {
      code: 'SUCCESS',
      details: { id: r.id, Created_Time: at, Modified_Time: at },
      message: 'record added',
      status: 'success',
    };
  }

  private invalidLookup(fields: Record<string, unknown>): Record<string, unknown> | null {
    const who = (fields.Who_Id as { id?: unknown } | undefined)?.id;
    if (who !== undefined && this.get(text(who))?.module !== 'Contacts')
      return error('INVALID_DATA', 'invalid data', { api_name: 'Who_Id' });
    const parent = fields.Parent_Id as { id?: unknown; module?: { api_name?: unknown } } | undefined;
    if (
      parent !== undefined &&
      (!parent.module || this.get(text(parent.id))?.module !== parent.module.api_name)
    )
      return error('INVALID_DATA', 'invalid data', { api_name: 'Parent_Id' });
    const what = (fields.What_Id as { id?: unknown } | undefined)?.id;
    if (what !== undefined && this.get(text(what))?.module !== fields.$se_module)
      return error('INVALID_DATA', 'invalid data', { api_name: 'What_Id' });
    return null;
  }

  update(module: string, id: string, body: unknown): Answer {
    const data = (body as { data?: unknown } | null)?.data;
    const r = this.get(id);
    if (!r || r.module !== module)
      return {
        status: 400,
        body: { data: [error('INVALID_DATA', 'the id given seems to be invalid', { id })] },
      };
    if (!Array.isArray(data) || data.length !== 1)
      return { status: 400, body: error('INVALID_DATA', 'body must hold one record', { api_name: 'data' }) };
    const fields = data[0] as Record<string, unknown>;
    const invalid = this.invalidLookup(fields);
    if (invalid) return { status: 400, body: { data: [invalid] } };
    Object.assign(r.fields, fields);
    r.modifiedAt = Date.now();
    r.indexedAt = r.modifiedAt + this.searchLagMs;
    const at = new Date(r.modifiedAt).toISOString();
    return {
      status: 200,
      body: {
        data: [
          {
            code: 'SUCCESS',
            details: { id, Modified_Time: at },
            message: 'record updated',
            status: 'success',
          },
        ],
      },
    };
  }

  delete(module: string, id: string): Answer {
    const r = this.get(id);
    if (!r || r.module !== module)
      return {
        status: 400,
        body: { data: [error('INVALID_DATA', 'the id given seems to be invalid', { id })] },
      };
    this.byId.delete(id);
    this.deletions.push({ id, module, name: this.row(r).Full_Name as string, at: Date.now() });
    return {
      status: 200,
      body: { data: [{ code: 'SUCCESS', details: { id }, message: 'record deleted', status: 'success' }] },
    };
  }

  /** GET /{module}/search?phone=…: the record's phone fields hold exactly these digits (once indexed). */
  searchPhone(module: string, query: URLSearchParams): Answer {
    const phone = query.get('phone');
    const perPage = Number(query.get('per_page') ?? 200);
    if (!phone)
      return {
        status: 400,
        body: error('REQUIRED_PARAM_MISSING', 'one of criteria, email, phone, word is required'),
      };
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE)
      return {
        status: 400,
        body: error('INVALID_DATA', `per_page must be 1 to ${MAX_PER_PAGE}`, { param: 'per_page' }),
      };
    const wanted = digits(phone);
    const now = Date.now();
    const hits = this.all(module).filter(
      (r) => r.indexedAt <= now && wanted !== '' && PHONE_FIELDS.some((f) => digits(r.fields[f]) === wanted),
    );
    if (hits.length === 0) return { status: 204, body: null };
    return {
      status: 200,
      body: {
        data: hits.slice(0, perPage).map((r) => this.row(r)),
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
   * GET /{module}/{id}/Notes (https://www.zoho.com/crm/developer/docs/api/v8/get-related-records.html):
   * `fields` is mandatory, at most 200 a page, 204 when there are none.
   */
  relatedNotes(module: string, id: string, query: URLSearchParams): Answer {
    const fields = query.get('fields');
    if (!fields)
      return {
        status: 400,
        body: error('REQUIRED_PARAM_MISSING', 'fields is required', { param: 'fields' }),
      };
    const perPage = Number(query.get('per_page') ?? 200);
    const page = Number(query.get('page') ?? 1);
    if (!(perPage >= 1 && perPage <= MAX_PER_PAGE) || !(page >= 1))
      return { status: 400, body: error('INVALID_DATA', 'invalid page or per_page') };
    if (this.get(id)?.module !== module)
      return { status: 400, body: error('INVALID_DATA', 'the id given seems to be invalid', { id }) };
    const notes = this.all('Notes').filter(
      (n) => (n.fields.Parent_Id as { id?: unknown } | undefined)?.id === id,
    );
    const slice = notes.slice((page - 1) * perPage, page * perPage);
    if (slice.length === 0) return { status: 204, body: null };
    const names = fields.split(',');
    return {
      status: 200,
      body: {
        data: slice.map((n) =>
          Object.fromEntries(['id', ...names].map((f) => [f, f === 'id' ? n.id : (n.fields[f] ?? null)])),
        ),
        info: { page, per_page: perPage, count: slice.length, more_records: page * perPage < notes.length },
      },
    };
  }

  /** POST /coql: read from the records themselves (no index lag). */
  coql(body: unknown): Answer {
    const select = (body as { select_query?: unknown } | null)?.select_query;
    const q = typeof select === 'string' ? parseCoql(select) : { error: 'select_query is missing' };
    if ('error' in q) return { status: 400, body: error('SYNTAX_ERROR', q.error) };
    if (!this.modules.has(q.module))
      return { status: 400, body: error('INVALID_QUERY', 'invalid module', { api_name: q.module }) };
    const valueOf = (r: ZohoRecord, f: string): unknown => this.row(r)[f];
    // Datetimes compare as instants, other values as text (callsync compares keys and Modified_Time).
    const holds = (r: ZohoRecord, c: CoqlCondition) => {
      const v = valueOf(r, c.field);
      if (c.op === 'is not null') return v !== null && v !== undefined && v !== '';
      if (c.op === '=') return text(v) === c.value;
      return Date.parse(text(v)) >= Date.parse(c.value);
    };
    let rows = this.all(q.module).filter((r) => q.where.every((c) => holds(r, c)));
    const order = q.orderBy;
    if (order) {
      const at = (r: ZohoRecord) => (order.field === 'Created_Time' ? r.createdAt : r.modifiedAt);
      if (order.field !== 'Created_Time' && order.field !== 'Modified_Time')
        return {
          status: 400,
          body: error('SYNTAX_ERROR', `order by ${order.field} is not implemented here`),
        };
      rows.sort((a, b) => (at(a) - at(b) || a.id.localeCompare(b.id)) * (order.desc ? -1 : 1));
    }
    const total = rows.length;
    rows = rows.slice(q.offset, q.offset + q.limit);
    if (rows.length === 0) return { status: 204, body: null };
    const pick = (r: ZohoRecord) =>
      Object.fromEntries(['id', ...q.fields].map((f) => [f, valueOf(r, f) ?? null]));
    return {
      status: 200,
      body: {
        data: rows.map(pick),
        info: { count: rows.length, more_records: q.offset + rows.length < total },
      },
    };
  }

  /** A record as the read APIs answer it. */
  row(r: ZohoRecord): Record<string, unknown> {
    const { First_Name, Last_Name } = r.fields;
    return {
      id: r.id,
      ...r.fields,
      Full_Name: [First_Name, Last_Name].filter((p) => typeof p === 'string' && p).join(' '),
      Modified_Time: new Date(r.modifiedAt).toISOString(),
      Created_Time: new Date(r.createdAt).toISOString(),
    };
  }
}
