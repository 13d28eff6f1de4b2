// Recordings (monitors) and voice messages: the records whose audio is archived to the object store.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Monitor, Voicemessage } from '../../platform/schemas';
import type { AudioColumns, FieldKinds, StreamTable } from './columns';

/** recordings: the transcript, summary and sentiment arrive after the call and update the row. */
export const recordingFields = {
  id: 'bigint',
  created_at: 'timestamptz',
  token: 'text',
  live_id: 'bigint',
  transcript: 'text',
  transcript_speakers: 'text',
  summary: 'text',
  sentiment: 'text',
  cx_score: 'bigint',
  metadata: 'jsonb',
} as const satisfies FieldKinds<Monitor>;

export type RecordingsTable = StreamTable<typeof recordingFields> & AudioColumns;
export type RecordingRow = Selectable<RecordingsTable>;
export type NewRecordingRow = Insertable<RecordingsTable>;
export type RecordingRowUpdate = Updateable<RecordingsTable>;

/** voicemessages: `origtime` stays text because the platform sends a date or epoch seconds. */
export const voicemessageFields = {
  id: 'bigint',
  caller: 'text',
  callerid: 'text',
  dialled: 'text',
  duration: 'bigint',
  extension_id: 'bigint',
  folder: 'text',
  is_new: 'boolean',
  live_id: 'bigint',
  origtime: 'text',
  parent_live_id: 'bigint',
  transcript: 'text',
} as const satisfies FieldKinds<Voicemessage>;

export type VoicemessagesTable = StreamTable<typeof voicemessageFields> & AudioColumns;
export type VoicemessageRow = Selectable<VoicemessagesTable>;
export type NewVoicemessageRow = Insertable<VoicemessagesTable>;
export type VoicemessageRowUpdate = Updateable<VoicemessagesTable>;
