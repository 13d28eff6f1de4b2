// Data control: reseed the store, add CDRs "now" (incremental sync), and add, read or change any record
// (e.g. a transcript arriving later). Changes go through the store, so its onChange listeners fire.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createStore, TABLE_NAMES } from '../../store';
import { storeOptions, type EmulatorContext } from '../context';
import { storeWrite } from '../crud';
import { badRequest, notFound } from '../http-error';
import { lookup } from '../records';
import { validate } from '../validation';
import { controlRoute, pathParam } from './control-route';

const seedBody = z.strictObject({
  seed: z.number().int(),
  cdrs: z.number().int().min(0).max(5_000_000).optional(),
});

const addCdrsBody = z.strictObject({
  count: z.number().int().min(1).max(100_000),
  customer_id: z.number().int().optional(),
});

const addRecordBody = z.strictObject({
  customer_id: z.number().int().optional(),
  record: z.record(z.string(), z.unknown()),
});

const patchRecordBody = z.record(z.string(), z.unknown());

const tableName = z.enum(TABLE_NAMES, { error: `must be one of ${TABLE_NAMES.join(', ')}` });

function table(ctx: EmulatorContext, raw: string) {
  return ctx.table(validate(tableName, raw, 'Unknown table'));
}

function customerId(ctx: EmulatorContext, given: number | undefined): number {
  if (given === undefined) return ctx.store.admin.customer_id;
  if (!ctx.store.customers.some((c) => c.id === given))
    throw badRequest('Validation failed', ['customer_id: no such customer']);
  return given;
}

/** POST /_emulator/seed, POST /_emulator/cdrs, and /_emulator/records/{table}[/{id}]. */
export function registerDataControl(app: FastifyInstance, ctx: EmulatorContext): void {
  controlRoute(app, 'POST', '/seed', (req) => {
    const body = validate(seedBody, req.body);
    // The clock keeps its kind: fixed at the same start, or real time (history ending now, fresh history ids).
    const seeded = { ...ctx.seeded, seed: body.seed, cdrs: body.cdrs ?? ctx.seeded.cdrs };
    ctx.replaceStore(createStore(storeOptions(seeded)), seeded);
    const { email, password, user_id, api_key } = ctx.store.admin;
    return { body: { seed: seeded.seed, cdrs: seeded.cdrs, admin: { email, password, user_id, api_key } } };
  });

  controlRoute(app, 'POST', '/cdrs', (req) => {
    const body = validate(addCdrsBody, req.body);
    const rows = ctx.store.addCdrs(customerId(ctx, body.customer_id), body.count);
    return { status: 201, body: { ids: rows.map((r) => r.id) } };
  });

  controlRoute(app, 'POST', '/records/:table', (req) => {
    const t = table(ctx, pathParam(req, 'table'));
    const body = validate(addRecordBody, req.body);
    const row = storeWrite(() => t.insert(customerId(ctx, body.customer_id), body.record));
    return { status: 201, body: { data: row } };
  });

  controlRoute(app, 'GET', '/records/:table/:id', (req) => {
    const t = table(ctx, pathParam(req, 'table'));
    const found = lookup(t, pathParam(req, 'id'));
    if (!found) throw notFound(`${t.name} ${pathParam(req, 'id')}`);
    return { body: { data: found.row, customer_id: found.customerId } };
  });

  controlRoute(app, 'PATCH', '/records/:table/:id', (req) => {
    const t = table(ctx, pathParam(req, 'table'));
    const found = lookup(t, pathParam(req, 'id'));
    if (!found) throw notFound(`${t.name} ${pathParam(req, 'id')}`);
    const patch = validate(patchRecordBody, req.body);
    const row = storeWrite(() => t.update(found.row.id, patch));
    return { body: { data: row } };
  });
}
