// Request bodies of the settings module: call tracking, contacts, conferences, queues, ring groups,
// routing rules, IVRs.
import { z } from 'zod';
import {
  array,
  body,
  boolean,
  bulk,
  codeValue,
  ddiNumber,
  emailOrBlank,
  idValue,
  integer,
  opt,
  requiredText,
  text,
  url,
} from './fields';

/** PATCH /calltracking/ddis (bulk): assign numbers (by e164) to campaigns. */
export const bulkPatchCallTrackingDdisBody = bulk(
  body({ e164: ddiNumber(), campaign_id: opt(integer()), id: opt(idValue()) }),
);
export type BulkPatchCallTrackingDdisBody = z.infer<typeof bulkPatchCallTrackingDdisBody>;

/** POST /calltracking/campaigns */
export const createCallTrackingCampaignBody = body({
  chat_setting_id: opt(integer()),
  call_me_back_setting_id: opt(integer()),
  call_tracking_setting_id: opt(integer()),
  name: requiredText(),
  url: opt(url()),
  rules: opt(array()),
});
export type CreateCallTrackingCampaignBody = z.infer<typeof createCallTrackingCampaignBody>;

/** POST /contacts: nothing is required; every field is type-checked. Phone fields are free text. */
export const createContactBody = body({
  type: opt(codeValue()),
  dialler_source_id: opt(integer()),
  outcome_id: opt(integer()),
  group_name: opt(text()),
  first_name: opt(text()),
  last_name: opt(text()),
  email: opt(emailOrBlank()),
  company: opt(text()),
  tel: opt(text()),
  tel_1: opt(text()),
  tel_2: opt(text()),
  speed_dial_phone: opt(text()),
  speed_dial_phone_1: opt(text()),
  speed_dial_phone_2: opt(text()),
  mobile: opt(text()),
  mobile_1: opt(text()),
  mobile_2: opt(text()),
  speed_dial_mobile: opt(text()),
  speed_dial_mobile_1: opt(text()),
  speed_dial_mobile_2: opt(text()),
  notes: opt(z.unknown()),
  labels: opt(array()),
  groups: opt(array()),
  transfer_list: opt(boolean()),
  user_id: opt(integer()),
});
export type CreateContactBody = z.infer<typeof createContactBody>;

/** PATCH /contacts/{id} */
export const patchContactBody = createContactBody.partial();
export type PatchContactBody = z.infer<typeof patchContactBody>;

/** PATCH /contacts (bulk): regroup and relabel contacts. */
export const bulkPatchContactsBody = bulk(
  body({ id: integer(), group_name: opt(text()), labels: opt(array()) }),
);
export type BulkPatchContactsBody = z.infer<typeof bulkPatchContactsBody>;

/** POST /conferences */
export const createConferenceBody = body({
  name: requiredText(),
  pin: opt(text()),
  pin_pstn: opt(text()),
  ann_join_leave: opt(boolean()),
  monitor: opt(boolean()),
  ddis: opt(array(idValue())),
});
export type CreateConferenceBody = z.infer<typeof createConferenceBody>;

/** PATCH /conferences/{id} */
export const patchConferenceBody = createConferenceBody.partial();
export type PatchConferenceBody = z.infer<typeof patchConferenceBody>;

/** A queue member; `status` says whether the user is logged in to the queue by default. */
const queueMember = () =>
  body({
    id: idValue(),
    status: opt(z.union([boolean(), integer()], { error: 'must be a boolean or an integer code' })),
  });

/** POST /queues */
export const createQueueBody = body({
  moh_id: opt(integer()),
  ivr_id: opt(integer()),
  ddis: opt(array(idValue())),
  users: opt(array(queueMember())),
  name: requiredText(),
  number: opt(integer()),
  cli_prefix: opt(boolean()),
  wait_time_prefix: opt(boolean()),
  agent_sounds: opt(z.unknown()),
  caller_sounds: opt(z.unknown()),
  max_wait_time: opt(integer()),
  max_callers: opt(integer()),
  join_empty: opt(boolean()),
  ring_strategy: opt(codeValue()),
  ring_time: opt(integer()),
  retry: opt(integer()),
  wrap_up_time: opt(integer()),
  wrap_up_panel: opt(boolean()),
  wrap_up_panel_timeout: opt(integer()),
  skip_busy: opt(boolean()),
  language: opt(codeValue()),
  pos_ann: opt(boolean()),
  hold_ann: opt(boolean()),
  ann_freq: opt(integer()),
  final_dst_type: opt(codeValue()),
  final_dst_id: opt(integer()),
  post_call_ivr_id: opt(integer()),
  hash_to_exit: opt(boolean()),
  liaf: opt(boolean()),
  groups: opt(array()),
  monitor: opt(codeValue()),
  email_missed: opt(text()),
});
export type CreateQueueBody = z.infer<typeof createQueueBody>;

/** POST /ringgroups: `users` are user ids, `ddis` E.164 numbers. */
export const createRingGroupBody = body({
  name: requiredText(),
  users: opt(array(idValue())),
  ddis: opt(array(ddiNumber())),
  strategy: opt(codeValue()),
  final_dst_type: opt(codeValue()),
  final_dst_id: opt(integer()),
  ring_time: opt(integer()),
  cli_prefix: opt(boolean()),
  moh_id: opt(integer()),
  number: opt(integer()),
});
export type CreateRingGroupBody = z.infer<typeof createRingGroupBody>;

/** PATCH /ringgroups/{id} */
export const patchRingGroupBody = createRingGroupBody.partial();
export type PatchRingGroupBody = z.infer<typeof patchRingGroupBody>;

/** POST /routingrules: `direction` is fixed at creation. */
export const createRoutingRuleBody = body({
  pos: opt(integer()),
  source: opt(array()),
  destination: opt(array()),
  time_interval: opt(array(idValue())),
  action: requiredText(),
  direction: codeValue(),
});
export type CreateRoutingRuleBody = z.infer<typeof createRoutingRuleBody>;

/** PATCH /routingrules/{id}: as POST, but the spec says direction cannot be changed, so it is refused. */
export const patchRoutingRuleBody = createRoutingRuleBody
  .partial()
  .extend({ direction: z.never({ error: 'cannot be changed by PATCH' }).optional() });
export type PatchRoutingRuleBody = z.infer<typeof patchRoutingRuleBody>;

/** POST /ivrs */
export const createIvrBody = body({
  name: requiredText(),
  ring_time: opt(integer()),
  post_sounds: opt(array()),
  ddis: opt(array(idValue())),
  timeout: opt(integer()),
  repeats: opt(integer()),
  ext_dialing: opt(boolean()),
  language: opt(codeValue()),
  final_dst_type: opt(codeValue()),
  final_dst_id: opt(integer()),
  number: opt(integer()),
  random_choice: opt(boolean()),
});
export type CreateIvrBody = z.infer<typeof createIvrBody>;
