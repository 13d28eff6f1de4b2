// History module: chats and chat messages, CDRs, recordings (monitors), MSDRs, voice messages, statements.
import type { PlatformCore } from '../core/http-core';
import type { ListOptions } from '../core/pagination';
import {
  bulkPatchCdrsBody,
  bulkPatchVoicemessagesBody,
  cdrNoteSchema,
  cdrSchema,
  chatSchema,
  dictionarySchema,
  monitorAiDictionarySchema,
  monitorSchema,
  msdrSchema,
  patchMonitorBody,
  voicemessageSchema,
} from '../schemas';
import {
  bulkPatch,
  download,
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

/** History module endpoints. Files (.trace, .pcap, .mp3) come back as streams with their content type. */
export function createHistoryResource(core: PlatformCore) {
  return {
    chats: {
      /** GET /chats */
      list: (options?: ListOptions) => list(core, '/chats', chatSchema, options),
      /** GET /chats/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/chats/{id}', { id }, chatSchema, o),
    },
    chatMessages: {
      /** DELETE /chatmsgs/{ids}: deletes the listed chat messages. */
      delete: (ids: Ids, o?: CallOptions) => remove(core, '/chatmsgs/{ids}', { ids }, o),
      /** DELETE /chatmsgs: deletes every chat message. */
      deleteAll: (o?: CallOptions) => remove(core, '/chatmsgs', {}, o),
    },
    cdrs: {
      /** GET /cdrs: call detail records (filter, group_by and paging apply). */
      list: (options?: ListOptions) => list(core, '/cdrs', cdrSchema, options),
      /** PATCH /cdrs: bulk update of records identified by id. */
      bulkUpdate: (body: Body<typeof bulkPatchCdrsBody>, o?: CallOptions) =>
        bulkPatch(core, '/cdrs', body, o),
      /** DELETE /cdrs: deletes every CDR. */
      deleteAll: (o?: CallOptions) => remove(core, '/cdrs', {}, o),
      /** GET /cdrs/{id}: one CDR. */
      get: (id: Id, o?: CallOptions) => getOne(core, '/cdrs/{id}', { id }, cdrSchema, o),
      /** GET /cdrs/{id}.trace: the call's SIP trace, streamed. */
      trace: (id: Id, o?: CallOptions) => download(core, '/cdrs/{id}.trace', { id }, o),
      /** GET /cdrs/{id}.pcap: the call's packet capture, streamed. */
      pcap: (id: Id, o?: CallOptions) => download(core, '/cdrs/{id}.pcap', { id }, o),
      /** GET /cdrs/calltracking: call-tracking CDRs. */
      callTracking: (options?: ListOptions) => list(core, '/cdrs/calltracking', cdrSchema, options),
      /** GET /cdrs/dictionaries */
      dictionaries: (o?: CallOptions) => getLoose(core, '/cdrs/dictionaries', dictionarySchema, o),
      /** GET /cdrs/{id}/notes */
      notes: (id: Id, options?: ListOptions) =>
        list(core, '/cdrs/{id}/notes', cdrNoteSchema, options, { id }),
    },
    monitors: {
      /** GET /monitors: call recordings. */
      list: (options?: ListOptions) => list(core, '/monitors', monitorSchema, options),
      /** DELETE /monitors: deletes every recording of the customer (202: asynchronous). */
      deleteAll: (o?: CallOptions) => remove(core, '/monitors', {}, o),
      /** GET /monitors/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/monitors/{id}', { id }, monitorSchema, o),
      /** PATCH /monitors/{id}: transcript, speakers, summary, sentiment, cx_score, metadata. */
      update: (id: Id, body: Body<typeof patchMonitorBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/monitors/{id}', { id }, body, monitorSchema, o),
      /** DELETE /monitors/{ids}: deletes the listed recordings. */
      delete: (ids: Ids, o?: CallOptions) => remove(core, '/monitors/{ids}', { ids }, o),
      /** GET /monitors/{id}.mp3: the recording, streamed. */
      mp3: (id: Id, o?: CallOptions) => download(core, '/monitors/{id}.mp3', { id }, o),
      aiDictionary: {
        /** GET /monitors/aidictionary */
        list: (options?: ListOptions) =>
          list(core, '/monitors/aidictionary', monitorAiDictionarySchema, options),
        /** GET /monitors/aidictionary/{id} */
        get: (id: Id, o?: CallOptions) =>
          getOne(core, '/monitors/aidictionary/{id}', { id }, monitorAiDictionarySchema, o),
      },
    },
    msdrs: {
      /** GET /msdrs: media session detail records. */
      list: (options?: ListOptions) => list(core, '/msdrs', msdrSchema, options),
      /** GET /msdrs/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/msdrs/{id}', { id }, msdrSchema, o),
      /** GET /msdrs/{id}.trace: SIP trace, streamed. */
      trace: (id: Id, o?: CallOptions) => download(core, '/msdrs/{id}.trace', { id }, o),
      /** GET /msdrs/{id}.pcap: packet capture, streamed. */
      pcap: (id: Id, o?: CallOptions) => download(core, '/msdrs/{id}.pcap', { id }, o),
      /** GET /msdrs/dictionaries */
      dictionaries: (o?: CallOptions) => getLoose(core, '/msdrs/dictionaries', dictionarySchema, o),
    },
    voicemessages: {
      /** GET /voicemessages */
      list: (options?: ListOptions) => list(core, '/voicemessages', voicemessageSchema, options),
      /** PATCH /voicemessages: bulk move of `{id, folder}` entries. */
      bulkUpdate: (body: Body<typeof bulkPatchVoicemessagesBody>, o?: CallOptions) =>
        bulkPatch(core, '/voicemessages', body, o),
      /** DELETE /voicemessages: deletes every voice message (202: asynchronous). */
      deleteAll: (o?: CallOptions) => remove(core, '/voicemessages', {}, o),
      /** GET /voicemessages/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/voicemessages/{id}', { id }, voicemessageSchema, o),
      /** DELETE /voicemessages/{ids}: deletes the listed voice messages. */
      delete: (ids: Ids, o?: CallOptions) => remove(core, '/voicemessages/{ids}', { ids }, o),
      /** GET /voicemessages/{id}.mp3: the message audio, streamed. */
      mp3: (id: Id, o?: CallOptions) => download(core, '/voicemessages/{id}.mp3', { id }, o),
    },
    statements: {
      /** DELETE /statements: deletes every statement. */
      deleteAll: (o?: CallOptions) => remove(core, '/statements', {}, o),
    },
  };
}

export type HistoryResource = ReturnType<typeof createHistoryResource>;
