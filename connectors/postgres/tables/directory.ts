// People: contacts and users.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Contact, User } from '../../platform/schemas';
import type { FieldKinds, StreamTable } from './columns';

/** contacts: `notes` has no type in the spec, so it is kept as JSON. */
export const contactFields = {
  id: 'bigint',
  company: 'text',
  created_at: 'timestamptz',
  dial_flow_completed_at: 'timestamptz',
  dialler_source_id: 'bigint',
  email: 'text',
  ext: 'text',
  first_name: 'text',
  global: 'boolean',
  group_name: 'text',
  internal: 'boolean',
  last_call_at: 'timestamptz',
  last_name: 'text',
  mobile: 'text',
  mobile_1: 'text',
  mobile_2: 'text',
  nb_call_attempts: 'bigint',
  next_call_at: 'timestamptz',
  notes: 'jsonb',
  outcome_id: 'bigint',
  rel_user_id: 'bigint',
  tel: 'text',
  tel_1: 'text',
  tel_2: 'text',
  type: 'text',
  user_id: 'bigint',
} as const satisfies FieldKinds<Contact>;

export type ContactsTable = StreamTable<typeof contactFields>;
export type ContactRow = Selectable<ContactsTable>;
export type NewContactRow = Insertable<ContactsTable>;
export type ContactRowUpdate = Updateable<ContactsTable>;

/** users: lists (roles, visited_apps, vm_emails, fm_targets) are JSON arrays. */
export const userFields = {
  id: 'bigint',
  is_initial: 'boolean',
  email: 'text',
  first_name: 'text',
  last_name: 'text',
  roles: 'jsonb',
  active: 'boolean',
  visited_apps: 'jsonb',
  is_root: 'boolean',
  two_factor_auth: 'text',
  created_at: 'timestamptz',
  customer_id_id: 'bigint',
  customer: 'bigint',
  mobile_activated: 'boolean',
  mobile: 'text',
  ext: 'text',
  cli: 'text',
  esc_cli: 'text',
  cc: 'text',
  area_code: 'text',
  ring_time: 'text',
  final_dst_type: 'text',
  final_dst_id: 'bigint',
  vm_pin: 'text',
  vm_to_email: 'boolean',
  vm_emails: 'jsonb',
  vm_tts: 'text',
  vm_new: 'bigint',
  vm_old: 'bigint',
  cw: 'boolean',
  dnd: 'boolean',
  rec_allowed: 'boolean',
  rec_never_internal: 'boolean',
  fm: 'boolean',
  fm_only_direct: 'boolean',
  fm_init_ring_time: 'bigint',
  fm_announcement_enabled: 'boolean',
  fm_confirm_required: 'boolean',
  fm_allowed: 'boolean',
  fm_targets: 'jsonb',
  fm_ring_time: 'text',
  fm_strategy: 'text',
  fm_final_dst_type: 'text',
  fm_final_dst_id: 'bigint',
  fm_cli: 'text',
  nun: 'text',
  nun_only_direct: 'boolean',
  nun_ring_time: 'bigint',
  monitor: 'text',
  monitor_transcript: 'text',
  auto_answer_header: 'text',
  log_missed_calls: 'boolean',
  language: 'text',
  cnam: 'boolean',
  email_missed: 'text',
  call_barge_allowed: 'boolean',
  transfer_cli: 'text',
  nb_sip_locations: 'bigint',
  pickup_group_id: 'bigint',
  location_id: 'text',
  vm_announcement_id: 'bigint',
  fm_announcement_id: 'bigint',
  legacy_api_key: 'text',
} as const satisfies FieldKinds<User>;

export type UsersTable = StreamTable<typeof userFields>;
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserRowUpdate = Updateable<UsersTable>;
