// Settings module resources: call flows, DDIs, call tracking, contacts, conferences, queues,
// ring groups, pickup groups, routing rules and IVRs.
import { z } from 'zod';
import {
  anyId,
  anyValue,
  bool,
  code,
  date,
  int,
  intId,
  list,
  num,
  str,
  strId,
  textOrList,
} from './primitives';

export const callFlowSchema = z.looseObject({
  id: intId(),
  created_at: date(),
  description: str(),
  name: str(),
  status: str(),
  thumbnail: str(),
});
export type CallFlow = z.infer<typeof callFlowSchema>;

const ddiShape = {
  call_flow: int(),
  channels: int(),
  cli_hide: bool(),
  cli_prefix: int(),
  created_at: date(),
  e164: str(),
  esc_enabled: bool(),
  fax_email: str(),
  fax_enabled: bool(),
  flag: code(),
  has_fax_password: bool(),
  info: str(),
  name: str(),
  rate: num(),
  sms_email: str(),
  sms_enabled: bool(),
  status: code(),
  target_id: int(),
  target_type: code(),
  tel_verified: bool(),
  uri: str(),
};

/** Telephone number; also the shape of call-tracking numbers. The id is the E.164 number as a string. */
export const ddiSchema = z.looseObject({ id: strId(), ...ddiShape });
export type Ddi = z.infer<typeof ddiSchema>;

/**
 * Call-tracking campaign: the spec returns it in the Ddi shape; the fields it is created with are
 * typed too. Its id is kept as sent (number or string), since a campaign is not a number.
 */
export const callTrackingCampaignSchema = z.looseObject({
  id: anyId(),
  ...ddiShape,
  chat_setting_id: int(),
  call_me_back_setting_id: int(),
  call_tracking_setting_id: int(),
  url: str(),
  rules: list(z.unknown()),
});
export type CallTrackingCampaign = z.infer<typeof callTrackingCampaignSchema>;

export const contactSchema = z.looseObject({
  id: intId(),
  company: str(),
  created_at: date(),
  dial_flow_completed_at: date(),
  dialler_source_id: int(),
  email: str(),
  ext: str(),
  first_name: str(),
  global: bool(),
  group_name: str(),
  internal: bool(),
  last_call_at: date(),
  last_name: str(),
  mobile: str(),
  mobile_1: str(),
  mobile_2: str(),
  nb_call_attempts: int(),
  next_call_at: date(),
  notes: anyValue(),
  outcome_id: int(),
  rel_user_id: int(),
  tel: str(),
  tel_1: str(),
  tel_2: str(),
  type: code(),
  user_id: int(),
});
export type Contact = z.infer<typeof contactSchema>;

export const conferenceSchema = z.looseObject({
  id: intId(),
  ann_join_leave: bool(),
  confno: int(),
  confno_pstn: int(),
  monitor: bool(),
  name: str(),
  pin: str(),
  pin_pstn: str(),
});
export type Conference = z.infer<typeof conferenceSchema>;

/** Queue. Code fields (ring_strategy, final_dst_type, monitor, language) keep strings as well as numbers. */
export const queueSchema = z.looseObject({
  id: intId(),
  ann_freq: int(),
  call_flow: int(),
  final_dst_id: int(),
  final_dst_type: code(),
  ivr: int(),
  language: code(),
  max_callers: int(),
  max_wait_time: int(),
  moh: int(),
  monitor: code(),
  number: int(),
  post_call_ivr_id: int(),
  retry: int(),
  ring_strategy: code(),
  ring_time: int(),
  wrap_up_panel_timeout: int(),
  wrap_up_time: int(),
  caller_sounds: anyValue(),
  email_missed: str(),
  name: str(),
  cli_prefix: bool(),
  hash_to_exit: bool(),
  hold_ann: bool(),
  join_empty: bool(),
  liaf: bool(),
  pos_ann: bool(),
  skip_busy: bool(),
  wait_time_prefix: bool(),
  wrap_up_panel: bool(),
});
export type Queue = z.infer<typeof queueSchema>;

export const ringGroupSchema = z.looseObject({
  id: intId(),
  cli_prefix: bool(),
  final_dst_id: int(),
  final_dst_type: code(),
  moh_id: int(),
  name: str(),
  number: int(),
  ring_time: int(),
  strategy: code(),
});
export type RingGroup = z.infer<typeof ringGroupSchema>;

/** Pickup group; `users` is an integer per the spec (likely a member count). */
export const pickupGroupSchema = z.looseObject({ id: intId(), name: str(), users: int() });
export type PickupGroup = z.infer<typeof pickupGroupSchema>;

/** Routing rule. source, destination and time_interval are strings in responses but arrays in requests. */
export const routingRuleSchema = z.looseObject({
  id: intId(),
  action: str(),
  customer: int(),
  destination: textOrList(),
  direction: code(),
  final_dst: bool(),
  pos: int(),
  source: textOrList(),
  time_interval: textOrList(),
});
export type RoutingRule = z.infer<typeof routingRuleSchema>;

export const ivrSchema = z.looseObject({
  id: intId(),
  ext_dialing: bool(),
  final_dst_id: int(),
  final_dst_type: code(),
  language: code(),
  name: str(),
  number: int(),
  random_choice: bool(),
  random_dst: str(),
  repeats: int(),
  ring_time: int(),
  timeout: int(),
  post_sounds: textOrList(),
  sounds: textOrList(),
  hash: str(),
  star: str(),
  zero: str(),
  one: str(),
  one_sounds: textOrList(),
  two: str(),
  two_sounds: textOrList(),
  three: str(),
  three_sounds: textOrList(),
  four: str(),
  four_sounds: textOrList(),
  five: str(),
  five_sounds: textOrList(),
  six: str(),
  six_sounds: textOrList(),
  seven: str(),
  seven_sounds: textOrList(),
  eight: str(),
  eight_sounds: textOrList(),
  nine: str(),
  nine_sounds: textOrList(),
});
export type Ivr = z.infer<typeof ivrSchema>;
