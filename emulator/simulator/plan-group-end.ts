// How a call to a group (a queue or a ring group) ends, once the group's own events are planned: an
// agent answers it, or nobody does. Shared by the queue and ring-group planners.
import { userParty, USER_CONTEXT, type PlanScope } from './plan-parties';
import type { CallPlan, SimParty } from './plan-types';
import type { SimUser } from './world';

interface GroupCall {
  /** The caller. */
  ext: SimParty;
  /** The queue or ring group called. */
  group: SimParty;
  /** The CDR's context: the group's kind. */
  context: string;
}

/** `agent` rings at `at`, answers and talks: the plan of the group call they answered. */
export function answeredInGroup(p: PlanScope, c: GroupCall & { agent: SimUser; at: number }): CallPlan {
  const { world, base, ring, talk, recorded, steps, step, hangupBy } = p;
  const ap = userParty(c.agent, world);
  step({ at: c.at, name: 'call.ringing', state: 'RINGING', context: USER_CONTEXT, dst: ap });
  step({ at: c.at + ring, name: 'call.connected', state: 'CONNECTED', context: USER_CONTEXT, dst: ap });
  const t = c.at + ring + talk;
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
    context: c.context,
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
    src: c.ext,
    dst: c.group,
    user: c.agent,
    steps,
    connectedAt: c.at + ring,
    cdr,
    recorded: recorded(cdr),
    missedNumber: null,
  };
}

/** The plan of a group call nobody answered, ended at `end` (its missed and hang-up events planned). */
export function missedByGroup(
  p: PlanScope,
  c: GroupCall & { user: SimUser; end: number; info: string },
): CallPlan {
  const cdr: CallPlan['cdr'] = {
    type: 'M',
    context: c.context,
    disposition: 'RINGING',
    duration: c.end,
    billsec: 0,
    tCause: 'No user responding',
    info: c.info,
    rate: 0,
  };
  return {
    ...p.base,
    destination: 'in',
    src: c.ext,
    dst: c.group,
    user: c.user,
    steps: p.steps,
    connectedAt: null,
    cdr,
    recorded: false,
    missedNumber: c.ext.number,
  };
}
