// Call Me Back CDRs and visitors: two listings of the module's one shared shape.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { CallMeBack } from '../../platform/schemas';
import type { FieldKinds, StreamTable } from './columns';

export const callMeBackFields = {
  id: 'bigint',
  allowed_countries: 'jsonb',
  button_id: 'bigint',
  created_at: 'timestamptz',
  culture: 'text',
  ddi: 'bigint',
  floating_icon: 'boolean',
  max_call_rate: 'numeric',
  name: 'text',
  position: 'text',
  privacy_policy_url: 'text',
  show_to_allowed_countries_only: 'boolean',
  title: 'text',
  welcome_screen_msg: 'text',
} as const satisfies FieldKinds<CallMeBack>;

/** callmeback_cdrs and callmeback_visitors share this table type. */
export type CallMeBackTable = StreamTable<typeof callMeBackFields>;
export type CallMeBackRow = Selectable<CallMeBackTable>;
export type NewCallMeBackRow = Insertable<CallMeBackTable>;
export type CallMeBackRowUpdate = Updateable<CallMeBackTable>;
