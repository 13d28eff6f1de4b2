// The simulator's plan vocabulary: scenarios, traffic kinds, the default mix, and the shape of a planned call.
import type { Rng } from '../data/prng';
import type { SimUser } from './world';

/** The call scenarios the simulator plays. */
export const CALL_SCENARIOS = [
  'inbound_answered',
  'inbound_queue_answered',
  'inbound_queue_missed',
  'inbound_voicemail',
  'inbound_missed',
  'outbound_answered',
  'outbound_failed',
  'hold_unhold',
  'blind_transfer',
  'ivr_dtmf',
  'inbound_ring_group',
] as const;
export type CallScenario = (typeof CALL_SCENARIOS)[number];

/** Traffic kinds of the mix: the call scenarios plus inbound SMS. */
export const TRAFFIC_KINDS = [...CALL_SCENARIOS, 'sms_inbound'] as const;
export type TrafficKind = (typeof TRAFFIC_KINDS)[number];

/** Default traffic mix (relative weights). */
export const DEFAULT_MIX: Readonly<Record<TrafficKind, number>> = {
  inbound_answered: 18,
  inbound_queue_answered: 18,
  inbound_queue_missed: 8,
  inbound_voicemail: 5,
  inbound_missed: 4,
  outbound_answered: 20,
  outbound_failed: 7,
  hold_unhold: 6,
  blind_transfer: 4,
  ivr_dtmf: 6,
  // Off unless a mix asks for it: the default mix (and every seeded run of it) stays as it was.
  inbound_ring_group: 0,
  sms_inbound: 4,
};

/** A mix with ring groups, for simulations of a messier world (the default mix plus ring-group calls). */
export const REALISTIC_MIX: Readonly<Record<TrafficKind, number>> = { ...DEFAULT_MIX, inbound_ring_group: 8 };

/** One side of a call, as events and the CDR show it. */
export interface SimParty {
  /** Numeric id in events (user, contact, queue or IVR id); null for an unknown number. */
  id: number | null;
  /** CDR src_id / dst_id: user id, `contact:<id>`, queue or IVR id, or ''. */
  ref: string;
  number: string;
  name: string;
  clid: string;
  ua: string;
  codec: string;
  /** Set for a contact. */
  contactId: number | null;
}

/** One event of a planned call. */
export interface PlannedStep {
  /** Seconds after the call's start. */
  at: number;
  name: string;
  state: string;
  context: string;
  /** The party the call is at (the event's dst fields). */
  dst: SimParty;
  digit?: string;
  tCause?: string;
  info?: string;
  terminatedBy?: 'caller' | 'callee';
  /** An agent's leg of a queue or ring-group call that rang and was not answered (the call goes on). */
  leg?: true;
}

/** A call from start to CDR. */
export interface CallPlan {
  scenario: CallScenario;
  callId: number;
  customerId: number;
  /** Epoch seconds. */
  start: number;
  srcHash: string;
  destination: 'in' | 'out';
  src: SimParty;
  /** The CDR's destination party (the user, queue or IVR called, or the external number). */
  dst: SimParty;
  /** The user of the CDR: the caller for outbound, who answered (or was rung) for inbound. */
  user: SimUser;
  steps: PlannedStep[];
  /** Offset of the first call.connected, if any. */
  connectedAt: number | null;
  cdr: {
    type: 'I' | 'O' | 'M';
    context: string;
    disposition: 'CONNECTED' | 'RINGING' | 'INITIAL' | 'VM';
    duration: number;
    billsec: number;
    tCause: string;
    info: string;
    rate: number;
  };
  recorded: boolean;
  /** The caller's number when nobody answered (a later call from it closes the callback). */
  missedNumber: string | null;
}

/** Choices a caller of planCall may fix. */
export interface PlanOptions {
  callId: number;
  start: number;
  /** External number (caller for inbound, callee for outbound). */
  external?: string;
  userId?: number;
  recordedShare?: number;
  recorded?: boolean;
  /** Numbers that recently went unanswered: some inbound calls come from them again. */
  recentMissed?: string[];
  /** Talk time in seconds (otherwise drawn). */
  talk?: number;
  /**
   * Queue and ring-group calls report agents' unanswered legs (call.missed, LOCAL_USER) with probability
   * `share`; what the legs are is drawn from `rng`, a generator of their own, so calls planned without
   * legs draw exactly what they drew before legs existed.
   */
  legs?: { rng: Rng; share: number };
}
