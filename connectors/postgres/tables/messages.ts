// Written conversations and documents: SMS, faxes and web chats.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Chat, Fax, Sms } from '../../platform/schemas';
import type { FieldKinds, StreamTable } from './columns';

export const smsFields = {
  id: 'bigint',
  created_at: 'timestamptz',
  from: 'text',
  from_id: 'text',
  from_name: 'text',
  message: 'text',
  result: 'text',
  to: 'text',
  to_id: 'text',
  to_name: 'text',
  type: 'text',
  user_id: 'bigint',
} as const satisfies FieldKinds<Sms>;

export type SmsTable = StreamTable<typeof smsFields>;
export type SmsRow = Selectable<SmsTable>;
export type NewSmsRow = Insertable<SmsTable>;
export type SmsRowUpdate = Updateable<SmsTable>;

export const faxFields = {
  id: 'bigint',
  charge: 'numeric',
  created_at: 'timestamptz',
  filename: 'text',
  from: 'text',
  pages: 'bigint',
  status: 'text',
  to: 'text',
  type: 'text',
} as const satisfies FieldKinds<Fax>;

export type FaxesTable = StreamTable<typeof faxFields>;
export type FaxRow = Selectable<FaxesTable>;
export type NewFaxRow = Insertable<FaxesTable>;
export type FaxRowUpdate = Updateable<FaxesTable>;

export const chatFields = {
  id: 'bigint',
  created_at: 'timestamptz',
  customer_id: 'bigint',
  duration: 'bigint',
  operator_id: 'bigint',
  operator_ua: 'text',
  state: 'text',
  visitor_city: 'text',
  visitor_country: 'text',
  visitor_email: 'text',
  visitor_geo: 'text',
  visitor_id: 'text',
  visitor_ip: 'text',
  visitor_name: 'text',
  visitor_referer: 'text',
  visitor_ua: 'text',
  website_id: 'bigint',
} as const satisfies FieldKinds<Chat>;

export type ChatsTable = StreamTable<typeof chatFields>;
export type ChatRow = Selectable<ChatsTable>;
export type NewChatRow = Insertable<ChatsTable>;
export type ChatRowUpdate = Updateable<ChatsTable>;
