// Call Me Back module: widget settings, websites, buttons, and the CDRs and visitors assigned to it.
import type { PlatformCore } from '../core/http-core';
import type { ListOptions } from '../core/pagination';
import {
  callMeBackSchema,
  createCallMeBackButtonBody,
  createCallMeBackSettingBody,
  patchCallMeBackButtonBody,
  patchCallMeBackSettingBody,
} from '../schemas';
import { getOne, list, remove, send, type Body, type CallOptions, type Id } from './common';

/** Call Me Back module endpoints (every listing shares the CallMeBack shape). */
export function createCallMeBackResource(core: PlatformCore) {
  return {
    websites: {
      /** GET /callmeback/websites */
      list: (options?: ListOptions) => list(core, '/callmeback/websites', callMeBackSchema, options),
    },
    settings: {
      /** GET /callmeback/settings */
      list: (options?: ListOptions) => list(core, '/callmeback/settings', callMeBackSchema, options),
      /** POST /callmeback/settings */
      create: (body: Body<typeof createCallMeBackSettingBody>, o?: CallOptions) =>
        send(core, 'POST', '/callmeback/settings', {}, body, callMeBackSchema, o),
      /** GET /callmeback/settings/{id} */
      get: (id: Id, o?: CallOptions) =>
        getOne(core, '/callmeback/settings/{id}', { id }, callMeBackSchema, o),
      /** PATCH /callmeback/settings/{id} */
      update: (id: Id, body: Body<typeof patchCallMeBackSettingBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/callmeback/settings/{id}', { id }, body, callMeBackSchema, o),
      /** DELETE /callmeback/settings/{id} */
      delete: (id: Id, o?: CallOptions) => remove(core, '/callmeback/settings/{id}', { id }, o),
    },
    cdrs: {
      /** GET /callmeback/cdrs: CDRs assigned to Call Me Back. */
      list: (options?: ListOptions) => list(core, '/callmeback/cdrs', callMeBackSchema, options),
    },
    visitors: {
      /** GET /callmeback/visitors: visitors assigned to Call Me Back. */
      list: (options?: ListOptions) => list(core, '/callmeback/visitors', callMeBackSchema, options),
    },
    buttons: {
      /** POST /callmeback/buttons */
      create: (body: Body<typeof createCallMeBackButtonBody>, o?: CallOptions) =>
        send(core, 'POST', '/callmeback/buttons', {}, body, callMeBackSchema, o),
      /** GET /callmeback/buttons/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/callmeback/buttons/{id}', { id }, callMeBackSchema, o),
      /** PATCH /callmeback/buttons/{id} */
      update: (id: Id, body: Body<typeof patchCallMeBackButtonBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/callmeback/buttons/{id}', { id }, body, callMeBackSchema, o),
      /** DELETE /callmeback/buttons/{id} */
      delete: (id: Id, o?: CallOptions) => remove(core, '/callmeback/buttons/{id}', { id }, o),
    },
  };
}

export type CallMeBackResource = ReturnType<typeof createCallMeBackResource>;
