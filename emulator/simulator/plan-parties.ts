// What every scenario's plan draws on: the parties of a call, talk times, holds, and the per-plan scope
// (generator, world, options and the draws made before the scenario is chosen).
import { trunkCodec } from '../data/phone-numbers';
import type { Rng } from '../data/prng';
import type { CallPlan, PlannedStep, PlanOptions, SimParty } from './plan-types';
import type { SimContact, SimGroup, SimUser, SimWorld } from './world';

/** What planCall draws before the scenario's own steps, shared by every scenario's planner. */
export interface PlanScope {
  rng: Rng;
  world: SimWorld;
  opts: PlanOptions;
  base: Pick<CallPlan, 'scenario' | 'callId' | 'customerId' | 'start' | 'srcHash'>;
  ring: number;
  talk: number;
  /** Whether a call with this CDR is recorded. */
  recorded: (cdr: CallPlan['cdr']) => boolean;
  steps: PlannedStep[];
  step: (s: PlannedStep) => void;
  hangupBy: () => 'caller' | 'callee';
}

export const USER_CONTEXT = 'LOCAL_USER';
export const QUEUE_CONTEXT = 'QUEUE';
export const IVR_CONTEXT = 'IVR';
export const RING_GROUP_CONTEXT = 'RING_GROUP';

/** Talk time: log-normal around ~100 s, 5 s to 20 min. */
export function talkTime(rng: Rng): number {
  const u1 = Math.max(rng.next(), 1e-9);
  const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * rng.next());
  return Math.min(1200, Math.max(5, Math.round(Math.exp(Math.log(100) + 0.8 * z))));
}

export function userParty(u: SimUser, world: SimWorld): SimParty {
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

export function groupParty(g: SimGroup): SimParty {
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
export function externalNumber(rng: Rng, world: SimWorld, opts: PlanOptions, mayRepeat: boolean): string {
  if (opts.external !== undefined) return opts.external;
  const recent = opts.recentMissed ?? [];
  if (mayRepeat && recent.length > 0 && rng.chance(0.35)) return rng.pick(recent);
  if (world.contacts.length > 0 && rng.chance(0.75)) return rng.pick(rng.pick(world.contacts).numbers);
  return rng.pick(world.unknownNumbers);
}

export function pickUser(rng: Rng, world: SimWorld, opts: PlanOptions, among?: number[]): SimUser {
  if (opts.userId !== undefined) {
    const u = world.users.find((x) => x.id === opts.userId);
    if (u) return u;
  }
  const pool = among && among.length > 0 ? world.users.filter((u) => among.includes(u.id)) : world.users;
  return rng.pick(pool.length > 0 ? pool : world.users);
}

export function otherUser(rng: Rng, world: SimWorld, not: SimUser): SimUser {
  const pool = world.users.filter((u) => u.id !== not.id);
  return pool.length > 0 ? rng.pick(pool) : not;
}

export function srcHash(rng: Rng): string {
  return rng.hex(32);
}

/** One or two hold/unhold pairs inside the talk time; returns the hangup offset. */
export function holds(
  rng: Rng,
  steps: PlannedStep[],
  connectedAt: number,
  talk: number,
  dst: SimParty,
): number {
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
