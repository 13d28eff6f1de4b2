// Plans of calls that reach users through a queue or an IVR menu.
import { answeredInGroup, missedByGroup } from './plan-group-end';
import { legsReported, missedLeg, pickDistinct } from './plan-legs';
import type { CallPlan, CallScenario, SimParty } from './plan-types';
import {
  externalNumber,
  externalParty,
  groupParty,
  IVR_CONTEXT,
  pickUser,
  QUEUE_CONTEXT,
  userParty,
  USER_CONTEXT,
  type PlanScope,
} from './plan-parties';

/** inbound_queue_answered and inbound_queue_missed. */
export function planQueueCall(
  p: PlanScope,
  scenario: Extract<CallScenario, 'inbound_queue_answered' | 'inbound_queue_missed'>,
): CallPlan {
  const { rng, world, opts, step } = p;
  const q = rng.pick(world.queues);
  const qp = groupParty(q);
  const agent = pickUser(rng, world, opts, q.members);
  const ext = externalParty(world, externalNumber(rng, world, opts, scenario === 'inbound_queue_answered'));
  step({ at: 0, name: 'call.initial', state: 'INITIAL', context: QUEUE_CONTEXT, dst: qp });
  step({ at: 1, name: 'call.ringing', state: 'RINGING', context: QUEUE_CONTEXT, dst: qp });
  const legs = legsReported(opts);
  const members = world.users.filter((u) => q.members.includes(u.id));
  if (scenario === 'inbound_queue_missed') {
    const abandoned = rng.chance(0.5);
    const w = abandoned ? rng.int(10, 90) : 120;
    if (legs) {
      // Agents are rung in turn while the caller waits; every leg ends before the queue gives up.
      let at = legs.int(2, 6);
      for (const u of pickDistinct(legs, members, 3)) {
        const r = legs.int(8, 20);
        if (at + r >= w) break;
        missedLeg(step, userParty(u, world), at, r);
        at += r + 1;
      }
    }
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
    return missedByGroup(p, { ext, group: qp, context: QUEUE_CONTEXT, user: agent, end: w, info });
  }
  const wait = rng.int(4, 40);
  let at = wait;
  if (legs) {
    // Other agents were rung first and did not answer.
    const others = members.filter((u) => u.id !== agent.id);
    for (const u of pickDistinct(legs, others, legs.int(1, 2))) {
      const r = legs.int(8, 20);
      missedLeg(step, userParty(u, world), at, r);
      at += r + 1;
    }
  }
  return answeredInGroup(p, { ext, group: qp, context: QUEUE_CONTEXT, agent, at });
}

/** ivr_dtmf: the caller picks an IVR option and reaches its queue or user. */
export function planIvrCall(p: PlanScope): CallPlan {
  const { rng, world, opts, base, ring, talk, recorded, steps, step, hangupBy } = p;
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
