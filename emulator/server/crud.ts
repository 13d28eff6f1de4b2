// Generic route builders over a store Table, so each module file lists its endpoints in a few lines:
// list, get, create, patch, delete, delete {ids}, delete-all (sync or 202), bulk PATCH, dictionaries.
import type { z } from 'zod';
import type { FilterCondition, Row, Table, TableName } from '../store';
import { checkQueryProperties, parseCollectionQuery } from './collection-query';
import { badRequest } from './http-error';
import { findAllOwned, findOwned, parseIds, queryAnyOf } from './records';
import { accepted, collection, noContent, selfLink, single } from './responses';
import type { ApiCall, AuthedCall, RouteDef } from './route-def';
import { parseRouteSpec, type RouteSpec } from './paths';
import { validate } from './validation';

/** Real-time delay after which a 202 delete has removed its rows. */
export const ASYNC_DELETE_MS = 200;

/** A template's first or last path parameter name: 'e164' of '/ddis/{e164}', 'id' of '/cdrs/{id}/notes'. */
function paramName(template: string, which: 'first' | 'last' = 'last'): string {
  const names = [...template.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1] ?? '');
  const name = which === 'first' ? names[0] : names.at(-1);
  if (!name) throw new Error(`template ${template} has no parameter`);
  return name;
}

/** '/callmeback/settings/{id}' -> '/callmeback/settings' (where self links of its rows point). */
export function collectionPath(template: string): string {
  return template.replace(/\/\{[^}]+\}.*$/, '');
}

/** The value of a path parameter (always present for a matched route). */
export function param(call: ApiCall, name: string): string {
  return call.params[name] ?? '';
}

/** Runs a store write; the store's ordering rules (e.g. a CDR's calldate never changes) become 400s. */
export function storeWrite<T>(write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (err instanceof RangeError) throw badRequest('Validation failed', [err.message]);
    throw err;
  }
}

/** Writable fields of a validated body: everything but the id. */
function fieldsOf(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const { id: _id, ...rest } = body as Record<string, unknown>;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
}

function authed(spec: RouteSpec, handle: (call: AuthedCall) => ReturnType<RouteDef['handle']>): RouteDef {
  return { ...parseRouteSpec(spec), auth: 'required', handle };
}

/** Options of a collection route. */
export interface ListOptions {
  /** The parent resource named by the first path parameter, checked first (404/403). */
  parent?: TableName;
  /** Conditions that scope the collection (ANDed with the request's filter). */
  scope?: (call: AuthedCall, parent: Row | undefined) => FilterCondition[];
  /** Alternative condition sets: rows matching any of them (e.g. src_id or dst_id). */
  scopeAnyOf?: (call: AuthedCall, parent: Row | undefined) => FilterCondition[][];
}

/** The parent row of a nested route, checked for existence and ownership. */
export function parentRow(call: AuthedCall, table: TableName, template: string): Row {
  return findOwned(call.ctx.table(table), param(call, paramName(template, 'first')), call.identity);
}

/** GET collection with page/limit/filter/group_by. */
export function listRoute(spec: RouteSpec, table: TableName, opts: ListOptions = {}): RouteDef {
  const { template } = parseRouteSpec(spec);
  return authed(spec, (call) => {
    const parent = opts.parent ? parentRow(call, opts.parent, template) : undefined;
    const q = parseCollectionQuery(call.query, call.ctx.api);
    checkQueryProperties(call.ctx.table(table), q);
    const alternatives = opts.scopeAnyOf?.(call, parent) ?? [opts.scope?.(call, parent) ?? []];
    return collection(queryAnyOf(call.ctx.table(table), call.identity.customer_id, alternatives, q));
  });
}

/** GET one row by its path id. */
export function getRoute(spec: RouteSpec, table: TableName): RouteDef {
  const { template } = parseRouteSpec(spec);
  const name = paramName(template);
  return authed(spec, (call) => {
    const row = findOwned(call.ctx.table(table), param(call, name), call.identity);
    return single(row, selfLink(call.baseUrl, collectionPath(template), row));
  });
}

/** POST: validate the body, build the row, insert it for the caller's customer; 201 single envelope. */
export function createRoute<S extends z.ZodType>(
  spec: RouteSpec,
  table: TableName,
  schema: S,
  toRow: (body: z.infer<S>, call: AuthedCall) => Record<string, unknown> = (body) => fieldsOf(body),
): RouteDef {
  const { template } = parseRouteSpec(spec);
  return authed(spec, (call) => {
    const body = validate(schema, call.body);
    const row = storeWrite(() =>
      call.ctx.table(table).insert(call.identity.customer_id, {
        created_at: call.ctx.clock.nowString(),
        ...toRow(body, call),
      }),
    );
    return single(row, selfLink(call.baseUrl, template, row), 201);
  });
}

