// Calls module: live calls (click-to-call, transfer, state and recording control), web calls, lead calls,
// media sessions and call labels.
import {
  createCallBody,
  createCallLabelBody,
  createLeadcallBody,
  createWebcallBody,
  patchCallBody,
  patchCallLabelBody,
  type PatchCallBody,
} from '../../../connectors/platform/schemas';
import type { Row } from '../../store';
import { createRoute, deleteRoute, getRoute, listRoute, param, patchRoute } from '../crud';
import { accessDenied, badRequest } from '../http-error';
import { parseRouteSpec } from '../paths';
import { lookup } from '../records';
import { collection } from '../responses';
import type { AuthedCall, RouteDef } from '../route-def';
import { callTraceEntries, liveCallRow } from './live-calls';

/** Live-call state words a PATCH may send, as the numeric codes live calls carry. */
const CALL_STATE_CODES: Readonly<Record<string, number>> = {
  initial: 0,
  accepted: 1,
  ringing: 2,
  connected: 3,
  answer: 3,
  unhold: 3,
  on_hold: 4,
  hold: 4,
  hangup: 5,
  failed: 6,
};

/** Recording control words of PATCH /calls/{id} monitor_state. */
const MONITOR_STATE_CODES: Readonly<Record<string, number>> = { stop: 0, start: 1, resume: 1, pause: 2 };

function toCode(field: string, value: string | number, codes: Readonly<Record<string, number>>): number {
  if (typeof value === 'number') return value;
  if (/^\d+$/.test(value)) return Number(value);
  const code = codes[value.trim().toLowerCase()];
  if (code === undefined) {
    throw badRequest('Validation failed', [
      `${field}: must be one of ${Object.keys(codes).join(', ')} or a code`,
    ]);
  }
  return code;
}

function callPatch(body: PatchCallBody): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (body.dst != null) patch.dst = body.dst;
  if (body.state != null) patch.state = toCode('state', body.state, CALL_STATE_CODES);
  if (body.monitor_state != null)
    patch.monitor_state = toCode('monitor_state', body.monitor_state, MONITOR_STATE_CODES);
  if (body.labels != null) patch.labels = body.labels;
  if (body.action_url != null) patch.action_url = body.action_url;
  if (body.action_text != null) patch.action_text = body.action_text;
  return patch;
}

/** The user a call originates from: the caller, or `from` when it names a user of the same customer. */
function originUser(call: AuthedCall, from: string | number | null | undefined): Row {
  const users = call.ctx.table('users');
  const found = lookup(users, String(from ?? call.identity.user_id));
  if (!found) throw badRequest('Validation failed', ['from: no such user']);
  if (found.customerId !== call.identity.customer_id) throw accessDenied();
  return found.row;
}

function callTrace(call: AuthedCall): ReturnType<RouteDef['handle']> {
  const id = param(call, 'id');
  const live = lookup(call.ctx.table('calls'), id);
  if (live && live.customerId !== call.identity.customer_id) throw accessDenied();
  let source: Row | undefined = live?.row;
  if (!source && /^\d+$/.test(id)) {
    // An ended call: its CDR carries the live call id.
    const cdrs = call.ctx.table('cdrs').query(call.identity.customer_id, {
      page: 1,
      limit: 1,
      filter: [{ property: 'live_id', operator: 'eq', value: Number(id) }],
    });
    source = cdrs.data[0];
  }
  const entries = source ? callTraceEntries(source, live !== undefined, call.ctx.clock) : [];
  return collection({ data: entries, total: entries.length });
}

/** Routes of the calls module. */
export function callsRoutes(): RouteDef[] {
  return [
    listRoute('GET /calls', 'calls'),
    createRoute('POST /calls', 'calls', createCallBody, (body, call) =>
      liveCallRow(call.ctx.clock, originUser(call, body.from), {
        to: body.to,
        ...(body.caller_id != null ? { callerId: body.caller_id } : {}),
      }),
    ),
    getRoute('GET /calls/{id}', 'calls'),
    // The spec lists 301 as this endpoint's success status; it answers the Live Call, with no Location.
    patchRoute('PATCH /calls/{id}', 'calls', patchCallBody, { status: 301, toPatch: callPatch }),
    deleteRoute('DELETE /calls/{id}', 'calls'),
    { ...parseRouteSpec('GET /calls/{id}/trace'), auth: 'required', handle: callTrace },
    listRoute('GET /calls/{id}/monitors', 'monitors', {
      scope: (call) => [{ property: 'live_id', operator: 'eq', value: param(call, 'id') }],
    }),
    listRoute('GET /webcalls', 'webcalls'),
    createRoute('POST /webcalls', 'webcalls', createWebcallBody, (body, call) => ({
      calldate: call.ctx.clock.nowString(),
      charge: 0,
      from: body.from,
      from_charge: 0,
      from_duration: 0,
      from_rate: 0.01,
      to: body.to,
      to_charge: 0,
      to_duration: 0,
      to_rate: 0.01,
    })),
    createRoute('POST /leadcalls', 'calls', createLeadcallBody, (body, call) =>
      liveCallRow(call.ctx.clock, originUser(call, undefined), {
        to: body.to,
        ...(body.caller_id != null ? { callerId: body.caller_id } : {}),
        ...(body.tts != null ? { tts: body.tts } : {}),
      }),
    ),
    listRoute('GET /mediasessions', 'mediasessions'),
    getRoute('GET /mediasessions/{id}', 'mediasessions'),
    listRoute('GET /calllabels', 'calllabels'),
    createRoute('POST /calllabels', 'calllabels', createCallLabelBody),
    getRoute('GET /calllabels/{id}', 'calllabels'),
    patchRoute('PATCH /calllabels/{id}', 'calllabels', patchCallLabelBody),
    deleteRoute('DELETE /calllabels/{id}', 'calllabels'),
  ];
}
