// Storage module: SMS, canned responses, faxes, voicemail announcements.
import type { PlatformCore } from '../core/http-core';
import type { ListOptions } from '../core/pagination';
import {
  cannedResponseSchema,
  createCannedResponseBody,
  createSmsBody,
  createVmAnnouncementBody,
  dictionarySchema,
  faxSchema,
  patchCannedResponseBody,
  patchVmAnnouncementBody,
  smsSchema,
  vmAnnouncementSchema,
} from '../schemas';
import { getLoose, getOne, list, remove, send, type Body, type CallOptions, type Id } from './common';

/** Storage module endpoints. */
export function createStorageResource(core: PlatformCore) {
  return {
    sms: {
      /** GET /sms: inbound and outbound SMS. */
      list: (options?: ListOptions) => list(core, '/sms', smsSchema, options),
      /** POST /sms: sends an SMS. */
      create: (body: Body<typeof createSmsBody>, o?: CallOptions) =>
        send(core, 'POST', '/sms', {}, body, smsSchema, o),
      /** DELETE /sms: deletes every SMS (202: asynchronous). */
      deleteAll: (o?: CallOptions) => remove(core, '/sms', {}, o),
      /** GET /sms/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/sms/{id}', { id }, smsSchema, o),
      /** GET /sms/dictionaries */
      dictionaries: (o?: CallOptions) => getLoose(core, '/sms/dictionaries', dictionarySchema, o),
    },
    cannedResponses: {
      /** GET /sms/cannedresponses */
      list: (options?: ListOptions) => list(core, '/sms/cannedresponses', cannedResponseSchema, options),
      /** POST /sms/cannedresponses */
      create: (body: Body<typeof createCannedResponseBody>, o?: CallOptions) =>
        send(core, 'POST', '/sms/cannedresponses', {}, body, cannedResponseSchema, o),
      /** GET /sms/cannedresponses/{id} */
      get: (id: Id, o?: CallOptions) =>
        getOne(core, '/sms/cannedresponses/{id}', { id }, cannedResponseSchema, o),
      /** PATCH /sms/cannedresponses/{id} */
      update: (id: Id, body: Body<typeof patchCannedResponseBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/sms/cannedresponses/{id}', { id }, body, cannedResponseSchema, o),
      /** DELETE /sms/cannedresponses/{id} */
      delete: (id: Id, o?: CallOptions) => remove(core, '/sms/cannedresponses/{id}', { id }, o),
    },
    faxes: {
      /** GET /faxes */
      list: (options?: ListOptions) => list(core, '/faxes', faxSchema, options),
    },
    vmAnnouncements: {
      /** GET /vmannouncements */
      list: (options?: ListOptions) => list(core, '/vmannouncements', vmAnnouncementSchema, options),
      /** POST /vmannouncements: `data` is the Base64 audio file (MP3, MP4, WAV, AAC). */
      create: (body: Body<typeof createVmAnnouncementBody>, o?: CallOptions) =>
        send(core, 'POST', '/vmannouncements', {}, body, vmAnnouncementSchema, o),
      /** GET /vmannouncements/{id} */
      get: (id: Id, o?: CallOptions) =>
        getOne(core, '/vmannouncements/{id}', { id }, vmAnnouncementSchema, o),
      /** PATCH /vmannouncements/{id} */
      update: (id: Id, body: Body<typeof patchVmAnnouncementBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/vmannouncements/{id}', { id }, body, vmAnnouncementSchema, o),
      /** DELETE /vmannouncements/{id} */
      delete: (id: Id, o?: CallOptions) => remove(core, '/vmannouncements/{id}', { id }, o),
    },
  };
}

export type StorageResource = ReturnType<typeof createStorageResource>;
