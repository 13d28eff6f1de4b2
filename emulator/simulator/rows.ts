// Store rows of a simulated call: the live call while it lasts, then its CDR (live_id = call_id), its
// recording (monitor) and voice message; and the SMS row of an inbound SMS. Same field sets and key order
// as the seeded data (emulator/data/calls.ts, call-links.ts, activity.ts).
import { recordingFile } from '../data/call-links';
import { formatEpoch } from '../data/calendar';
import { chargeOf } from '../data/call-links';
import type { Rng } from '../data/prng';
import type { TranscriptEntry } from '../data/transcripts';
import type { Row } from '../store';
import type { CallPlan, PlannedStep } from './plan';

/** Numeric live-call state codes (as PATCH /calls accepts them: emulator/server/routes/calls.ts). */
export const LIVE_STATE_CODES: Readonly<Record<string, number>> = {
  INITIAL: 0,
  ACCEPTED: 1,
  RINGING: 2,
  CONNECTED: 3,
  ON_HOLD: 4,
  HANGUP: 5,
  FAILED: 6,
};

const SERVERS = [3, 4, 7, 9];

/** The live call as GET /calls shows it at a step (times are epoch seconds, as live calls carry them). */
export function liveCallRow(
  plan: CallPlan,
  step: PlannedStep,
  domain: string,
): Omit<Row, 'id'> & { id: number } {
  const inbound = plan.destination === 'in';
  const connected = plan.connectedAt !== null && step.at >= plan.connectedAt;
  return {
    id: plan.callId,
    clid: plan.src.clid,
    connected_at: connected ? plan.start + (plan.connectedAt as number) : null,
    context: step.context === 'LOCAL_USER' ? 'PSTN_CALL' : step.context,
    destination: inbound ? 1 : 2,
    dst: step.dst.number,
    dst_call_id: `${plan.srcHash.slice(0, 16)}@${domain}`,
    dst_codec: step.dst.codec,
    dst_connection: connected ? 1 : 0,
    dst_contact: `sip:${step.dst.number}@${domain}`,
    dst_id: step.dst.ref,
    dst_name: step.dst.name,
    dst_rate: plan.cdr.rate,
    dst_ua: step.dst.ua,
    duration: step.at,
    min_charge: 0,
    monitor_state: plan.recorded && connected ? 1 : 0,
    parent_id: 0,
    queue_state: step.context === 'QUEUE' ? 'waiting' : '',
    referred_by: '',
    src: plan.src.number,
    src_call_id: `${plan.srcHash.slice(16)}@${domain}`,
    src_codec: plan.src.codec,
    src_contact: `sip:${plan.src.number}@${domain}`,
    src_id: plan.src.ref,
    src_name: plan.src.name,
    src_rate: 0,
    src_ua: plan.src.ua,
    start_time: plan.start,
    state: LIVE_STATE_CODES[step.state] ?? 0,
    user_id: plan.user.id,
  };
}

/**
 * The CDR of an ended call; calldate is the call's start, never before `floor` (the latest CDR's date)
 * when one is given.
 */
export function cdrRow(plan: CallPlan, rng: Rng, floor: string | undefined): Omit<Row, 'id'> {
  const start = formatEpoch(plan.start);
  const c = plan.cdr;
  return {
    duration: c.duration,
    live_id: plan.callId,
    parent_live_id: null,
    user_id: plan.user.id,
    sip_endpoint_id: 40_000 + plan.user.id,
    server_id: rng.pick(SERVERS),
    type: c.type,
    calldate: floor !== undefined && floor > start ? floor : start,
    clid: plan.src.clid,
    src_id: plan.src.ref,
    src_name: plan.src.name,
    src: plan.src.number,
    src_ua: plan.src.ua,
    src_codec: plan.src.codec,
    dst_id: plan.dst.ref,
    dst: plan.dst.number,
    dst_name: plan.dst.name,
    dst_ua: plan.dst.ua,
    dst_codec: plan.dst.codec,
    billsec: c.billsec,
    disposition: c.disposition,
    destination: plan.destination,
    context: c.context,
    rate: c.rate,
    charge: chargeOf(c.rate, c.billsec),
    t_cause: c.tCause,
    info: c.info,
    call_id: plan.callId,
    is_root: true,
    root_live_id: plan.callId,
    labels: [],
    metadata: null,
    nb_notes: 0,
  };
}

/** The recording, created at hangup (or `createdAt`, when it is listed late) without its AI results. */
export function monitorRow(
  plan: CallPlan,
  cdr: Row,
  rng: Rng,
  createdAt = plan.start + plan.cdr.duration,
): Omit<Row, 'id'> {
  return {
    created_at: formatEpoch(createdAt),
    token: rng.hex(32),
    live_id: plan.callId,
    cdr_id: Number(cdr.id),
    user_id: plan.user.id,
    duration: plan.cdr.billsec,
    // The size does not depend on the tone (every tone's tag has the same length), so the CDR id seeds it.
    ...recordingFile(cdr, plan.cdr.billsec, plan.start + (plan.connectedAt ?? 0), Number(cdr.id)),
    transcript: null,
    transcript_speakers: null,
    summary: null,
    sentiment: null,
    cx_score: null,
    metadata: null,
  };
}

/** The AI results that arrive later on a recording. */
export function aiPatch(ai: TranscriptEntry): Record<string, unknown> {
  return {
    transcript: ai.transcript,
    transcript_speakers: ai.transcript_speakers,
    summary: ai.summary,
    sentiment: ai.sentiment,
    cx_score: ai.cx_score,
    metadata: ai.metadata,
  };
}

/** The message left on a call that went to voicemail (folder 1 = new). */
export function voicemessageRow(plan: CallPlan, cdrId: number, transcript: string | null): Omit<Row, 'id'> {
  const end = plan.start + plan.cdr.duration;
  return {
    caller: plan.src.clid,
    callerid: plan.src.number,
    dialled: plan.dst.number,
    duration: plan.cdr.billsec,
    extension_id: plan.user.id,
    folder: 1,
    is_new: true,
    live_id: plan.callId,
    origtime: formatEpoch(end - plan.cdr.billsec),
    parent_live_id: null,
    transcript,
    user_id: plan.user.id,
    cdr_id: cdrId,
  };
}

/** An inbound SMS as the sms table keeps it. */
export function smsRow(
  time: number,
  sms: {
    from: string;
    fromRef: string;
    fromName: string;
    to: string;
    userId: number;
    userName: string;
    text: string;
  },
): Omit<Row, 'id'> {
  return {
    created_at: formatEpoch(time),
    from: sms.from,
    from_id: sms.fromRef,
    from_name: sms.fromName,
    message: sms.text,
    result: 'RECEIVED',
    to: sms.to,
    to_id: String(sms.userId),
    to_name: sms.userName,
    type: 'I',
    user_id: sms.userId,
  };
}
