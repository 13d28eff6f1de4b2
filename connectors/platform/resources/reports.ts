// Reports module: report schedules.
import type { PlatformCore } from '../core/http-core';
import type { ListOptions } from '../core/pagination';
import {
  createReportScheduleBody,
  dictionarySchema,
  patchReportScheduleBody,
  reportScheduleSchema,
} from '../schemas';
import { getLoose, getOne, list, remove, send, type Body, type CallOptions, type Id } from './common';

/** Reports module endpoints. */
export function createReportsResource(core: PlatformCore) {
  return {
    schedules: {
      /** GET /reportschedules */
      list: (options?: ListOptions) => list(core, '/reportschedules', reportScheduleSchema, options),
      /** POST /reportschedules */
      create: (body: Body<typeof createReportScheduleBody>, o?: CallOptions) =>
        send(core, 'POST', '/reportschedules', {}, body, reportScheduleSchema, o),
      /** GET /reportschedules/{id} */
      get: (id: Id, o?: CallOptions) =>
        getOne(core, '/reportschedules/{id}', { id }, reportScheduleSchema, o),
      /** PATCH /reportschedules/{id} */
      update: (id: Id, body: Body<typeof patchReportScheduleBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/reportschedules/{id}', { id }, body, reportScheduleSchema, o),
      /** DELETE /reportschedules/{id} */
      delete: (id: Id, o?: CallOptions) => remove(core, '/reportschedules/{id}', { id }, o),
      /** GET /reportschedules/dictionaries */
      dictionaries: (o?: CallOptions) => getLoose(core, '/reportschedules/dictionaries', dictionarySchema, o),
    },
  };
}

export type ReportsResource = ReturnType<typeof createReportsResource>;
