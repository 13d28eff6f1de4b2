// Customer module: users and their nested collections, groups and policies, queue groups, the account.
import type { PlatformCore } from '../core/http-core';
import type { ListOptions } from '../core/pagination';
import {
  bulkPatchUsersBody,
  cdrSchema,
  chatMessageSchema,
  contactSchema,
  createQueueGroupBody,
  createUserGroupBody,
  createUserGroupPolicyBody,
  liveCallSchema,
  meSchema,
  patchQueueGroupBody,
  patchUserGroupBody,
  patchUserGroupPolicyBody,
  queueGroupSchema,
  smsSchema,
  userGroupPolicySchema,
  userGroupSchema,
  userSchema,
} from '../schemas';
import {
  bulkPatch,
  download,
  getOne,
  list,
  remove,
  send,
  type Body,
  type CallOptions,
  type Id,
} from './common';

/** Customer module endpoints (nested user collections carry the kind their title names). */
export function createCustomerResource(core: PlatformCore) {
  return {
    users: {
      /** GET /users */
      list: (options?: ListOptions) => list(core, '/users', userSchema, options),
      /** PATCH /users: bulk update of `{id, location_id, groups}` entries. */
      bulkUpdate: (body: Body<typeof bulkPatchUsersBody>, o?: CallOptions) =>
        bulkPatch(core, '/users', body, o),
      /** GET /users/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/users/{id}', { id }, userSchema, o),
      /** DELETE /users/{id} */
      delete: (id: Id, o?: CallOptions) => remove(core, '/users/{id}', { id }, o),
      /** GET /users/{id}/contacts */
      contacts: (id: Id, options?: ListOptions) =>
        list(core, '/users/{id}/contacts', contactSchema, options, { id }),
      /** GET /users/{id}/cdrs */
      cdrs: (id: Id, options?: ListOptions) => list(core, '/users/{id}/cdrs', cdrSchema, options, { id }),
      /** GET /users/{id}/cdrs.csv: the user's CDRs as a CSV stream. */
      cdrsCsv: (id: Id, o?: CallOptions) => download(core, '/users/{id}/cdrs.csv', { id }, o),
      /** GET /users/{id}/chatmsgs */
      chatMessages: (id: Id, options?: ListOptions) =>
        list(core, '/users/{id}/chatmsgs', chatMessageSchema, options, { id }),
      /** GET /users/{id}/calls: the user's live calls. */
      calls: (id: Id, options?: ListOptions) =>
        list(core, '/users/{id}/calls', liveCallSchema, options, { id }),
      /** GET /users/{id}/audio: the user's audio file, streamed. */
      audio: (id: Id, o?: CallOptions) => download(core, '/users/{id}/audio', { id }, o),
      /** DELETE /users/{id}/audio: resets the user's audio. */
      resetAudio: (id: Id, o?: CallOptions) => remove(core, '/users/{id}/audio', { id }, o),
      /** GET /users/{id}/smsthreads/{from}/{to}: the user's SMS grouped into threads. */
      smsThreads: (id: Id, from: string, to: string, options?: ListOptions) =>
        list(core, '/users/{id}/smsthreads/{from}/{to}', smsSchema, options, { id, from, to }),
      /** GET /users/{id}/sms/threads/{from}/{to}: the same threads under the nested path. */
      smsThreadsNested: (id: Id, from: string, to: string, options?: ListOptions) =>
        list(core, '/users/{id}/sms/threads/{from}/{to}', smsSchema, options, { id, from, to }),
    },
    /** GET /me: the caller's account metadata. */
    me: (o?: CallOptions) => getOne(core, '/me', {}, meSchema, o),
    customers: {
      /** DELETE /customers/{id}: deletes the customer account. */
      delete: (id: Id, o?: CallOptions) => remove(core, '/customers/{id}', { id }, o),
    },
    queueGroups: {
      /** GET /queuegroups */
      list: (options?: ListOptions) => list(core, '/queuegroups', queueGroupSchema, options),
      /** POST /queuegroups */
      create: (body: Body<typeof createQueueGroupBody>, o?: CallOptions) =>
        send(core, 'POST', '/queuegroups', {}, body, queueGroupSchema, o),
      /** GET /queuegroups/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/queuegroups/{id}', { id }, queueGroupSchema, o),
      /** PATCH /queuegroups/{id} */
      update: (id: Id, body: Body<typeof patchQueueGroupBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/queuegroups/{id}', { id }, body, queueGroupSchema, o),
      /** DELETE /queuegroups/{id} */
      delete: (id: Id, o?: CallOptions) => remove(core, '/queuegroups/{id}', { id }, o),
    },
    userGroups: {
      /** GET /usergroups */
      list: (options?: ListOptions) => list(core, '/usergroups', userGroupSchema, options),
      /** POST /usergroups */
      create: (body: Body<typeof createUserGroupBody>, o?: CallOptions) =>
        send(core, 'POST', '/usergroups', {}, body, userGroupSchema, o),
      /** GET /usergroups/{id} */
      get: (id: Id, o?: CallOptions) => getOne(core, '/usergroups/{id}', { id }, userGroupSchema, o),
      /** PATCH /usergroups/{id} */
      update: (id: Id, body: Body<typeof patchUserGroupBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/usergroups/{id}', { id }, body, userGroupSchema, o),
      /** DELETE /usergroups/{id} */
      delete: (id: Id, o?: CallOptions) => remove(core, '/usergroups/{id}', { id }, o),
    },
    userGroupPolicies: {
      /** GET /usergrouppolicies */
      list: (options?: ListOptions) => list(core, '/usergrouppolicies', userGroupPolicySchema, options),
      /** POST /usergrouppolicies */
      create: (body: Body<typeof createUserGroupPolicyBody>, o?: CallOptions) =>
        send(core, 'POST', '/usergrouppolicies', {}, body, userGroupPolicySchema, o),
      /** GET /usergrouppolicies/{id} */
      get: (id: Id, o?: CallOptions) =>
        getOne(core, '/usergrouppolicies/{id}', { id }, userGroupPolicySchema, o),
      /** PATCH /usergrouppolicies/{id} */
      update: (id: Id, body: Body<typeof patchUserGroupPolicyBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/usergrouppolicies/{id}', { id }, body, userGroupPolicySchema, o),
      /** DELETE /usergrouppolicies/{id} */
      delete: (id: Id, o?: CallOptions) => remove(core, '/usergrouppolicies/{id}', { id }, o),
    },
  };
}

export type CustomerResource = ReturnType<typeof createCustomerResource>;
