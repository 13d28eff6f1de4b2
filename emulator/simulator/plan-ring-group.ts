// Plans of calls to a ring group. The seeded groups hunt (strategies Hunt and Memory hunt): members ring
// one at a time, each for the group's ring time, until one answers or all have rung and the call ends
// missed. Whether the unanswered legs show as events is the call's draw (PlanOptions.legs).
import { answeredInGroup, missedByGroup } from './plan-group-end';
import { legsReported, missedLeg } from './plan-legs';
import {
  externalNumber,
  externalParty,
  groupParty,
  RING_GROUP_CONTEXT,
  userParty,
  type PlanScope,
} from './plan-parties';
import type { CallPlan } from './plan-types';
import type { SimRingGroup, SimUser, SimWorld } from './world';

/** Share of ring-group calls a member answers (the seeded history's rate). */
const ANSWERED_SHARE = 0.75;

/** A group of the first users, for a world that has no ring group with members. */
function standInGroup(world: SimWorld): SimRingGroup {
  return {
    id: 0,
    name: 'Ring group',
    number: '700',
    members: world.users.slice(0, 3).map((u) => u.id),
    ringTime: 20,
  };
}

/** inbound_ring_group: answered by one member after the others' legs, or missed by all. */
export function planRingGroupCall(p: PlanScope): CallPlan {
  const { rng, world, opts, step } = p;
  const group = world.ringGroups.length > 0 ? rng.pick(world.ringGroups) : standInGroup(world);
  const gp = groupParty(group);
  const members = group.members
    .map((id) => world.users.find((u) => u.id === id))
    .filter((u): u is SimUser => u !== undefined);
  const first = rng.int(0, members.length - 1);
  const order = members.map((_, i) => members[(first + i) % members.length] as SimUser);
  const answered = rng.chance(ANSWERED_SHARE);
  const asked = order.findIndex((u) => u.id === opts.userId);
  const answerer = answered ? (asked >= 0 ? asked : rng.int(0, order.length - 1)) : -1;
  const ext = externalParty(world, externalNumber(rng, world, opts, true));
  const legs = legsReported(opts);
  step({ at: 0, name: 'call.initial', state: 'INITIAL', context: RING_GROUP_CONTEXT, dst: gp });
  step({ at: 1, name: 'call.ringing', state: 'RINGING', context: RING_GROUP_CONTEXT, dst: gp });
  let at = 2;
  const unanswered = answerer >= 0 ? order.slice(0, answerer) : order;
  for (const u of unanswered) {
    // Unreported legs still take their ring time.
    if (legs) missedLeg(step, userParty(u, world), at, group.ringTime);
    at += group.ringTime + 1;
  }
  if (answerer < 0) {
    const info = 'No member answered';
    for (const name of ['call.missed', 'call.hangup'])
      step({
        at,
        name,
        state: 'HANGUP',
        context: RING_GROUP_CONTEXT,
        dst: gp,
        tCause: 'No user responding',
        info,
        terminatedBy: 'callee',
      });
    return missedByGroup(p, {
      ext,
      group: gp,
      context: RING_GROUP_CONTEXT,
      user: order[0] as SimUser,
      end: at,
      info,
    });
  }
  return answeredInGroup(p, {
    ext,
    group: gp,
    context: RING_GROUP_CONTEXT,
    agent: order[answerer] as SimUser,
    at,
  });
}