/** PATCH one row: 404/403 first, then the body (400), then a shallow merge; 200 (or `status`) single. */
export function patchRoute<S extends z.ZodType>(
  spec: RouteSpec,
  table: TableName,
  schema: S,
  opts: { status?: number; toPatch?: (body: z.infer<S>, row: Row) => Record<string, unknown> } = {},
): RouteDef {
  const { template } = parseRouteSpec(spec);
  const name = paramName(template);
  return authed(spec, (call) => {
    const t = call.ctx.table(table);
    const row = findOwned(t, param(call, name), call.identity);
    const body = validate(schema, call.body);
    const patch = opts.toPatch ? opts.toPatch(body, row) : fieldsOf(body);
    const updated = storeWrite(() => t.update(row.id, patch)) ?? row;
    return single(updated, selfLink(call.baseUrl, collectionPath(template), updated), opts.status ?? 200);
  });
}

/** Removes rows now, or (async) a little later in real time, as the platform's 202 deletes do. */
function removeRows(table: Table, rows: readonly Row[], async: boolean): void {
  const remove = (): void => {
    for (const row of rows) table.remove(row.id);
  };
  if (async) setTimeout(remove, ASYNC_DELETE_MS).unref();
  else remove();
}

/** DELETE one row by its path id; 204. */
export function deleteRoute(spec: RouteSpec, table: TableName): RouteDef {
  const name = paramName(parseRouteSpec(spec).template);
  return authed(spec, (call) => {
    const t = call.ctx.table(table);
    removeRows(t, [findOwned(t, param(call, name), call.identity)], false);
    return noContent();
  });
}

/** DELETE {ids}: every id must exist (404) and be the caller's (403); 204, or 202 when async. */
export function deleteIdsRoute(spec: RouteSpec, table: TableName, opts: { async?: boolean } = {}): RouteDef {
  const name = paramName(parseRouteSpec(spec).template);
  return authed(spec, (call) => {
    const t = call.ctx.table(table);
    const rows = findAllOwned(t, parseIds(param(call, name)), call.identity);
    removeRows(t, rows, opts.async === true);
    return opts.async ? accepted() : noContent();
  });
}

/** DELETE a whole collection of the caller's customer; 204, or 202 when async. */
export function deleteAllRoute(spec: RouteSpec, table: TableName, opts: { async?: boolean } = {}): RouteDef {
  return authed(spec, (call) => {
    const t = call.ctx.table(table);
    const customerId = call.identity.customer_id;
    if (opts.async) setTimeout(() => t.removeAll(customerId), ASYNC_DELETE_MS).unref();
    else t.removeAll(customerId);
    return opts.async ? accepted() : noContent();
  });
}

/** Options of a bulk PATCH. */
export interface BulkPatchOptions {
  /** Finds the row an item targets (default: by its `id`); throws 404/403 like findOwned. */
  find?: (call: AuthedCall, table: Table, item: Record<string, unknown>, index: number) => Row;
  /** The fields an item changes (default: all but its id). */
  toPatch?: (item: Record<string, unknown>) => Record<string, unknown>;
}

function findById(call: AuthedCall, table: Table, item: Record<string, unknown>, index: number): Row {
  const id = item.id;
  if (typeof id !== 'number' && typeof id !== 'string')
    throw badRequest('Validation failed', [`[${index}].id: required`]);
  return findOwned(table, String(id), call.identity);
}

/** Bulk PATCH: a JSON array of objects identified by id; all are checked (404/403) before any changes. */
export function bulkPatchRoute(
  spec: RouteSpec,
  table: TableName,
  schema: z.ZodType,
  opts: BulkPatchOptions = {},
): RouteDef {
  const find = opts.find ?? findById;
  const toPatch = opts.toPatch ?? fieldsOf;
  return authed(spec, (call) => {
    const items: unknown = validate(schema, call.body);
    if (!Array.isArray(items)) throw badRequest('Validation failed', ['body: must be a JSON array']);
    const t = call.ctx.table(table);
    const targets = (items as Record<string, unknown>[]).map((item, i) => ({
      row: find(call, t, item, i),
      patch: toPatch(item),
    }));
    const updated = targets.map(({ row, patch }) => storeWrite(() => t.update(row.id, patch)) ?? row);
    return collection({ data: updated, total: updated.length });
  });
}

/** GET of a static dictionary (code -> label maps); the spec lists no errors, so no authentication. */
export function dictionaryRoute(spec: RouteSpec, dictionary: Record<string, unknown>): RouteDef {
  const { template } = parseRouteSpec(spec);
  return {
    ...parseRouteSpec(spec),
    auth: 'none',
    handle: (call) => single(dictionary, `${call.baseUrl}${template}`),
  };
}
