// One simulated call, planned in full before it starts: who calls whom, the events of the spec's call-state
// table at their offsets (simulated seconds), and how the CDR will read. Pure: the same generator state
// and world give the same plan.
import { rateFor, trunkCodec } from '../data/phone-numbers';
import type { Rng } from '../data/prng';
import type { SimContact, SimGroup, SimUser, SimWorld } from './world';

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
  sms_inbound: 4,
};

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
}

const USER_CONTEXT = 'LOCAL_USER';
const QUEUE_CONTEXT = 'QUEUE';
const IVR_CONTEXT = 'IVR';

/** Talk time: log-normal around ~100 s, 5 s to 20 min. */
function talkTime(rng: Rng): number {
  const u1 = Math.max(rng.next(), 1e-9);
  const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * rng.next());
  return Math.min(1200, Math.max(5, Math.round(Math.exp(Math.log(100) + 0.8 * z))));
}

function userParty(u: SimUser, world: SimWorld): SimParty {
  return {
    id: u.id,
    ref: String(u.id),
    number: u.ext,
    name: u.name,
    clid: `"${u.name}" <${u.cli || world.mainNumber}>`,
    ua: u.ua,
    codec: u.codec,
    contactId: null,
  };
}

function groupParty(g: SimGroup): SimParty {
  return {
    id: g.id,
    ref: String(g.id),
    number: g.number,
    name: g.name,
    clid: '',
    ua: '',
    codec: 'PCMA',
    contactId: null,
  };
}

/** Contacts by number, per world. */
const contactIndex = new WeakMap<SimWorld, Map<string, SimContact>>();

/** The external party of a number: a contact when the number is one of theirs. */
export function externalParty(world: SimWorld, number: string): SimParty {
  let index = contactIndex.get(world);
  if (!index) {
    index = new Map();
    for (const x of world.contacts) for (const n of x.numbers) if (!index.has(n)) index.set(n, x);
    contactIndex.set(world, index);
  }
  const c = index.get(number);
  return {
    id: c?.id ?? null,
    ref: c ? `contact:${c.id}` : '',
    number,
    name: c?.name ?? '',
    clid: c ? `"${c.name}" <${number}>` : `<${number}>`,
    ua: '',
    codec: trunkCodec(number),
    contactId: c?.id ?? null,
  };
}

/** An external number: a recent missed caller calling again, a contact (75%) or an unknown number. */
function externalNumber(rng: Rng, world: SimWorld, opts: PlanOptions, mayRepeat: boolean): string {
  if (opts.external !== undefined) return opts.external;
  const recent = opts.recentMissed ?? [];
  if (mayRepeat && recent.length > 0 && rng.chance(0.35)) return rng.pick(recent);
  if (world.contacts.length > 0 && rng.chance(0.75)) return rng.pick(rng.pick(world.contacts).numbers);
  return rng.pick(world.unknownNumbers);
}

function pickUser(rng: Rng, world: SimWorld, opts: PlanOptions, among?: number[]): SimUser {
  if (opts.userId !== undefined) {
    const u = world.users.find((x) => x.id === opts.userId);
    if (u) return u;
  }
  const pool = among && among.length > 0 ? world.users.filter((u) => among.includes(u.id)) : world.users;
  return rng.pick(pool.length > 0 ? pool : world.users);
}

function otherUser(rng: Rng, world: SimWorld, not: SimUser): SimUser {
  const pool = world.users.filter((u) => u.id !== not.id);
  return pool.length > 0 ? rng.pick(pool) : not;
}

function srcHash(rng: Rng): string {
  return rng.hex(32);
}

