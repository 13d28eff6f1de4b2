// PATCH /cdrs: labels and notes on call records, in bulk. Every item is checked before anything is
// written, so a bad item (unknown CDR, unknown label) fails the request with nothing half applied.
import { bulkPatchCdrsBody, type BulkPatchCdrsBody } from '../../../connectors/platform/schemas';
import type { Row } from '../../store';
import { storeWrite } from '../crud';
import { badRequest } from '../http-error';
import { parseRouteSpec } from '../paths';
import { findOwned } from '../records';
import { collection } from '../responses';
import type { AuthedCall, RouteDef } from '../route-def';
import { validate } from '../validation';

type Item = BulkPatchCdrsBody[number];

interface PlannedWrite {
  cdr: Row;
  fields: Record<string, unknown>;
  note: string | null;
}

/** The customer's label names by name and by id, so an item may name a label either way. */
function labelIndex(call: AuthedCall): Map<string, string> {
  const labels = call.ctx
    .table('calllabels')
    .query(call.identity.customer_id, { page: 1, limit: 100_000, filter: [] });
  const index = new Map<string, string>();
  for (const l of labels.data) {
    const name = typeof l.name === 'string' ? l.name : '';
    index.set(`name:${name}`, name);
    index.set(`id:${String(l.id)}`, name);
  }
  return index;
}

function plan(call: AuthedCall, items: readonly Item[]): PlannedWrite[] {
  const labels = labelIndex(call);
  const errors: string[] = [];
  const writes: PlannedWrite[] = [];
  items.forEach((item, i) => {
    const cdr = findOwned(call.ctx.table('cdrs'), String(item.id), call.identity);
    const { id: _id, labels: wanted, note, ...rest } = item;
    const fields: Record<string, unknown> = Object.fromEntries(
      Object.entries(rest).filter(([, v]) => v !== undefined),
    );
    if (wanted != null) {
      const names: string[] = [];
      wanted.forEach((w, j) => {
        const name = labels.get(typeof w === 'number' ? `id:${w}` : `name:${w}`);
        if (name === undefined)
          errors.push(
            `[${i}].labels[${j}]: no call label ${JSON.stringify(w)} (create it with POST /calllabels)`,
          );
        else if (!names.includes(name)) names.push(name);
      });
      fields.labels = names;
    }
    writes.push({ cdr, fields, note: note ?? null });
  });
  if (errors.length > 0) throw badRequest('Validation failed', errors);
  return writes;
}

function patchCdrs(call: AuthedCall): ReturnType<RouteDef['handle']> {
  const items = validate(bulkPatchCdrsBody, call.body);
  const writes = plan(call, items);
  const cdrs = call.ctx.table('cdrs');
  const notes = call.ctx.table('cdrnotes');
  const updated = writes.map(({ cdr, fields, note }) => {
    let row = Object.keys(fields).length > 0 ? (storeWrite(() => cdrs.update(cdr.id, fields)) ?? cdr) : cdr;
    if (note !== null) {
      notes.insert(call.identity.customer_id, {
        cdr_id: cdr.id,
        user_id: call.identity.user_id,
        note,
        created_at: call.ctx.clock.nowString(),
      });
      row = cdrs.update(cdr.id, { nb_notes: Number(row.nb_notes ?? 0) + 1 }) ?? row;
    }
    return row;
  });
  return collection({ data: updated, total: updated.length });
}

/** PATCH /cdrs with labels and notes. */
export function patchCdrsRoute(): RouteDef {
  return { ...parseRouteSpec('PATCH /cdrs'), auth: 'required', handle: patchCdrs };
}
