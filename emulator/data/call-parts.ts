import type { ContactInfo } from './contacts';
import type { Directory, GroupInfo, UserInfo } from './directory';
import { rateFor, trunkCodec } from './phone-numbers';
import type { Rng } from './prng';
import type { CallContext } from './call-context';

// What kind of call happens and how it ends; calls.ts turns these parts into rows.

export type Scenario =
  'out' | 'in_direct' | 'in_queue' | 'in_ringgroup' | 'in_ivr' | 'internal' | 'webcall' | 'cmb' | 'test';

export const SCENARIOS: readonly (readonly [Scenario, number])[] = [
  ['out', 44],
  ['in_direct', 16],
  ['in_queue', 19],
  ['in_ringgroup', 7],
  ['in_ivr', 6],
  ['internal', 5.5],
  ['webcall', 1.2],
  ['cmb', 0.8],
  ['test', 0.5],
];

/** One side of a call as the CDR shows it. */
export interface Party {
  id: string;
  number: string;
  name: string;
  clid: string;
  ua: string;
  codec: string;
  /** Index into the context's contacts, or -1. */
  contactIndex: number;
}

/** The CDR fields that vary between calls; the rest is derived. */
export interface CdrParts {
  type: 'O' | 'I' | 'M';
  destination: 'in' | 'out' | 'webcall' | 'callmeback';
  context: string;
  src: Party;
  dst: Party;
  user: UserInfo;
  ring: number;
  billsec: number;
  disposition: string;
  tCause: string;
  info: string;
  rate: number;
}

type Outcome = Pick<CdrParts, 'ring' | 'billsec' | 'disposition' | 'tCause' | 'info'>;

const OUT_FAILURES: readonly (readonly [readonly [string, string], number])[] = [
  [['No user responding', 'RINGING'], 17],
  [['User busy', 'RINGING'], 8],
  [['Call rejected', 'RINGING'], 4],
  [['Originator cancel', 'RINGING'], 2],
  [['Unallocated number', 'INITIAL'], 1],
];
const MISSED_QUEUE_INFO = ['Caller abandoned', 'Max wait time reached'];

function answered(ring: number, billsec: number, info = ''): Outcome {
  return { ring, billsec, disposition: 'CONNECTED', tCause: 'Normal Clearing', info };
}

function unanswered(ring: number, info = ''): Outcome {
  return { ring, billsec: 0, disposition: 'RINGING', tCause: 'No user responding', info };
}

/** Every CdrParts is built here, one literal with one key order: spreads would give each call its own shape. */
function make(
  type: CdrParts['type'],
  destination: CdrParts['destination'],
  context: string,
  src: Party,
  dst: Party,
  user: UserInfo,
  rate: number,
  o: Outcome,
): CdrParts {
  return {
    type,
    destination,
    context,
    src,
    dst,
    user,
    ring: o.ring,
    billsec: o.billsec,
    disposition: o.disposition,
    tCause: o.tCause,
    info: o.info,
    rate,
  };
}

/** Talk time: log-normal around two minutes, a long tail up to an hour. */
function talkTime(rng: Rng): number {
  const u1 = Math.max(rng.next(), 1e-9);
  const u2 = rng.next();
  const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  return Math.min(3600, Math.max(4, Math.round(Math.exp(Math.log(110) + 0.95 * z))));
}

/** A caller or callee outside the company: a contact (65%) or a repeat unknown caller. */
function external(rng: Rng, ctx: CallContext): Party {
  if (ctx.contacts.length > 0 && rng.chance(0.65)) {
    const i = rng.int(0, ctx.contacts.length - 1);
    const c = ctx.contacts[i] as ContactInfo;
    const mobile = rng.chance(0.45);
    const number = mobile ? c.mobile : c.tel;
    const clid = mobile ? c.clidMobile : c.clidTel;
    return { id: c.ref, number, name: c.name, clid, ua: '', codec: trunkCodec(number), contactIndex: i };
  }
  const number = rng.pick(ctx.unknownCallers);
  return {
    id: '',
    number,
    name: '',
    clid: `<${number}>`,
    ua: '',
    codec: trunkCodec(number),
    contactIndex: -1,
  };
}

function userParty(u: UserInfo, dir: Directory): Party {
  const clid = `"${u.name}" <${dir.mainNumber}>`;
  return { id: String(u.id), number: u.ext, name: u.name, clid, ua: u.ua, codec: u.codec, contactIndex: -1 };
}

function groupParty(g: GroupInfo): Party {
  return {
    id: String(g.id),
    number: g.number,
    name: g.name,
    clid: '',
    ua: '',
    codec: 'PCMA',
    contactIndex: -1,
  };
}

function plainParty(number: string, name: string, ua: string, codec: string): Party {
  return { id: '', number, name, clid: '', ua, codec, contactIndex: -1 };
}

