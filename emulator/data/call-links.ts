import type { Row } from '../store/types';
import { mp3Size } from '../media/mp3';
import { formatEpoch } from './calendar';
import type { CallContext } from './call-context';
import type { CdrParts } from './call-parts';
import { rateFor } from './phone-numbers';
import type { Rng } from './prng';
import type { IdAllocator } from './profiles';
import type { TranscriptEntry } from './transcripts';

// Rows that hang off a CDR: recording, voice message, note, web call, Call Me Back and call-tracking rows.

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const NOTES = [
  'Customer asked for a callback next week.',
  'Sent quote by e-mail after the call.',
  'Escalated to second-line support.',
  'Wrong number, removed from the list.',
  'Follow up on the renewal before month end.',
];

function money(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

/** Charge of a call: rate per started minute of billable time, to 4 decimals. */
export function chargeOf(rate: number, billsec: number): number {
  return money(rate * Math.ceil(billsec / 60));
}

/** 32 hex characters (a recording's download token). */
function token(rng: Rng): string {
  let s = '';
  for (let i = 0; i < 4; i++) {
    const n = (rng.next() * 4294967296) >>> 0;
    s += (HEX[n >>> 24] as string) + HEX[(n >>> 16) & 255] + HEX[(n >>> 8) & 255] + HEX[n & 255];
  }
  return s;
}

/**
 * What the official CLI lists, filters, names and sizes a recording's download with (not in the spec;
 * VoIPstudio/cli-client src/entities.js, src/download.js): when the recording starts as a date string
 * (`YYYY-MM-DD HH:MM:SS`, UTC, which its --from/--to filters compare with gte/lte), who called whom, the
 * call's direction as `type` (`I` inbound, `O` outbound: its --type filter) and the file's size in bytes.
 */
export function recordingFile(
  cdr: Row,
  seconds: number,
  startedAt: number,
  recordingId: number,
): { timestamp: string; caller: unknown; called: unknown; type: unknown; size: number } {
  return {
    timestamp: formatEpoch(startedAt),
    caller: cdr.src,
    called: cdr.dst,
    type: cdr.type,
    size: mp3Size({ seconds: seconds > 0 ? seconds : 5, seed: recordingId }),
  };
}

/** The recording of a connected call, created when it ends; AI fields are pooled (or absent for now). */
export function monitorRow(
  ids: IdAllocator,
  rng: Rng,
  cdr: Row,
  p: CdrParts,
  end: number,
  ai?: TranscriptEntry,
): Row {
  const id = ids.take('monitors');
  return {
    id,
    created_at: formatEpoch(end),
    token: token(rng),
    live_id: cdr.live_id,
    cdr_id: cdr.id,
    user_id: p.user.id,
    duration: p.billsec,
    ...recordingFile(cdr, p.billsec, end - p.billsec, id),
    transcript: ai?.transcript ?? null,
    transcript_speakers: ai?.transcript_speakers ?? null,
    summary: ai?.summary ?? null,
    sentiment: ai?.sentiment ?? null,
    cx_score: ai?.cx_score ?? null,
    metadata: ai?.metadata ?? null,
  };
}

/** The message left on a call that went to voicemail (folder 1 = new, 2 = old). */
export function voicemessageRow(
  ids: IdAllocator,
  rng: Rng,
  cdr: Row,
  p: CdrParts,
  end: number,
  transcript: string | null,
): Row {
  const isNew = rng.chance(0.2);
  return {
    id: ids.take('voicemessages'),
    caller: p.src.clid,
    callerid: p.src.number,
    dialled: p.dst.number,
    duration: p.billsec,
    extension_id: p.user.id,
    folder: isNew ? 1 : 2,
    is_new: isNew,
    live_id: cdr.live_id,
    origtime: formatEpoch(end - p.billsec),
    parent_live_id: null,
    transcript,
    user_id: p.user.id,
    cdr_id: cdr.id,
  };
}

export function noteRow(ids: IdAllocator, rng: Rng, cdr: Row, p: CdrParts, end: number): Row {
  return {
    id: ids.take('cdrnotes'),
    cdr_id: cdr.id,
    user_id: p.user.id,
    created_at: formatEpoch(end + rng.int(30, 900)),
    note: rng.pick(NOTES),
  };
}

/** The web call's two legs: the user's mobile and the destination, each charged at its own rate. */
export function webcallRow(ids: IdAllocator, cdr: Row, p: CdrParts): Row {
  const fromRate = rateFor(p.src.number);
  const fromCharge = chargeOf(fromRate, p.billsec);
  const toCharge = chargeOf(p.rate, p.billsec);
  return {
    id: ids.take('webcalls'),
    calldate: cdr.calldate,
    charge: money(fromCharge + toCharge),
    from: p.src.number,
    from_charge: fromCharge,
    from_duration: p.billsec,
    from_rate: fromRate,
    to: p.dst.number,
    to_charge: toCharge,
    to_duration: p.billsec,
    to_rate: p.rate,
    cdr_id: cdr.id,
    live_id: cdr.live_id,
  };
}

/** A Call Me Back call as the module lists it (id = the CDR's id). */
export function callMeBackCdrRow(rng: Rng, ctx: CallContext, cdr: Row): Row {
  return {
    id: cdr.id,
    button_id: rng.pick(ctx.callMeBack.buttonIds),
    created_at: cdr.calldate,
    name: cdr.dst_name,
    ddi: Number(ctx.dir.mainNumber.slice(1)),
    culture: 1,
    calldate: cdr.calldate,
    dst: cdr.dst,
    duration: cdr.duration,
    billsec: cdr.billsec,
    disposition: cdr.disposition,
    live_id: cdr.live_id,
    cdr_id: cdr.id,
  };
}

/** A call that came in on a call-tracking number (id = the CDR's id). */
export function trackingCdrRow(ctx: CallContext, cdr: Row, p: CdrParts): Row {
  const ddi = p.info.slice('Call tracking: '.length);
  const t = ctx.tracking.find((x) => x.ddi === ddi) ?? ctx.tracking[0];
  return {
    id: cdr.id,
    cdr_id: cdr.id,
    live_id: cdr.live_id,
    campaign_id: t?.campaignId ?? null,
    ddi,
    calldate: cdr.calldate,
    src: cdr.src,
    duration: cdr.duration,
    billsec: cdr.billsec,
    type: cdr.type,
    source: t?.source ?? '',
    landing_page: t?.landingPage ?? '',
  };
}
