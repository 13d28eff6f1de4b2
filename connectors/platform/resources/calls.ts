// Calls module: live calls, web calls, lead calls, media sessions, call labels.
import type { PlatformCore } from '../core/http-core';
import type { ListOptions } from '../core/pagination';
import {
  callLabelSchema,
  callTraceSchema,
  createCallBody,
  createCallLabelBody,
  createLeadcallBody,
  createWebcallBody,
  dictionarySchema,
  liveCallSchema,
  mediaSessionSchema,
  monitorSchema,
  patchCallBody,
  patchCallLabelBody,
  webcallSchema,
} from '../schemas';
import { getLoose, getOne, list, remove, send, type Body, type CallOptions, type Id } from './common';

/** Calls module endpoints. */
export function createCallsResource(core: PlatformCore) {
  return {
    /** GET /calls: live calls. */
    list: (options?: ListOptions) => list(core, '/calls', liveCallSchema, options),
    /** POST /calls: places a call. */
    create: (body: Body<typeof createCallBody>, o?: CallOptions) =>
      send(core, 'POST', '/calls', {}, body, liveCallSchema, o),
    /** GET /calls/{id} */
    get: (id: Id, o?: CallOptions) => getOne(core, '/calls/{id}', { id }, liveCallSchema, o),
    /** PATCH /calls/{id}: transfer (dst), answer (state), labels, action link, recording (monitor_state); answers 301. */
    update: (id: Id, body: Body<typeof patchCallBody>, o: CallOptions = {}) =>
      core.request({
        method: 'PATCH',
        template: '/calls/{id}',
        params: { id },
        body,
        alsoSuccess: [301],
        response: 'json',
        schema: liveCallSchema,
        signal: o.signal,
      }),
    /** DELETE /calls/{id}: terminates the live call. */
    hangup: (id: Id, o?: CallOptions) => remove(core, '/calls/{id}', { id }, o),
    /** GET /calls/{id}/trace: the call's trace entries. */
    trace: (id: Id, options?: ListOptions) =>
      list(core, '/calls/{id}/trace', callTraceSchema, options, { id }),
    /** GET /calls/{id}/monitors: the call's recordings. */
    monitors: (id: Id, options?: ListOptions) =>
      list(core, '/calls/{id}/monitors', monitorSchema, options, { id }),
    webcalls: {
      /** GET /webcalls */
      list: (options?: ListOptions) => list(core, '/webcalls', webcallSchema, options),
      /** POST /webcalls */
      create: (body: Body<typeof createWebcallBody>, o?: CallOptions) =>
        send(core, 'POST', '/webcalls', {}, body, webcallSchema, o),
    },
    leadCalls: {
      /** POST /leadcalls: a call to a lead, with text-to-speech. */
      create: (body: Body<typeof createLeadcallBody>, o?: CallOptions) =>
        send(core, 'POST', '/leadcalls', {}, body, liveCallSchema, o),
    },
    mediaSessions: {
      /** GET /mediasessions */
      list: (options?: ListOptions) => list(core, '/mediasessions', mediaSessionSchema, options),
      /** GET /mediasessions/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/mediasessions/{id}', { id }, mediaSessionSchema, o),
      /** GET /mediasessions/dictionaries */
      dictionaries: (o?: CallOptions) => getLoose(core, '/mediasessions/dictionaries', dictionarySchema, o),
    },
    labels: {
      /** GET /calllabels */
      list: (options?: ListOptions) => list(core, '/calllabels', callLabelSchema, options),
      /** POST /calllabels */
      create: (body: Body<typeof createCallLabelBody>, o?: CallOptions) =>
        send(core, 'POST', '/calllabels', {}, body, callLabelSchema, o),
      /** GET /calllabels/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/calllabels/{id}', { id }, callLabelSchema, o),
      /** PATCH /calllabels/{id} */
      update: (id: Id, body: Body<typeof patchCallLabelBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/calllabels/{id}', { id }, body, callLabelSchema, o),
      /** DELETE /calllabels/{id} */
      delete: (id: Id, o?: CallOptions) => remove(core, '/calllabels/{id}', { id }, o),
    },
  };
}

export type CallsResource = ReturnType<typeof createCallsResource>;
