// The few shapes every resource file repeats: each endpoint method is one call of one of these.
import { z } from 'zod';
import type { BinaryResponse, DeleteResult, HttpMethod, PlatformCore } from '../core/http-core';
import type { ListOptions, Paginator } from '../core/pagination';
import type { PathParams } from '../core/path';

/** An object id as the platform takes it in a path. */
export type Id = number | string;
/** One id or a list, for the comma-separated `{ids}` deletes. */
export type Ids = Id | readonly Id[];
/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Quick retries of this request inside the client (default: the client's maxRetries). 0 for a
   * request that must not be sent twice blindly, such as placing a call.
   */
  maxRetries?: number;
}
/** The type a caller writes for a request-body schema. */
export type Body<S extends z.ZodType> = z.input<S>;

/** The spec does not show the response of the bulk PATCHes: whatever the platform sends back, unwrapped. */
export const bulkResultSchema = z.unknown();

/** GET of one resource, unwrapped from `{data, links}`. */
export function getOne<S extends z.ZodType>(
  core: PlatformCore,
  template: string,
  params: PathParams,
  schema: S,
  o: CallOptions = {},
): Promise<z.output<S>> {
  return core.request({ method: 'GET', template, params, response: 'json', schema, signal: o.signal });
}

/** GET of a dictionary (or another body whose envelope the spec does not show). */
export function getLoose<S extends z.ZodType>(
  core: PlatformCore,
  template: string,
  schema: S,
  o: CallOptions = {},
): Promise<z.output<S>> {
  return core.request({
    method: 'GET',
    template,
    response: 'json',
    schema,
    envelope: 'auto',
    signal: o.signal,
  });
}

/** A collection GET as a lazy Paginator. */
export function list<S extends z.ZodType>(
  core: PlatformCore,
  template: string,
  schema: S,
  options: ListOptions = {},
  params?: PathParams,
): Paginator<z.output<S>> {
  return core.paginate(params ? { template, params, schema } : { template, schema }, options);
}

/** POST, PATCH or PUT with a JSON body, answered by one resource. */
export function send<S extends z.ZodType>(
  core: PlatformCore,
  method: HttpMethod,
  template: string,
  params: PathParams,
  body: unknown,
  schema: S,
  o: CallOptions = {},
): Promise<z.output<S>> {
  return core.request({
    method,
    template,
    params,
    body,
    response: 'json',
    schema,
    signal: o.signal,
    ...(o.maxRetries !== undefined ? { maxRetries: o.maxRetries } : {}),
  });
}

/** A bulk PATCH of a collection with an array of partial records. */
export function bulkPatch(
  core: PlatformCore,
  template: string,
  body: unknown,
  o: CallOptions = {},
): Promise<unknown> {
  return core.request({
    method: 'PATCH',
    template,
    body,
    response: 'json',
    schema: bulkResultSchema,
    envelope: 'auto',
    signal: o.signal,
  });
}

/** DELETE; the result tells 202 (accepted, asynchronous) from 204 (done). */
export function remove(
  core: PlatformCore,
  template: string,
  params: PathParams = {},
  o: CallOptions = {},
): Promise<DeleteResult> {
  return core.request({ method: 'DELETE', template, params, response: 'empty', signal: o.signal });
}

/** GET of a file, streamed. */
export function download(
  core: PlatformCore,
  template: string,
  params: PathParams,
  o: CallOptions = {},
): Promise<BinaryResponse> {
  return core.request({ method: 'GET', template, params, response: 'binary', signal: o.signal });
}
