// Settings module: AI dictionary of recordings, call flows, DDIs and call tracking, contacts,
// conferences, queues, ring groups, pickup groups, routing rules and IVRs.
import {
  bulkPatchCallTrackingDdisBody,
  bulkPatchContactsBody,
  createCallTrackingCampaignBody,
  createConferenceBody,
  createContactBody,
  createIvrBody,
  createQueueBody,
  createRingGroupBody,
  createRoutingRuleBody,
  patchConferenceBody,
  patchContactBody,
  patchRingGroupBody,
  patchRoutingRuleBody,
  type CreateRoutingRuleBody,
  type PatchRoutingRuleBody,
} from '../../../connectors/platform/schemas';
import type { Row, Table } from '../../store';
import {
  bulkPatchRoute,
  createRoute,
  deleteIdsRoute,
  deleteRoute,
  dictionaryRoute,
  getRoute,
  listRoute,
  patchRoute,
} from '../crud';
import { notFound } from '../http-error';
import { findOwned, lookup } from '../records';
import type { AuthedCall, RouteDef } from '../route-def';
import { DICTIONARIES } from './dictionaries';

/** A scalar as text; objects and arrays as JSON. */
function scalarText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v) ?? '';
}

/** A call-tracking number by id when given, else by its E.164 number (with or without '+'). */
function findTrackingDdi(call: AuthedCall, table: Table, item: Record<string, unknown>): Row {
  if (item.id !== undefined && item.id !== null) return findOwned(table, scalarText(item.id), call.identity);
  const e164 = scalarText(item.e164);
  const plus = e164.startsWith('+') ? e164 : `+${e164}`;
  if (lookup(table, plus)) return findOwned(table, plus, call.identity);
  const [row] = table.query(call.identity.customer_id, {
    page: 1,
    limit: 1,
    filter: [{ property: 'e164', operator: 'eq', value: plus }],
  }).data;
  if (!row) throw notFound(`${table.name} ${plus}`);
  return row;
}

/** Routing rules keep source, destination and time intervals as comma-separated strings. */
function routingRuleFields(body: CreateRoutingRuleBody | PatchRoutingRuleBody): Record<string, unknown> {
  const row: Record<string, unknown> = { ...body };
  for (const key of ['source', 'destination', 'time_interval'] as const) {
    const value = body[key];
    if (Array.isArray(value)) row[key] = value.map(scalarText).join(',');
  }
  return row;
}

/** Routes of the settings module. */
export function settingsRoutes(): RouteDef[] {
  return [
    listRoute('GET /monitors/aidictionary', 'monitoraidictionary'),
    getRoute('GET /monitors/aidictionary/{id}', 'monitoraidictionary'),
    listRoute('GET /callflows', 'callflows'),
    dictionaryRoute('GET /callflows/dictionaries', DICTIONARIES.callflows),
    getRoute('GET /callflows/{id}', 'callflows'),
    listRoute('GET /calltracking/ddis', 'calltracking_ddis'),
    bulkPatchRoute('PATCH /calltracking/ddis', 'calltracking_ddis', bulkPatchCallTrackingDdisBody, {
      find: findTrackingDdi,
      // e164 and id identify the number; they are not changed.
      toPatch: ({ e164: _e164, id: _id, ...rest }) =>
        Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
    }),
    listRoute('GET /calltracking/campaigns', 'calltracking_campaigns'),
    createRoute('POST /calltracking/campaigns', 'calltracking_campaigns', createCallTrackingCampaignBody),
    listRoute('GET /contacts', 'contacts'),
    createRoute('POST /contacts', 'contacts', createContactBody, (body, call) => ({
      user_id: call.identity.user_id,
      ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)),
    })),
    bulkPatchRoute('PATCH /contacts', 'contacts', bulkPatchContactsBody),
    getRoute('GET /contacts/{id}', 'contacts'),
    patchRoute('PATCH /contacts/{id}', 'contacts', patchContactBody),
    deleteIdsRoute('DELETE /contacts/{ids}', 'contacts', { async: true }),
    listRoute('GET /conferences', 'conferences'),
    createRoute('POST /conferences', 'conferences', createConferenceBody),
    getRoute('GET /conferences/{id}', 'conferences'),
    patchRoute('PATCH /conferences/{id}', 'conferences', patchConferenceBody),
    deleteRoute('DELETE /conferences/{id}', 'conferences'),
    listRoute('GET /ddis', 'ddis'),
    listRoute('GET /ddis/calltracking', 'calltracking_ddis'),
    dictionaryRoute('GET /ddis/dictionaries', DICTIONARIES.ddis),
    getRoute('GET /ddis/{e164}', 'ddis'),
    listRoute('GET /queues', 'queues'),
    createRoute('POST /queues', 'queues', createQueueBody),
    getRoute('GET /queues/{id}', 'queues'),
    listRoute('GET /ringgroups', 'ringgroups'),
    createRoute('POST /ringgroups', 'ringgroups', createRingGroupBody),
    dictionaryRoute('GET /ringgroups/dictionaries', DICTIONARIES.ringgroups),
    getRoute('GET /ringgroups/{id}', 'ringgroups'),
    patchRoute('PATCH /ringgroups/{id}', 'ringgroups', patchRingGroupBody),
    deleteRoute('DELETE /ringgroups/{id}', 'ringgroups'),
    listRoute('GET /pickupgroups', 'pickupgroups'),
    getRoute('GET /pickupgroups/{id}', 'pickupgroups'),
    listRoute('GET /routingrules', 'routingrules'),
    createRoute('POST /routingrules', 'routingrules', createRoutingRuleBody, (body, call) => ({
      customer: call.identity.customer_id,
      final_dst: false,
      ...routingRuleFields(body),
    })),
    getRoute('GET /routingrules/{id}', 'routingrules'),
    patchRoute('PATCH /routingrules/{id}', 'routingrules', patchRoutingRuleBody, {
      toPatch: routingRuleFields,
    }),
    listRoute('GET /ivrs', 'ivrs'),
    createRoute('POST /ivrs', 'ivrs', createIvrBody),
    getRoute('GET /ivrs/{id}', 'ivrs'),
  ];
}
