// Calls module resources: live calls, web calls, media sessions, call labels, call traces.
import { z } from 'zod';
import { code, date, int, intId, num, str } from './primitives';

/** Live call. Times are integer epoch seconds; state codes are not explained by the spec. */
export const liveCallSchema = z.looseObject({
  id: intId(),
  clid: str(),
  connected_at: int(),
  context: str(),
  destination: code(),
  dst: str(),
  dst_call_id: str(),
  dst_codec: str(),
  dst_connection: num(),
  dst_contact: str(),
  dst_id: str(),
  dst_name: str(),
  dst_rate: num(),
  dst_ua: str(),
  duration: int(),
  min_charge: num(),
  monitor_state: code(),
  parent_id: int(),
  queue_state: str(),
  referred_by: str(),
  src: str(),
  src_call_id: str(),
  src_codec: str(),
  src_contact: str(),
  src_id: str(),
  src_name: str(),
  src_rate: num(),
  src_ua: str(),
  start_time: int(),
  state: code(),
});
export type LiveCall = z.infer<typeof liveCallSchema>;

export const webcallSchema = z.looseObject({
  id: intId(),
  calldate: date(),
  charge: num(),
  from: str(),
  from_charge: num(),
  from_duration: int(),
  from_rate: num(),
  to: str(),
  to_charge: num(),
  to_duration: int(),
  to_rate: num(),
});
export type Webcall = z.infer<typeof webcallSchema>;

export const mediaSessionSchema = z.looseObject({
  id: intId(),
  call_id: str(),
  created_at: date(),
  dst_id: str(),
  dst_ua: str(),
  duration: int(),
  src_id: str(),
  src_ua: str(),
  status: str(),
  type: str(),
  updated_at: date(),
  user: int(),
});
export type MediaSession = z.infer<typeof mediaSessionSchema>;

/** Call label; its fields are not shown by the spec, so only the likely ones are typed. */
export const callLabelSchema = z.looseObject({ id: intId(), name: str(), color: str() });
export type CallLabel = z.infer<typeof callLabelSchema>;

/** Entry of a call's SIP trace (GET /calls/{id}/trace); shape not shown by the spec, so nothing is required. */
export const callTraceSchema = z.looseObject({ id: code(), created_at: date() });
export type CallTrace = z.infer<typeof callTraceSchema>;
