// Settings module: call flows, numbers (DDIs), call tracking, contacts, conferences, queues, ring groups,
// pickup groups, routing rules, IVRs.
import type { PlatformCore } from '../core/http-core';
import type { ListOptions } from '../core/pagination';
import {
  bulkPatchCallTrackingDdisBody,
  bulkPatchContactsBody,
  callFlowSchema,
  callTrackingCampaignSchema,
  cdrSchema,
  conferenceSchema,
  contactSchema,
  createCallTrackingCampaignBody,
  createConferenceBody,
  createContactBody,
  createIvrBody,
  createQueueBody,
  createRingGroupBody,
  createRoutingRuleBody,
  ddiSchema,
  dictionarySchema,
  ivrSchema,
  patchConferenceBody,
  patchContactBody,
  patchRingGroupBody,
  patchRoutingRuleBody,
  pickupGroupSchema,
  queueSchema,
  ringGroupSchema,
  routingRuleSchema,
} from '../schemas';
import {
  bulkPatch,
  getLoose,
  getOne,
  list,
  remove,
  send,
  type Body,
  type CallOptions,
  type Id,
  type Ids,
} from './common';

/** Settings module endpoints. */
export function createSettingsResource(core: PlatformCore) {
  return {
    callFlows: {
      /** GET /callflows */
      list: (options?: ListOptions) => list(core, '/callflows', callFlowSchema, options),
      /** GET /callflows/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/callflows/{id}', { id }, callFlowSchema, o),
      /** GET /callflows/dictionaries */
      dictionaries: (o?: CallOptions) => getLoose(core, '/callflows/dictionaries', dictionarySchema, o),
    },
    callTracking: {
      ddis: {
        /** GET /calltracking/ddis */
        list: (options?: ListOptions) => list(core, '/calltracking/ddis', ddiSchema, options),
        /** PATCH /calltracking/ddis: bulk assignment of `{e164, campaign_id, id?}` entries. */
        bulkUpdate: (body: Body<typeof bulkPatchCallTrackingDdisBody>, o?: CallOptions) =>
          bulkPatch(core, '/calltracking/ddis', body, o),
      },
      campaigns: {
        /** GET /calltracking/campaigns */
        list: (options?: ListOptions) =>
          list(core, '/calltracking/campaigns', callTrackingCampaignSchema, options),
        /** POST /calltracking/campaigns */
        create: (body: Body<typeof createCallTrackingCampaignBody>, o?: CallOptions) =>
          send(core, 'POST', '/calltracking/campaigns', {}, body, callTrackingCampaignSchema, o),
      },
      cdrs: {
        /** GET /calltracking/cdrs */
        list: (options?: ListOptions) => list(core, '/calltracking/cdrs', cdrSchema, options),
      },
    },
    contacts: {
      /** GET /contacts */
      list: (options?: ListOptions) => list(core, '/contacts', contactSchema, options),
      /** POST /contacts */
      create: (body: Body<typeof createContactBody>, o?: CallOptions) =>
        send(core, 'POST', '/contacts', {}, body, contactSchema, o),
      /** PATCH /contacts: bulk update of `{id, group_name, labels}` entries. */
      bulkUpdate: (body: Body<typeof bulkPatchContactsBody>, o?: CallOptions) =>
        bulkPatch(core, '/contacts', body, o),
      /** GET /contacts/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/contacts/{id}', { id }, contactSchema, o),
      /** PATCH /contacts/{id} */
      update: (id: Id, body: Body<typeof patchContactBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/contacts/{id}', { id }, body, contactSchema, o),
      /** DELETE /contacts/{ids}: 204, or 202 when accepted for later processing. */
      delete: (ids: Ids, o?: CallOptions) => remove(core, '/contacts/{ids}', { ids }, o),
      /** GET /contacts/{id}/cdrs: the contact's CDRs. */
      cdrs: (id: Id, options?: ListOptions) => list(core, '/contacts/{id}/cdrs', cdrSchema, options, { id }),
    },
    conferences: {
      /** GET /conferences */
      list: (options?: ListOptions) => list(core, '/conferences', conferenceSchema, options),
      /** POST /conferences */
      create: (body: Body<typeof createConferenceBody>, o?: CallOptions) =>
        send(core, 'POST', '/conferences', {}, body, conferenceSchema, o),
      /** GET /conferences/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/conferences/{id}', { id }, conferenceSchema, o),
      /** PATCH /conferences/{id} */
      update: (id: Id, body: Body<typeof patchConferenceBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/conferences/{id}', { id }, body, conferenceSchema, o),
      /** DELETE /conferences/{id} */
      delete: (id: Id, o?: CallOptions) => remove(core, '/conferences/{id}', { id }, o),
    },
    ddis: {
      /** GET /ddis: the account's telephone numbers. */
      list: (options?: ListOptions) => list(core, '/ddis', ddiSchema, options),
      /** GET /ddis/calltracking: numbers used for call tracking. */
      callTracking: (options?: ListOptions) => list(core, '/ddis/calltracking', ddiSchema, options),
      /** GET /ddis/dictionaries */
      dictionaries: (o?: CallOptions) => getLoose(core, '/ddis/dictionaries', dictionarySchema, o),
      /** GET /ddis/{e164} */
      get: (e164: string, o?: CallOptions) => getOne(core, '/ddis/{e164}', { e164 }, ddiSchema, o),
    },
    queues: {
      /** GET /queues */
      list: (options?: ListOptions) => list(core, '/queues', queueSchema, options),
      /** POST /queues */
      create: (body: Body<typeof createQueueBody>, o?: CallOptions) =>
        send(core, 'POST', '/queues', {}, body, queueSchema, o),
      /** GET /queues/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/queues/{id}', { id }, queueSchema, o),
    },
    ringGroups: {
      /** GET /ringgroups */
      list: (options?: ListOptions) => list(core, '/ringgroups', ringGroupSchema, options),
      /** POST /ringgroups */
      create: (body: Body<typeof createRingGroupBody>, o?: CallOptions) =>
        send(core, 'POST', '/ringgroups', {}, body, ringGroupSchema, o),
      /** GET /ringgroups/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/ringgroups/{id}', { id }, ringGroupSchema, o),
      /** PATCH /ringgroups/{id} */
      update: (id: Id, body: Body<typeof patchRingGroupBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/ringgroups/{id}', { id }, body, ringGroupSchema, o),
      /** DELETE /ringgroups/{id} */
      delete: (id: Id, o?: CallOptions) => remove(core, '/ringgroups/{id}', { id }, o),
      /** GET /ringgroups/dictionaries */
      dictionaries: (o?: CallOptions) => getLoose(core, '/ringgroups/dictionaries', dictionarySchema, o),
    },
    pickupGroups: {
      /** GET /pickupgroups */
      list: (options?: ListOptions) => list(core, '/pickupgroups', pickupGroupSchema, options),
      /** GET /pickupgroups/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/pickupgroups/{id}', { id }, pickupGroupSchema, o),
    },
    routingRules: {
      /** GET /routingrules */
      list: (options?: ListOptions) => list(core, '/routingrules', routingRuleSchema, options),
      /** POST /routingrules */
      create: (body: Body<typeof createRoutingRuleBody>, o?: CallOptions) =>
        send(core, 'POST', '/routingrules', {}, body, routingRuleSchema, o),
      /** GET /routingrules/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/routingrules/{id}', { id }, routingRuleSchema, o),
      /** PATCH /routingrules/{id} (direction cannot change) */
      update: (id: Id, body: Body<typeof patchRoutingRuleBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/routingrules/{id}', { id }, body, routingRuleSchema, o),
    },
    ivrs: {
      /** GET /ivrs */
      list: (options?: ListOptions) => list(core, '/ivrs', ivrSchema, options),
      /** POST /ivrs */
      create: (body: Body<typeof createIvrBody>, o?: CallOptions) =>
        send(core, 'POST', '/ivrs', {}, body, ivrSchema, o),
      /** GET /ivrs/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/ivrs/{id}', { id }, ivrSchema, o),
    },
  };
}

export type SettingsResource = ReturnType<typeof createSettingsResource>;
