// Plans of calls a user places to an external number: answered, or failed busy.
import { rateFor } from '../data/phone-numbers';
import type { CallPlan, CallScenario } from './plan-types';
import {
  externalNumber,
  externalParty,
  pickUser,
  userParty,
  USER_CONTEXT,
  type PlanScope,
} from './plan-parties';

/** outbound_answered and outbound_failed. */
export function planOutboundCall(
  p: PlanScope,
  scenario: Extract<CallScenario, 'outbound_answered' | 'outbound_failed'>,
): CallPlan {
  const { rng, world, opts, base, ring, talk, recorded, steps, step, hangupBy } = p;
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
