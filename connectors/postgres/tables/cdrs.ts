// Call detail records and media session detail records.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Cdr, Msdr } from '../../platform/schemas';
import type { FieldKinds, StreamTable } from './columns';

/** cdrs: one row per call leg; the deprecated fields keep their columns while the platform sends them. */
export const cdrFields = {
  id: 'bigint',
  duration: 'bigint',
  live_id: 'bigint',
  parent_live_id: 'bigint',
  user_id: 'bigint',
  sip_endpoint_id: 'bigint',
  server_id: 'bigint',
  type: 'text',
  calldate: 'timestamptz',
  clid: 'text',
  src_id: 'text',
  src_name: 'text',
  src: 'text',
  src_ua: 'text',
  src_codec: 'text',
  dst_id: 'text',
  dst: 'text',
  dst_name: 'text',
  dst_ua: 'text',
  dst_codec: 'text',
  billsec: 'bigint',
  disposition: 'text',
  destination: 'text',
  context: 'text',
  rate: 'numeric',
  charge: 'numeric',
  t_cause: 'text',
  info: 'text',
  call_id: 'bigint',
  is_root: 'boolean',
  root_live_id: 'bigint',
} as const satisfies FieldKinds<Cdr>;

export type CdrsTable = StreamTable<typeof cdrFields>;
export type CdrRow = Selectable<CdrsTable>;
export type NewCdrRow = Insertable<CdrsTable>;
export type CdrRowUpdate = Updateable<CdrsTable>;

export const msdrFields = {
  id: 'bigint',
  call_id: 'text',
  created_at: 'timestamptz',
  dst: 'text',
  dst_id: 'text',
  dst_ua: 'text',
  duration: 'bigint',
  media_session_id: 'bigint',
  src: 'text',
  src_id: 'text',
  src_ua: 'text',
  t_cause: 'text',
  type: 'text',
  user_id: 'bigint',
} as const satisfies FieldKinds<Msdr>;

export type MsdrsTable = StreamTable<typeof msdrFields>;
export type MsdrRow = Selectable<MsdrsTable>;
export type NewMsdrRow = Insertable<MsdrsTable>;
export type MsdrRowUpdate = Updateable<MsdrsTable>;
