// What the fake Pipedrive's endpoints share: the request they get, Pipedrive's paging (v2 by cursor,
// v1 by start and limit, each with its documented maximum), body field checks, and lookups that
// answer Pipedrive's 404.
import {
  badRequest,
  notFound,
  type FakeActivity,
  type FakePerson,
  type PipedriveState,
} from './pipedrive-records';

export interface RouteRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

export type Handler = (s: PipedriveState, r: RouteRequest, id: string) => unknown;

/** One endpoint: method, path pattern (its first group is the id), handler. */
export type Route = [string, RegExp, Handler];

export const digits = (s: string) => s.replace(/\D/g, '');

/** A string field of a request body (400 when it is anything else, as Pipedrive's validation answers). */
export function text(b: Record<string, unknown>, field: string): string {
  const v = b[field];
  if (typeof v !== 'string') throw badRequest(`${field} must be a string`);
  return v;
}

/** `limit` within Pipedrive's maximum for the endpoint (400 beyond it), or its default. */
export function limitOf(q: URLSearchParams, max: number, dflt: number): number {
  const raw = q.get('limit');
  if (raw === null) return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw badRequest(`limit must be between 1 and ${max}`);
  return n;
}

/** A v2 page by an opaque cursor (here: the offset, base64). */
export function v2Page<T>(items: T[], q: URLSearchParams, max: number, dflt = 100) {
  const limit = limitOf(q, max, dflt);
  const cursor = q.get('cursor');
  const start = cursor ? Number(Buffer.from(cursor, 'base64').toString()) : 0;
  const page = items.slice(start, start + limit);
  const next = start + limit < items.length ? Buffer.from(String(start + limit)).toString('base64') : null;
  return { success: true, data: page, additional_data: { next_cursor: next } };
}

/** A v1 page by start and limit. */
export function v1Page<T>(items: T[], q: URLSearchParams, max: number, dflt = 100) {
  const limit = limitOf(q, max, dflt);
  const start = Number(q.get('start') ?? 0);
  const page = items.slice(start, start + limit);
  const more = start + limit < items.length;
  return {
    success: true,
    data: page,
    additional_data: {
      pagination: {
        start,
        limit,
        more_items_in_collection: more,
        ...(more ? { next_start: start + limit } : {}),
      },
    },
  };
}

export function person(s: PipedriveState, id: unknown): FakePerson {
  const p = s.persons.get(Number(id));
  if (!p) throw notFound('Person');
  return p;
}

export function activity(s: PipedriveState, id: unknown): FakeActivity {
  const a = s.activities.get(Number(id));
  if (!a || a.is_deleted) throw notFound('Activity');
  return a;
}