/** Plans one call of a scenario. */
export function planCall(rng: Rng, world: SimWorld, scenario: CallScenario, opts: PlanOptions): CallPlan {
  const ring = rng.int(3, 18);
  const talk = opts.talk ?? talkTime(rng);
  const recordedDraw = rng.next();
  const hash = srcHash(rng);
  const base = {
    scenario,
    callId: opts.callId,
    customerId: world.customerId,
    start: opts.start,
    srcHash: hash,
  };
  const recorded = (p: CallPlan['cdr']): boolean =>
    p.disposition === 'CONNECTED' && (opts.recorded ?? recordedDraw < (opts.recordedShare ?? 0.6));
  const steps: PlannedStep[] = [];
  const step = (s: PlannedStep): void => {
    steps.push(s);
  };
  const end = (who: 'caller' | 'callee'): 'caller' | 'callee' => who;
  const hangupBy = (): 'caller' | 'callee' => (rng.chance(0.5) ? 'caller' : 'callee');

  switch (scenario) {
    case 'inbound_answered':
    case 'hold_unhold':
    case 'inbound_missed':
    case 'inbound_voicemail':
    case 'blind_transfer': {
      const outboundHold = scenario === 'hold_unhold' && rng.chance(0.4);
      const user = pickUser(rng, world, opts);
      const me = userParty(user, world);
      const ext = externalParty(world, externalNumber(rng, world, opts, scenario === 'inbound_answered'));
      if (outboundHold) return holdOutbound(rng, base, user, me, ext, ring, talk, recorded);
      step({ at: 0, name: 'call.initial', state: 'INITIAL', context: USER_CONTEXT, dst: me });
      step({ at: 1, name: 'call.ringing', state: 'RINGING', context: USER_CONTEXT, dst: me });
      if (scenario === 'inbound_missed' || scenario === 'inbound_voicemail') {
        const r = rng.int(15, 30);
        const vm = scenario === 'inbound_voicemail';
        const msg = vm ? rng.int(8, 60) : 0;
        step({
          at: r,
          name: 'call.missed',
          state: vm ? 'RINGING' : 'HANGUP',
          context: USER_CONTEXT,
          dst: me,
          tCause: 'No user responding',
          info: vm ? 'Forwarded to voicemail' : '',
          terminatedBy: end('callee'),
        });
        step({
          at: r + msg,
          name: 'call.hangup',
          state: 'HANGUP',
          context: USER_CONTEXT,
          dst: me,
          tCause: vm ? 'Normal Clearing' : 'No user responding',
          info: vm ? 'Voicemail' : '',
          terminatedBy: end(vm ? 'caller' : 'callee'),
        });
        const cdr: CallPlan['cdr'] = vm
          ? {
              type: 'I',
              context: 'PSTN_CALL',
              disposition: 'VM',
              duration: r + msg,
              billsec: msg,
              tCause: 'Normal Clearing',
              info: 'Voicemail',
              rate: 0,
            }
          : {
              type: 'M',
              context: 'PSTN_CALL',
              disposition: 'RINGING',
              duration: r,
              billsec: 0,
              tCause: 'No user responding',
              info: '',
              rate: 0,
            };
        return {
          ...base,
          destination: 'in',
          src: ext,
          dst: me,
          user,
          steps,
          connectedAt: null,
          cdr,
          recorded: false,
          missedNumber: ext.number,
        };
      }
      step({ at: ring, name: 'call.connected', state: 'CONNECTED', context: USER_CONTEXT, dst: me });
      let t = ring;
      let final = me;
      let finalUser = user;
      let info = '';
      if (scenario === 'hold_unhold') t = holds(rng, steps, t, talk, me);
      else if (scenario === 'blind_transfer') {
        const first = Math.max(5, Math.round(talk / 3));
        const target = otherUser(rng, world, user);
        final = userParty(target, world);
        finalUser = target;
        info = `Blind transfer from ${user.name}`;
        const r2 = rng.int(3, 12);
        step({
          at: t + first,
          name: 'call.ringing',
          state: 'RINGING',
          context: USER_CONTEXT,
          dst: final,
          info,
        });
        step({
          at: t + first + r2,
          name: 'call.connected',
          state: 'CONNECTED',
          context: USER_CONTEXT,
          dst: final,
          info,
        });
        t += first + r2 + talk;
      } else t += talk;
      step({
        at: t,
        name: 'call.hangup',
        state: 'HANGUP',
        context: USER_CONTEXT,
        dst: final,
        tCause: 'Normal Clearing',
        info,
        terminatedBy: hangupBy(),
      });
      const cdr: CallPlan['cdr'] = {
        type: 'I',
        context: 'PSTN_CALL',
        disposition: 'CONNECTED',
        duration: t,
        billsec: t - ring,
        tCause: 'Normal Clearing',
        info,
        rate: 0,
      };
      return {
        ...base,
        destination: 'in',
        src: ext,
        dst: final,
        user: finalUser,
        steps,
        connectedAt: ring,
        cdr,
        recorded: recorded(cdr),
        missedNumber: null,
      };
    }
    case 'inbound_queue_answered':
    case 'inbound_queue_missed': {
      const q = rng.pick(world.queues);
      const qp = groupParty(q);
      const agent = pickUser(rng, world, opts, q.members);
      const ext = externalParty(
        world,
        externalNumber(rng, world, opts, scenario === 'inbound_queue_answered'),
      );
      step({ at: 0, name: 'call.initial', state: 'INITIAL', context: QUEUE_CONTEXT, dst: qp });
      step({ at: 1, name: 'call.ringing', state: 'RINGING', context: QUEUE_CONTEXT, dst: qp });
      if (scenario === 'inbound_queue_missed') {
        const abandoned = rng.chance(0.5);
        const w = abandoned ? rng.int(10, 90) : 120;
        const info = abandoned ? 'Caller abandoned' : 'Max wait time reached';
        const by = abandoned ? 'caller' : 'callee';
        step({
          at: w,
          name: 'call.missed',
          state: 'HANGUP',
          context: QUEUE_CONTEXT,
          dst: qp,
          tCause: 'No user responding',
          info,
          terminatedBy: by,
        });
        step({
          at: w,
          name: 'call.hangup',
          state: 'HANGUP',
          context: QUEUE_CONTEXT,
          dst: qp,
          tCause: 'No user responding',
          info,
          terminatedBy: by,
        });
        const cdr: CallPlan['cdr'] = {
          type: 'M',
          context: QUEUE_CONTEXT,
          disposition: 'RINGING',
          duration: w,
          billsec: 0,
          tCause: 'No user responding',
          info,
          rate: 0,
        };
        return {
          ...base,
          destination: 'in',
          src: ext,
          dst: qp,
          user: agent,
          steps,
          connectedAt: null,
          cdr,
          recorded: false,
          missedNumber: ext.number,
        };
      }
      const ap = userParty(agent, world);
      const wait = rng.int(4, 40);
      step({ at: wait, name: 'call.ringing', state: 'RINGING', context: USER_CONTEXT, dst: ap });
      step({ at: wait + ring, name: 'call.connected', state: 'CONNECTED', context: USER_CONTEXT, dst: ap });
      const t = wait + ring + talk;
      step({
        at: t,
        name: 'call.hangup',
        state: 'HANGUP',
        context: USER_CONTEXT,
        dst: ap,
        tCause: 'Normal Clearing',
        terminatedBy: hangupBy(),
      });
      const cdr: CallPlan['cdr'] = {
        type: 'I',
        context: QUEUE_CONTEXT,
        disposition: 'CONNECTED',
        duration: t,
        billsec: talk,
        tCause: 'Normal Clearing',
        info: '',
        rate: 0,
      };
      return {
        ...base,
        destination: 'in',
        src: ext,
        dst: qp,
        user: agent,
        steps,
        connectedAt: wait + ring,
        cdr,
        recorded: recorded(cdr),
        missedNumber: null,
      };
    }
    case 'ivr_dtmf': {
      const ivr = world.ivrs.length > 0 ? rng.pick(world.ivrs) : undefined;
      const ivrParty: SimParty = ivr
        ? groupParty(ivr)
        : groupParty({ id: 0, name: 'Main Menu', number: '800', members: [] });
      const option = ivr && ivr.options.length > 0 ? rng.pick(ivr.options) : undefined;
      const queue = option?.kind === 'queue' ? world.queues.find((q) => q.id === option.id) : undefined;
      const agent = pickUser(
        rng,
        world,
        { ...opts, ...(option?.kind === 'user' ? { userId: option.id } : {}) },
        queue?.members,
      );
      const ap = userParty(agent, world);
      const ext = externalParty(world, externalNumber(rng, world, opts, true));
      const digit = option?.digit ?? String(rng.int(1, 3));
      const pressAt = rng.int(4, 12);
      step({ at: 0, name: 'call.initial', state: 'INITIAL', context: IVR_CONTEXT, dst: ivrParty });
      step({ at: pressAt, name: 'call.dtmf', state: 'INITIAL', context: IVR_CONTEXT, dst: ivrParty, digit });
      step({ at: pressAt + 1, name: 'call.ringing', state: 'RINGING', context: USER_CONTEXT, dst: ap });
      const c = pressAt + 1 + ring;
      step({ at: c, name: 'call.connected', state: 'CONNECTED', context: USER_CONTEXT, dst: ap });
      step({
        at: c + talk,
        name: 'call.hangup',
        state: 'HANGUP',
        context: USER_CONTEXT,
        dst: ap,
        tCause: 'Normal Clearing',
        terminatedBy: hangupBy(),
      });
      const info = `IVR option ${digit}`;
      const cdr: CallPlan['cdr'] = {
        type: 'I',
        context: IVR_CONTEXT,
        disposition: 'CONNECTED',
        duration: c + talk,
        billsec: talk,
        tCause: 'Normal Clearing',
        info,
        rate: 0,
      };
      return {
        ...base,
        destination: 'in',
        src: ext,
        dst: ivrParty,
        user: agent,
        steps,
        connectedAt: c,
        cdr,
        recorded: recorded(cdr),
        missedNumber: null,
      };
    }
    case 'outbound_answered':
    case 'outbound_failed': {
      const user = pickUser(rng, world, opts);
      const me = userParty(user, world);
      const ext = externalParty(world, externalNumber(rng, world, opts, true));
      const rate = rateFor(ext.number);
      step({ at: 0, name: 'call.initial', state: 'INITIAL', context: USER_CONTEXT, dst: ext });
      if (scenario === 'outbound_failed') {
        const rang = rng.chance(0.5);
        const r = rang ? Math.min(ring, 8) : 2;
        if (rang) step({ at: 1, name: 'call.ringing', state: 'RINGING', context: USER_CONTEXT, dst: ext });
        step({
          at: r,
          name: 'call.failed',
          state: 'FAILED',
          context: USER_CONTEXT,
          dst: ext,
          tCause: 'User busy',
          terminatedBy: 'callee',
        });
        const cdr: CallPlan['cdr'] = {
          type: 'O',
          context: 'PSTN_CALL',
          disposition: rang ? 'RINGING' : 'INITIAL',
          duration: r,
          billsec: 0,
          tCause: 'User busy',
          info: '',
          rate,
        };
        return {
          ...base,
          destination: 'out',
          src: me,
          dst: ext,
          user,
          steps,
          connectedAt: null,
          cdr,
          recorded: false,
          missedNumber: null,
        };
      }
      step({ at: 1, name: 'call.ringing', state: 'RINGING', context: USER_CONTEXT, dst: ext });
      step({ at: ring, name: 'call.connected', state: 'CONNECTED', context: USER_CONTEXT, dst: ext });
      step({
        at: ring + talk,
        name: 'call.hangup',
        state: 'HANGUP',
        context: USER_CONTEXT,
        dst: ext,
        tCause: 'Normal Clearing',
        terminatedBy: hangupBy(),
      });
      const cdr: CallPlan['cdr'] = {
        type: 'O',
        context: 'PSTN_CALL',
        disposition: 'CONNECTED',
        duration: ring + talk,
        billsec: talk,
        tCause: 'Normal Clearing',
        info: '',
        rate,
      };
      return {
        ...base,
        destination: 'out',
        src: me,
        dst: ext,
        user,
        steps,
        connectedAt: ring,
        cdr,
        recorded: recorded(cdr),
        missedNumber: null,
      };
    }
  }

  /** An outbound call with hold and unhold. */
  function holdOutbound(
    r: Rng,
    b: typeof base,
    user: SimUser,
    me: SimParty,
    ext: SimParty,
    rg: number,
    tk: number,
    isRecorded: (p: CallPlan['cdr']) => boolean,
  ): CallPlan {
    step({ at: 0, name: 'call.initial', state: 'INITIAL', context: USER_CONTEXT, dst: ext });
    step({ at: 1, name: 'call.ringing', state: 'RINGING', context: USER_CONTEXT, dst: ext });
    step({ at: rg, name: 'call.connected', state: 'CONNECTED', context: USER_CONTEXT, dst: ext });
    const t = holds(r, steps, rg, tk, ext);
    step({
      at: t,
      name: 'call.hangup',
      state: 'HANGUP',
      context: USER_CONTEXT,
      dst: ext,
      tCause: 'Normal Clearing',
      terminatedBy: r.chance(0.5) ? 'caller' : 'callee',
    });
    const cdr: CallPlan['cdr'] = {
      type: 'O',
      context: 'PSTN_CALL',
      disposition: 'CONNECTED',
      duration: t,
      billsec: t - rg,
      tCause: 'Normal Clearing',
      info: '',
      rate: rateFor(ext.number),
    };
    return {
      ...b,
      destination: 'out',
      src: me,
      dst: ext,
      user,
      steps,
      connectedAt: rg,
      cdr,
      recorded: isRecorded(cdr),
      missedNumber: null,
    };
  }
}

/** One or two hold/unhold pairs inside the talk time; returns the hangup offset. */
function holds(rng: Rng, steps: PlannedStep[], connectedAt: number, talk: number, dst: SimParty): number {
  let t = connectedAt;
  const pairs = rng.chance(0.3) ? 2 : 1;
  const talkPart = Math.max(3, Math.round(talk / (pairs + 1)));
  for (let i = 0; i < pairs; i++) {
    t += talkPart;
    steps.push({ at: t, name: 'call.hold', state: 'ON_HOLD', context: USER_CONTEXT, dst });
    t += rng.int(5, 45);
    steps.push({ at: t, name: 'call.unhold', state: 'CONNECTED', context: USER_CONTEXT, dst });
  }
  return t + talkPart;
}
