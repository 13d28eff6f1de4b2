import type { ColumnType, Generated, Selectable } from 'kysely';

/** One call event of a call's timeline (unique per account and event id). */
export interface CallEventsTable {
  account: string;
  event_id: string;
  call_id: number;
  name: string;
  event_time: Date | null;
  state: string | null;
  context: string | null;
  /** The event as the call's workflow saw it (numbers, names, durations). */
  detail: ColumnType<unknown, string, string>;
  recorded_at: Generated<Date>;
}
export type CallEventRow = Selectable<CallEventsTable>;
