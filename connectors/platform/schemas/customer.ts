// Customer module resources: users, user groups and policies, queue groups, the caller's metadata.
import { z } from 'zod';
import { FINAL_DST_TYPES, TWO_FACTOR_CODES, TWO_FACTOR_MODES } from './codes';
import { bool, date, int, intId, list, num, str, strEnum, strId } from './primitives';

const finalDstType = () => strEnum(FINAL_DST_TYPES);

/**
 * User (spec model). Samples send `customer` instead of `customer_id_id`: both are kept and
 * `customer_id_id` is filled from `customer` when missing, so code reads one name.
 */
export const userSchema = z
  .looseObject({
    id: intId(),
    is_initial: bool(),
    email: str(),
    first_name: str(),
    last_name: str(),
    roles: list(),
    active: bool(),
    visited_apps: list(),
    is_root: bool(),
    two_factor_auth: strEnum(TWO_FACTOR_MODES, TWO_FACTOR_CODES),
    created_at: date(),
    customer_id_id: int(),
    /** Sample-form alias of `customer_id_id`. */
    customer: int(),
    mobile_activated: bool(),
    mobile: str(),
    ext: str(),
    cli: str(),
    esc_cli: str(),
    cc: str(),
    area_code: str(),
    ring_time: str(),
    final_dst_type: finalDstType(),
    final_dst_id: int(),
    vm_pin: str(),
    vm_to_email: bool(),
    vm_emails: list(),
    vm_tts: str(),
    vm_new: int(),
    vm_old: int(),
    cw: bool(),
    dnd: bool(),
    rec_allowed: bool(),
    rec_never_internal: bool(),
    fm: bool(),
    fm_only_direct: bool(),
    fm_init_ring_time: int(),
    fm_announcement_enabled: bool(),
    fm_confirm_required: bool(),
    fm_allowed: bool(),
    fm_targets: list(),
    fm_ring_time: str(),
    fm_strategy: strEnum(['A', 'H', 'M']),
    fm_final_dst_type: finalDstType(),
    fm_final_dst_id: int(),
    fm_cli: strEnum(['R', 'L']),
    nun: str(),
    nun_only_direct: bool(),
    nun_ring_time: int(),
    monitor: strEnum(['N', 'A', 'I', 'O']),
    monitor_transcript: strEnum(['D', 'Y']),
    auto_answer_header: str(),
    log_missed_calls: bool(),
    language: str(),
    cnam: bool(),
    email_missed: str(),
    call_barge_allowed: bool(),
    transfer_cli: strEnum(['R', 'L']),
    nb_sip_locations: int(),
    pickup_group_id: int(),
    location_id: str(),
    vm_announcement_id: int(),
    fm_announcement_id: int(),
    /** @deprecated Deprecated by the platform (spec, Versioning). */
    legacy_api_key: str().meta({ deprecated: true }),
  })
  .overwrite((user) =>
    user.customer_id_id == null && user.customer != null ? { ...user, customer_id_id: user.customer } : user,
  );
export type User = z.infer<typeof userSchema>;

export const queueGroupSchema = z.looseObject({ id: intId(), name: str() });
export type QueueGroup = z.infer<typeof queueGroupSchema>;

export const userGroupSchema = z.looseObject({ id: intId(), color: str(), name: str() });
export type UserGroup = z.infer<typeof userGroupSchema>;

/** Same shape as UserGroup (spec). */
export const userGroupPolicySchema = z.looseObject({ id: intId(), color: str(), name: str() });
export type UserGroupPolicy = z.infer<typeof userGroupPolicySchema>;

/** Caller metadata (GET /me); the spec types `id` and `is_root` as strings. */
export const meSchema = z.looseObject({
  id: strId(),
  balance: num(),
  cc: str(),
  cli: str(),
  currency_iso: str(),
  is_root: str(),
  language: str(),
  // Beyond the spec: the live /me carries what the official clients read.
  email: str(),
  first_name: str(),
  last_name: str(),
  customer_id: int(),
  /** SIP registration of the caller's phone (the browser CTI connector registers with it). */
  sip_username: str(),
  sip_password: str(),
  sip_domain: str(),
  sip_proxy: str(),
  sip_wss_url: str(),
});
export type Me = z.infer<typeof meSchema>;
