// Routing settings and report schedules.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Queue, ReportSchedule, RingGroup } from '../../platform/schemas';
import type { FieldKinds, StreamTable } from './columns';

export const queueFields = {
  id: 'bigint',
  ann_freq: 'bigint',
  call_flow: 'bigint',
  final_dst_id: 'bigint',
  final_dst_type: 'text',
  ivr: 'bigint',
  language: 'text',
  max_callers: 'bigint',
  max_wait_time: 'bigint',
  moh: 'bigint',
  monitor: 'text',
  number: 'bigint',
  post_call_ivr_id: 'bigint',
  retry: 'bigint',
  ring_strategy: 'text',
  ring_time: 'bigint',
  wrap_up_panel_timeout: 'bigint',
  wrap_up_time: 'bigint',
  caller_sounds: 'jsonb',
  email_missed: 'text',
  name: 'text',
  cli_prefix: 'boolean',
  hash_to_exit: 'boolean',
  hold_ann: 'boolean',
  join_empty: 'boolean',
  liaf: 'boolean',
  pos_ann: 'boolean',
  skip_busy: 'boolean',
  wait_time_prefix: 'boolean',
  wrap_up_panel: 'boolean',
} as const satisfies FieldKinds<Queue>;

export type QueuesTable = StreamTable<typeof queueFields>;
export type QueueRow = Selectable<QueuesTable>;
export type NewQueueRow = Insertable<QueuesTable>;
export type QueueRowUpdate = Updateable<QueuesTable>;

export const ringGroupFields = {
  id: 'bigint',
  cli_prefix: 'boolean',
  final_dst_id: 'bigint',
  final_dst_type: 'text',
  moh_id: 'bigint',
  name: 'text',
  number: 'bigint',
  ring_time: 'bigint',
  strategy: 'text',
} as const satisfies FieldKinds<RingGroup>;

export type RingGroupsTable = StreamTable<typeof ringGroupFields>;
export type RingGroupRow = Selectable<RingGroupsTable>;
export type NewRingGroupRow = Insertable<RingGroupsTable>;
export type RingGroupRowUpdate = Updateable<RingGroupsTable>;

/** report_schedules: `emails` and `frequency` arrive as a string or a list/object, so they are JSON. */
export const reportScheduleFields = {
  id: 'bigint',
  created_at: 'timestamptz',
  culture: 'text',
  description: 'text',
  emails: 'jsonb',
  end_at: 'timestamptz',
  format: 'text',
  frequency: 'jsonb',
  last_run_at: 'timestamptz',
  name: 'text',
  next_run_at: 'timestamptz',
  report_id: 'bigint',
  start_at: 'timestamptz',
  status: 'text',
  timezone: 'text',
} as const satisfies FieldKinds<ReportSchedule>;

export type ReportSchedulesTable = StreamTable<typeof reportScheduleFields>;
export type ReportScheduleRow = Selectable<ReportSchedulesTable>;
export type NewReportScheduleRow = Insertable<ReportSchedulesTable>;
export type ReportScheduleRowUpdate = Updateable<ReportSchedulesTable>;