/** An inbound call to a group (queue, ring group, IVR): answered by `agent`, or missed (type M). */
function inbound(
  rng: Rng,
  ctx: CallContext,
  context: string,
  dst: Party,
  agent: UserInfo,
  answerRate: number,
  missedInfo: string,
  ring: number,
  talk: number,
): CdrParts {
  const src = external(rng, ctx);
  if (rng.chance(answerRate)) return make('I', 'in', context, src, dst, agent, 0, answered(ring, talk));
  return make('M', 'in', context, src, dst, agent, 0, unanswered(rng.int(15, 60), missedInfo));
}

/** Draws who calls whom and how the call ends, for one scenario. */
export function callParts(rng: Rng, ctx: CallContext, scenario: Scenario): CdrParts {
  const dir = ctx.dir;
  const user = rng.pick(dir.users);
  const me = userParty(user, dir);
  const ring = rng.int(3, 24);
  const talk = talkTime(rng);
  switch (scenario) {
    case 'out': {
      const dst = external(rng, ctx);
      const rate = rateFor(dst.number);
      if (rng.chance(0.68)) return make('O', 'out', 'PSTN_CALL', me, dst, user, rate, answered(ring, talk));
      const [tCause, disposition] = rng.weighted(OUT_FAILURES);
      const failed = { ring, billsec: 0, disposition, tCause, info: '' };
      return make('O', 'out', 'PSTN_CALL', me, dst, user, rate, failed);
    }
    case 'in_direct': {
      const src = external(rng, ctx);
      if (rng.chance(0.7)) return make('I', 'in', 'PSTN_CALL', src, me, user, 0, answered(ring, talk));
      if (user.finalDst === 'V' && rng.chance(0.75)) {
        // Voicemail answers: the message length is the billable time.
        const vm = { ...answered(rng.int(15, 30), rng.int(6, 75), 'Voicemail'), disposition: 'VM' };
        return make('I', 'in', 'PSTN_CALL', src, me, user, 0, vm);
      }
      return make('M', 'in', 'PSTN_CALL', src, me, user, 0, unanswered(rng.int(15, 40)));
    }
    case 'in_queue': {
      const q = rng.pick(dir.queues);
      const agent = q.members.length > 0 ? rng.pick(q.members) : user;
      const tracked = q === dir.queues[0] && ctx.tracking.length > 0 && rng.chance(0.08);
      const missedInfo = rng.pick(MISSED_QUEUE_INFO);
      const parts = inbound(rng, ctx, 'QUEUE', groupParty(q), agent, 0.8, missedInfo, ring, talk);
      if (tracked) parts.info = `Call tracking: ${rng.pick(ctx.tracking).ddi}`;
      return parts;
    }
    case 'in_ringgroup': {
      const g = rng.pick(dir.ringGroups);
      const agent = g.members.length > 0 ? rng.pick(g.members) : user;
      return inbound(rng, ctx, 'RING_GROUP', groupParty(g), agent, 0.75, '', ring, talk);
    }
    case 'in_ivr': {
      const ivr = groupParty(rng.pick(dir.ivrs));
      return inbound(rng, ctx, 'IVR', ivr, user, 0.7, 'Caller left the IVR', ring, talk);
    }
    case 'internal': {
      let other = rng.pick(dir.users);
      if (other === user) other = dir.users[(dir.users.indexOf(user) + 1) % dir.users.length] ?? user;
      const outcome = rng.chance(0.8) ? answered(ring, Math.ceil(talk / 3)) : unanswered(ring);
      return make('O', 'out', 'USER_LOCAL', me, userParty(other, dir), user, 0, outcome);
    }
    case 'webcall': {
      // The platform calls the user's mobile, then bridges it to the destination.
      const dst = external(rng, ctx);
      const src = plainParty(user.mobile, user.name, '', trunkCodec(user.mobile));
      src.id = me.id;
      src.clid = `"${user.name}" <${user.mobile}>`;
      return make('O', 'webcall', 'WEBCALL', src, dst, user, rateFor(dst.number), answered(ring, talk));
    }
    case 'cmb': {
      const visitor = rng.pick(ctx.callMeBack.visitors);
      const dst = plainParty(visitor.number, visitor.name, '', trunkCodec(visitor.number));
      const outcome = rng.chance(0.85)
        ? answered(ring, talk, 'Call Me Back')
        : unanswered(ring, 'Call Me Back');
      return make('O', 'callmeback', 'CALLMEBACK', me, dst, user, rateFor(visitor.number), outcome);
    }
    case 'test': {
      const dst = plainParty('*43', 'Echo test', 'Asterisk PBX 18.20.0', user.codec);
      return make('O', 'out', 'TEST_CALL', me, dst, user, 0, answered(1, rng.int(4, 20)));
    }
  }
}
