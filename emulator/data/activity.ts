import type { Row } from '../store/types';
import { formatEpoch } from './calendar';
import type { CallContext } from './calls';
import type { ContactInfo } from './contacts';
import type { Directory } from './directory';
import { rateFor } from './phone-numbers';
import type { Rng } from './prng';
import type { IdAllocator } from './profiles';

type Rows = Record<string, Row[]>;

/** Video and screen-share sessions between users, each with its media session detail record. */
export function buildMediaSessions(
  dir: Directory,
  rng: Rng,
  ids: IdAllocator,
  from: number,
  to: number,
): Rows {
  const sessions: Row[] = [];
  const msdrs: Row[] = [];
  const times = Array.from({ length: dir.profile.mediaSessions }, () =>
    Math.floor(from + rng.next() * (to - from)),
  ).sort((a, b) => a - b);
  for (const t of times) {
    const a = rng.pick(dir.users);
    let b = rng.pick(dir.users);
    if (b === a) b = dir.users[(dir.users.indexOf(a) + 1) % dir.users.length] ?? a;
    const duration = rng.int(60, 3600);
    const callId = `${rng.hex(8)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(12)}`;
    const type = rng.chance(0.7) ? 'VIDEO' : 'SCREEN_SHARE';
    const id = ids.take('mediasessions');
    sessions.push({
      id,
      call_id: callId,
      created_at: formatEpoch(t),
      dst_id: String(b.id),
      dst_ua: b.ua,
      duration,
      src_id: String(a.id),
      src_ua: a.ua,
      status: 'ENDED',
      type,
      updated_at: formatEpoch(t + duration),
      user: a.id,
    });
    msdrs.push({
      id: ids.take('msdrs'),
      call_id: callId,
      created_at: formatEpoch(t + duration),
      dst: b.ext,
      dst_id: String(b.id),
      dst_ua: b.ua,
      duration,
      media_session_id: id,
      src: a.ext,
      src_id: String(a.id),
      src_ua: a.ua,
      t_cause: 'Normal Clearing',
      type,
      user_id: a.id,
    });
  }
  return { mediasessions: sessions, msdrs };
}

/** Monthly statements whose call charges are the sums of the month's CDR charges. */
export function buildStatements(
  dir: Directory,
  months: CallContext['months'],
  ids: IdAllocator,
  nowMs: number,
): Row[] {
  const currentMonth = formatEpoch(nowMs / 1000).slice(0, 7);
  const fee = dir.users.length * 12;
  return [...months.keys()]
    .sort()
    .filter((m) => m < currentMonth)
    .map((month, i) => {
      const { charge, calls } = months.get(month) ?? { charge: 0, calls: 0 };
      const [y, mo] = month.split('-').map(Number);
      const start = Date.UTC(y ?? 1970, (mo ?? 1) - 1, 1) / 1000;
      const end = Date.UTC(y ?? 1970, mo ?? 1, 1) / 1000;
      const callCharges = Math.round(charge * 10_000) / 10_000;
      return {
        id: ids.take('statements'),
        created_at: formatEpoch(end + 2 * 3600),
        number: `${dir.profile.id === 1 ? 'ACM' : 'GLX'}-${month.replace('-', '')}-${String(i + 1).padStart(3, '0')}`,
        period_start: formatEpoch(start),
        period_end: formatEpoch(end - 1),
        calls,
        call_charges: callCharges,
        subscription_fees: fee,
        amount: Math.round((callCharges + fee) * 100) / 100,
        currency: dir.profile.currency,
        status: 'paid',
      };
    });
}

/** A handful of calls in progress at the clock's now (times are epoch seconds, as live calls carry them). */
export function buildLiveCalls(
  dir: Directory,
  contacts: readonly ContactInfo[],
  rng: Rng,
  ids: IdAllocator,
  nowSec: number,
  count: number,
): Row[] {
  return Array.from({ length: count }, (_, i) => {
    const user = dir.users[(i * 7) % dir.users.length] ?? dir.users[0];
    const c = contacts.length > 0 ? rng.pick(contacts) : undefined;
    const inbound = i % 2 === 0;
    const ringing = i === count - 1;
    const start = Math.floor(nowSec - rng.int(20, 900));
    const number = c?.tel ?? dir.mainNumber;
    const userSide = {
      id: String(user?.id ?? ''),
      name: user?.name ?? '',
      num: user?.ext ?? '',
      ua: user?.ua ?? '',
    };
    const extSide = { id: c?.ref ?? '', name: c?.name ?? '', num: number, ua: '' };
    const [src, dst] = inbound ? [extSide, userSide] : [userSide, extSide];
    return {
      id: ids.take('live'),
      clid: `"${src.name}" <${inbound ? number : dir.mainNumber}>`,
      connected_at: ringing ? null : start + rng.int(3, 15),
      context: 'PSTN_CALL',
      destination: inbound ? 1 : 2,
      dst: dst.num,
      dst_call_id: `${rng.hex(16)}@${dir.profile.domain}`,
      dst_codec: 'PCMA',
      dst_connection: 1,
      dst_contact: `sip:${dst.num}@10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}:5060`,
      dst_id: dst.id,
      dst_name: dst.name,
      dst_rate: inbound ? 0 : rateFor(number),
      dst_ua: dst.ua,
      duration: Math.floor(nowSec - start),
      min_charge: 0,
      monitor_state: user?.monitor === 'A' ? 1 : 0,
      parent_id: 0,
      queue_state: '',
      referred_by: '',
      src: src.num,
      src_call_id: `${rng.hex(16)}@${dir.profile.domain}`,
      src_codec: inbound ? 'PCMA' : (user?.codec ?? 'PCMA'),
      src_contact: `sip:${src.num}@10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}:5060`,
      src_id: src.id,
      src_name: src.name,
      src_rate: 0,
      src_ua: src.ua,
      start_time: start,
      state: ringing ? 2 : 3,
      user_id: user?.id ?? null,
    };
  });
}
