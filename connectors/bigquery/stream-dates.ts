// Which field carries a stream's date, without importing the platform client (sync/streams.ts).
import type { StreamName } from '../postgres/stream-tables';

// The cursor fields of sync/streams.ts; a unit test keeps the two in step.
const CURSOR_FIELDS: Readonly<Record<StreamName, string>> = {
  cdrs: 'calldate',
  recordings: 'created_at',
  voicemessages: 'origtime',
  sms: 'created_at',
  faxes: 'created_at',
  chats: 'created_at',
  msdrs: 'created_at',
  contacts: 'created_at',
  users: 'created_at',
  queues: 'id',
  ring_groups: 'id',
  report_schedules: 'created_at',
  callmeback_cdrs: 'created_at',
  callmeback_visitors: 'created_at',
};

/** The field a stream's records are dated by (its sync cursor field). */
export function streamDateField(stream: StreamName): string {
  return CURSOR_FIELDS[stream];
}
