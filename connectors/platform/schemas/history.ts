// History module resources: chats, CDRs and their notes, recordings, MSDRs, voice messages.
import { z } from 'zod';
import {
  CDR_DESTINATION_CODES,
  CDR_DESTINATIONS,
  CDR_DISPOSITION_CODES,
  CDR_DISPOSITIONS,
  CDR_TYPE_CODES,
  CDR_TYPES,
} from './codes';
import { anyValue, bool, code, date, int, intId, num, str, strEnum } from './primitives';

/** Call detail record (spec model); samples send type, disposition and destination as integers. */
export const cdrSchema = z.looseObject({
  id: intId(),
  duration: int(),
  live_id: int(),
  parent_live_id: int(),
  user_id: int(),
  sip_endpoint_id: int(),
  server_id: int(),
  type: strEnum(CDR_TYPES, CDR_TYPE_CODES),
  calldate: date(),
  clid: str(),
  src_id: str(),
  src_name: str(),
  src: str(),
  src_ua: str(),
  src_codec: str(),
  dst_id: str(),
  dst: str(),
  dst_name: str(),
  dst_ua: str(),
  dst_codec: str(),
  billsec: int(),
  disposition: strEnum(CDR_DISPOSITIONS, CDR_DISPOSITION_CODES),
  destination: strEnum(CDR_DESTINATIONS, CDR_DESTINATION_CODES),
  /** Open-ended list (PSTN_CALL, USER_LOCAL, IVR, FOLLOW_ME, TEST_CALL, …). */
  context: str(),
  rate: num(),
  charge: num(),
  t_cause: str(),
  info: str(),
  /** @deprecated Deprecated by the platform (spec, Versioning). */
  call_id: int().meta({ deprecated: true }),
  /** @deprecated Deprecated by the platform (spec, Versioning). */
  is_root: bool().meta({ deprecated: true }),
  /** @deprecated Deprecated by the platform (spec, Versioning). */
  root_live_id: int().meta({ deprecated: true }),
});
export type Cdr = z.infer<typeof cdrSchema>;

/** Note on a CDR (GET /cdrs/{id}/notes); fields not shown by the spec, so only the likely ones are typed. */
export const cdrNoteSchema = z.looseObject({
  id: intId(),
  cdr_id: int(),
  user_id: int(),
  note: str(),
  created_at: date(),
  updated_at: date(),
});
export type CdrNote = z.infer<typeof cdrNoteSchema>;

export const chatSchema = z.looseObject({
  id: intId(),
  created_at: date(),
  customer_id: int(),
  duration: int(),
  operator_id: int(),
  operator_ua: str(),
  state: code(),
  visitor_city: str(),
  visitor_country: str(),
  visitor_email: str(),
  visitor_geo: str(),
  visitor_id: str(),
  visitor_ip: str(),
  visitor_name: str(),
  visitor_referer: str(),
  visitor_ua: str(),
  website_id: int(),
});
export type Chat = z.infer<typeof chatSchema>;

/** Chat message (GET /users/{id}/chatmsgs); fields not shown by the spec, so only the likely ones are typed. */
export const chatMessageSchema = z.looseObject({
  id: intId(),
  chat_id: int(),
  user_id: int(),
  created_at: date(),
  message: str(),
  type: str(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

const monitorShape = {
  id: intId(),
  created_at: date(),
  token: str(),
  /** Not in the spec's field list, but the spec filters monitors on it (Events, rule 3). */
  live_id: int(),
  transcript: str(),
  transcript_speakers: str(),
  summary: str(),
  sentiment: str(),
  cx_score: int(),
  metadata: anyValue(),
};

/** Call recording. */
export const monitorSchema = z.looseObject(monitorShape);
export type Monitor = z.infer<typeof monitorSchema>;

/** Same field set as Monitor (spec). */
export const monitorAiDictionarySchema = z.looseObject(monitorShape);
export type MonitorAiDictionary = z.infer<typeof monitorAiDictionarySchema>;

/** Media session detail record. */
export const msdrSchema = z.looseObject({
  id: intId(),
  call_id: str(),
  created_at: date(),
  dst: str(),
  dst_id: str(),
  dst_ua: str(),
  duration: int(),
  media_session_id: int(),
  src: str(),
  src_id: str(),
  src_ua: str(),
  t_cause: str(),
  type: str(),
  user_id: int(),
});
export type Msdr = z.infer<typeof msdrSchema>;

export const voicemessageSchema = z.looseObject({
  id: intId(),
  caller: str(),
  callerid: str(),
  dialled: str(),
  duration: int(),
  extension_id: int(),
  folder: code(),
  is_new: bool(),
  live_id: int(),
  /** Typed only as string by the spec (date or epoch seconds), so kept as sent. */
  origtime: str(),
  parent_live_id: int(),
  transcript: str(),
});
export type Voicemessage = z.infer<typeof voicemessageSchema>;
