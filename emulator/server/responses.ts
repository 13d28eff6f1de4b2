// Envelope builders: the platform wraps collections in {data, total} and single resources in {data, links}.
import type { CollectionResult, Row } from '../store';
import type { ApiResponse } from './route-def';
import { markCollection } from './row-json';

/** A JSON response with any body. */
export function json(status: number, body: unknown, headers?: Record<string, string>): ApiResponse {
  return headers ? { kind: 'json', status, body, headers } : { kind: 'json', status, body };
}

/** 200 collection envelope {data, total}. */
export function collection(result: CollectionResult): ApiResponse {
  return json(200, markCollection({ data: result.data, total: result.total }));
}

/** A single-resource envelope {data, links: {self}}; status 200 unless told (201 creates, 301 call PATCH). */
export function single(data: unknown, self: string, status = 200): ApiResponse {
  return json(status, { data, links: { self } });
}

/** `{message}` bodies of the authentication endpoints. */
export function message(text: string, status = 200): ApiResponse {
  return json(status, { message: text });
}

/** 204 No Content. */
export function noContent(): ApiResponse {
  return { kind: 'empty', status: 204 };
}

/** 202 Accepted for further processing (asynchronous deletes). */
export function accepted(): ApiResponse {
  return json(202, { message: 'Accepted for further processing' });
}

/** Binary content (recordings, traces, captures, CSV exports). */
export function bytes(contentType: string, content: Buffer | string): ApiResponse {
  const buf = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return { kind: 'bytes', status: 200, contentType, bytes: buf };
}

/** The self link of a row under a collection path, e.g. selfLink(base, '/cdrs', row). */
export function selfLink(baseUrl: string, collectionPath: string, row: Row): string {
  return `${baseUrl}${collectionPath}/${encodeURIComponent(String(row.id))}`;
}
