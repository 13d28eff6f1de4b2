// Plans of calls that ring a user directly: answered, missed, to voicemail, with hold and unhold, and
// blind-transferred (a hold_unhold call is sometimes one the user placed).
import { rateFor } from '../data/phone-numbers';
import type { CallPlan, CallScenario, SimParty } from './plan-types';
import {
  externalNumber,
  externalParty,
  holds,
  otherUser,
  pickUser,
  userParty,
  USER_CONTEXT,
  type PlanScope,
} from './plan-parties';
import type { SimUser } from './world';

/** inbound_answered, hold_unhold, inbound_missed, inbound_voicemail and blind_transfer. */
export function planUserCall(
  p: PlanScope,
  scenario: Extract<
    CallScenario,
    'inbound_answered' | 'hold_unhold' | 'inbound_missed' | 'inbound_voicemail' | 'blind_transfer'
  >,
): CallPlan {
  const { rng, world, opts, base, ring, talk, recorded, steps, step, hangupBy } = p;
  const end = (who: 'caller' | 'callee'): 'caller' | 'callee' => who;
  const outboundHold = scenario === 'hold_unhold' && rng.chance(0.4);
  const user = pickUser(rng, world, opts);
  const me = userParty(user, world);
  const ext = externalParty(world, externalNumber(rng, world, opts, scenario === 'inbound_answered'));
  if (outboundHold) return holdOutbound(p, user, me, ext);
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

/** An outbound call with hold and unhold (a hold_unhold call the user placed). */
function holdOutbound(p: PlanScope, user: SimUser, me: SimParty, ext: SimParty): CallPlan {
  const { rng: r, base: b, ring: rg, talk: tk, recorded: isRecorded, steps, step } = p;
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
