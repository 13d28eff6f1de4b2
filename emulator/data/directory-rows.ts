// The API shapes of a customer's directory: one row builder per resource (users, queues, ring groups,
// IVRs, DDIs), from what buildDirectory decided.
import type { Row } from '../store/types';
import { formatEpoch } from './calendar';
import { callingCode } from './phone-numbers';
import type { Rng } from './prng';
import type { DdiInfo, GroupInfo, UserInfo } from './directory-types';
import type { CustomerProfile } from './profiles';

export function userRow(
  profile: CustomerProfile,
  u: UserInfo,
  index: number,
  rng: Rng,
  created: number,
  roles: Row[],
  pickupGroupId: number | null,
): Row {
  const [first, ...rest] = u.name.split(' ');
  const role = index === 0 ? roles[0] : index < 4 ? roles[1] : roles[2];
  return {
    id: u.id,
    is_initial: index === 0,
    email: u.email,
    first_name: first ?? '',
    last_name: rest.join(' '),
    roles: [role?._name ?? 'ROLE_USER'],
    active: index === 0 || rng.chance(0.95),
    visited_apps: index === 0 ? ['admin', 'softphone', 'reports'] : ['softphone'],
    is_root: index === 0,
    two_factor_auth: index === 1 && profile.id === 1 ? 'E' : 'D',
    created_at: formatEpoch(created),
    customer_id_id: profile.id,
    mobile_activated: rng.chance(0.6),
    mobile: u.mobile,
    ext: u.ext,
    cli: u.cli,
    esc_cli: u.cli,
    cc: callingCode(profile.country),
    area_code: profile.country === 'GB' ? '20' : '30',
    ring_time: String(rng.pick([15, 20, 25, 30])),
    final_dst_type: u.finalDst,
    final_dst_id: u.finalDst === 'V' ? u.id : 0,
    vm_pin: rng.digits(4),
    vm_to_email: rng.chance(0.7),
    vm_emails: [u.email],
    vm_tts: rng.chance(0.5) ? 'Y' : 'N',
    vm_new: 0,
    vm_old: 0,
    cw: rng.chance(0.8),
    dnd: rng.chance(0.05),
    rec_allowed: true,
    rec_never_internal: rng.chance(0.7),
    fm: rng.chance(0.15),
    fm_only_direct: false,
    fm_init_ring_time: 10,
    fm_announcement_enabled: false,
    fm_confirm_required: false,
    fm_allowed: true,
    fm_targets: [u.mobile],
    fm_ring_time: '20',
    fm_strategy: 'H',
    fm_final_dst_type: 'V',
    fm_final_dst_id: u.id,
    fm_cli: 'R',
    nun: u.mobile,
    nun_only_direct: false,
    nun_ring_time: 20,
    monitor: u.monitor,
    monitor_transcript: u.transcribe ? 'Y' : 'D',
    auto_answer_header: '',
    log_missed_calls: true,
    language: profile.language,
    cnam: false,
    email_missed: rng.chance(0.3) ? u.email : '',
    call_barge_allowed: index < 4,
    transfer_cli: 'R',
    nb_sip_locations: rng.int(0, 2),
    pickup_group_id: pickupGroupId,
    location_id: profile.country === 'GB' ? 'LON-1' : 'BER-1',
    vm_announcement_id: null,
    fm_announcement_id: null,
    legacy_api_key: null,
  };
}

export function queueRow(q: GroupInfo, rng: Rng, ivrId: number): Row {
  return {
    id: q.id,
    ann_freq: 30,
    call_flow: 0,
    final_dst_id: 0,
    final_dst_type: 0,
    ivr: ivrId,
    language: 1,
    max_callers: rng.pick([10, 20, 50]),
    max_wait_time: rng.pick([120, 180, 300]),
    moh: 1,
    monitor: q.monitor ? 1 : 0,
    number: Number(q.number),
    post_call_ivr_id: 0,
    retry: 5,
    ring_strategy: rng.int(1, 4),
    ring_time: 20,
    wrap_up_panel_timeout: 30,
    wrap_up_time: rng.pick([0, 10, 15]),
    caller_sounds: 'queue-periodic-announce',
    email_missed: '',
    name: q.name,
    cli_prefix: false,
    hash_to_exit: true,
    hold_ann: true,
    join_empty: false,
    liaf: false,
    pos_ann: true,
    skip_busy: true,
    wait_time_prefix: false,
    users: q.members.map((m) => ({ id: m.id, status: 1 })),
  };
}

export function ringGroupRow(g: GroupInfo, rng: Rng): Row {
  return {
    id: g.id,
    cli_prefix: false,
    final_dst_id: g.members[0]?.id ?? 0,
    final_dst_type: 1,
    moh_id: 0,
    name: g.name,
    number: Number(g.number),
    ring_time: rng.pick([20, 25, 30]),
    strategy: rng.int(1, 2),
    users: g.members.map((m) => m.id),
  };
}

const DIGIT_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'] as const;

export function ivrRow(
  v: GroupInfo,
  index: number,
  profile: CustomerProfile,
  queues: GroupInfo[],
  ringGroups: GroupInfo[],
  users: UserInfo[],
): Row {
  const row: Row = {
    id: v.id,
    ext_dialing: index === 0,
    final_dst_id: ringGroups[0]?.id ?? 0,
    final_dst_type: 2,
    language: 1,
    name: v.name,
    number: Number(v.number),
    random_choice: false,
    random_dst: '',
    repeats: 2,
    ring_time: 30,
    timeout: 5,
    post_sounds: '',
    sounds: `${profile.domain}/ivr-${index + 1}-greeting.mp3`,
    hash: '',
    star: '',
    zero: ringGroups[0] !== undefined ? `R:${ringGroups[0].id}` : '',
  };
  for (const [d, word] of DIGIT_WORDS.entries()) {
    const q = queues[d];
    row[word] = q !== undefined ? `Q:${q.id}` : d === queues.length ? `U:${users[0]?.id ?? 0}` : '';
    row[`${word}_sounds`] = q !== undefined ? `press-${d + 1}-${q.name.toLowerCase()}.mp3` : '';
  }
  return row;
}

const TARGET_TYPE: Record<DdiInfo['targetKind'], number> = { user: 1, ringgroup: 2, ivr: 3, queue: 4 };

export function ddiRow(d: DdiInfo, profile: CustomerProfile, rng: Rng, created: number): Row {
  return {
    id: d.e164,
    call_flow: 0,
    channels: rng.pick([2, 4, 10, 30]),
    cli_hide: false,
    cli_prefix: 0,
    created_at: formatEpoch(created),
    e164: d.e164,
    esc_enabled: d.country === profile.country,
    fax_email: '',
    fax_enabled: rng.chance(0.2),
    flag: 0,
    has_fax_password: false,
    info: d.tracking ? 'Call tracking number' : '',
    name: `${d.country} ${d.tracking ? 'tracking' : 'line'} ${d.e164.slice(-4)}`,
    rate: d.country === profile.country ? 1.5 : 4.5,
    sms_email: '',
    sms_enabled: d.country === profile.country || d.country === 'US',
    status: 1,
    target_id: d.targetId,
    target_type: TARGET_TYPE[d.targetKind],
    tel_verified: true,
    uri: '',
  };
}
