// The streams callsync syncs into the warehouse: where each is read from, its key, its cursor, and
// whether its records change after creation.
import type { z } from 'zod';
import {
  callMeBackSchema,
  cdrSchema,
  chatSchema,
  contactSchema,
  faxSchema,
  monitorSchema,
  msdrSchema,
  queueSchema,
  reportScheduleSchema,
  ringGroupSchema,
  smsSchema,
  userSchema,
  voicemessageSchema,
  type ListOptions,
  type Paginator,
  type PlatformClient,
} from '../connectors/platform';
import type { StreamName, StreamRecords } from '../connectors/postgres';

/** How a stream is kept in step. */
export type SyncMode =
  /** Records are read from the checkpoint on, with a filter on the cursor field. */
  | 'incremental'
  /** The whole (small, edited) collection is read every run. */
  | 'full';

export interface StreamDefinition<S extends StreamName = StreamName> {
  name: S;
  /** The platform collection it reads (for docs and status). */
  endpoint: string;
  primaryKey: 'id';
  /** Field filtered on for incremental reads and backfill windows. */
  cursorField: string;
  /** Records change after creation (transcripts arrive, contacts are edited): re-read over the lookback. */
  changes: boolean;
  mode: SyncMode;
  /** Polling interval group: history streams every few minutes, settings hourly. */
  kind: 'history' | 'settings';
  /** A record's schema, as `list` checks it (a quarantined record's stored raw is re-checked with it). */
  schema: z.ZodType<StreamRecords[S]>;
  /** Reads the collection. */
  list(client: PlatformClient, options: ListOptions): Paginator<StreamRecords[S]>;
}

function define<S extends StreamName>(d: StreamDefinition<S>): StreamDefinition<S> {
  return d;
}

/** Every stream, in sync order. */
export const STREAMS = {
  cdrs: define({
    name: 'cdrs',
    schema: cdrSchema,
    endpoint: 'GET /cdrs',
    primaryKey: 'id',
    cursorField: 'calldate',
    changes: false,
    mode: 'incremental',
    kind: 'history',
    list: (c, o) => c.history.cdrs.list(o),
  }),
  recordings: define({
    name: 'recordings',
    schema: monitorSchema,
    endpoint: 'GET /monitors',
    primaryKey: 'id',
    cursorField: 'created_at',
    changes: true,
    mode: 'incremental',
    kind: 'history',
    list: (c, o) => c.history.monitors.list(o),
  }),
  voicemessages: define({
    name: 'voicemessages',
    schema: voicemessageSchema,
    endpoint: 'GET /voicemessages',
    primaryKey: 'id',
    cursorField: 'origtime',
    changes: true,
    mode: 'incremental',
    kind: 'history',
    list: (c, o) => c.history.voicemessages.list(o),
  }),
  sms: define({
    name: 'sms',
    schema: smsSchema,
    endpoint: 'GET /sms',
    primaryKey: 'id',
    cursorField: 'created_at',
    changes: false,
    mode: 'incremental',
    kind: 'history',
    list: (c, o) => c.storage.sms.list(o),
  }),
  faxes: define({
    name: 'faxes',
    schema: faxSchema,
    endpoint: 'GET /faxes',
    primaryKey: 'id',
    cursorField: 'created_at',
    changes: false,
    mode: 'incremental',
    kind: 'history',
    list: (c, o) => c.storage.faxes.list(o),
  }),
  chats: define({
    name: 'chats',
    schema: chatSchema,
    endpoint: 'GET /chats',
    primaryKey: 'id',
    cursorField: 'created_at',
    changes: false,
    mode: 'incremental',
    kind: 'history',
    list: (c, o) => c.history.chats.list(o),
  }),
  msdrs: define({
    name: 'msdrs',
    schema: msdrSchema,
    endpoint: 'GET /msdrs',
    primaryKey: 'id',
    cursorField: 'created_at',
    changes: false,
    mode: 'incremental',
    kind: 'history',
    list: (c, o) => c.history.msdrs.list(o),
  }),
  callmeback_cdrs: define({
    name: 'callmeback_cdrs',
    schema: callMeBackSchema,
    endpoint: 'GET /callmeback/cdrs',
    primaryKey: 'id',
    cursorField: 'created_at',
    changes: false,
    mode: 'incremental',
    kind: 'history',
    list: (c, o) => c.callMeBack.cdrs.list(o),
  }),
  callmeback_visitors: define({
    name: 'callmeback_visitors',
    schema: callMeBackSchema,
    endpoint: 'GET /callmeback/visitors',
    primaryKey: 'id',
    cursorField: 'created_at',
    changes: false,
    mode: 'incremental',
    kind: 'history',
    list: (c, o) => c.callMeBack.visitors.list(o),
  }),
  // Contacts are edited in place and carry no update time, so every run reads them whole.
  contacts: define({
    name: 'contacts',
    schema: contactSchema,
    endpoint: 'GET /contacts',
    primaryKey: 'id',
    cursorField: 'created_at',
    changes: true,
    mode: 'full',
    kind: 'settings',
    list: (c, o) => c.settings.contacts.list(o),
  }),
  users: define({
    name: 'users',
    schema: userSchema,
    endpoint: 'GET /users',
    primaryKey: 'id',
    cursorField: 'created_at',
    changes: true,
    mode: 'full',
    kind: 'settings',
    list: (c, o) => c.customer.users.list(o),
  }),
  queues: define({
    name: 'queues',
    schema: queueSchema,
    endpoint: 'GET /queues',
    primaryKey: 'id',
    cursorField: 'id',
    changes: true,
    mode: 'full',
    kind: 'settings',
    list: (c, o) => c.settings.queues.list(o),
  }),
  ring_groups: define({
    name: 'ring_groups',
    schema: ringGroupSchema,
    endpoint: 'GET /ringgroups',
    primaryKey: 'id',
    cursorField: 'id',
    changes: true,
    mode: 'full',
    kind: 'settings',
    list: (c, o) => c.settings.ringGroups.list(o),
  }),
  report_schedules: define({
    name: 'report_schedules',
    schema: reportScheduleSchema,
    endpoint: 'GET /reportschedules',
    primaryKey: 'id',
    cursorField: 'created_at',
    changes: true,
    mode: 'full',
    kind: 'settings',
    list: (c, o) => c.reports.schedules.list(o),
  }),
} satisfies { [S in StreamName]: StreamDefinition<S> };

/** The definition of a stream by name; throws a clear error for an unknown name. */
export function streamDefinition(name: string): StreamDefinition {
  const d = (STREAMS as Record<string, StreamDefinition | undefined>)[name];
  if (!d) throw new Error(`unknown stream "${name}"; streams are: ${Object.keys(STREAMS).join(', ')}`);
  return d;
}
