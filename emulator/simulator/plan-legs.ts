// Agents' legs of queue and ring-group calls that ring and are not answered. Real platforms report each
// such leg as a call.missed event in the user context, while the call goes on to another agent (or ends
// missed when nobody answers): a receiver must not take a missed leg for a missed call.
import type { Rng } from '../data/prng';
import { USER_CONTEXT } from './plan-parties';
import type { PlannedStep, PlanOptions, SimParty } from './plan-types';

/** The legs' generator when this call reports its unanswered legs, drawn from that generator itself. */
export function legsReported(opts: PlanOptions): Rng | undefined {
  const legs = opts.legs;
  if (legs === undefined || legs.share <= 0) return undefined;
  return legs.rng.chance(legs.share) ? legs.rng : undefined;
}

/** One unanswered leg: the agent's phone rings at `at` and the leg is missed `ringFor` seconds later. */
export function missedLeg(
  step: (s: PlannedStep) => void,
  agent: SimParty,
  at: number,
  ringFor: number,
): void {
  step({ at, name: 'call.ringing', state: 'RINGING', context: USER_CONTEXT, dst: agent });
  step({
    at: at + ringFor,
    // The call is still ringing elsewhere: only this leg ended.
    name: 'call.missed',
    state: 'RINGING',
    context: USER_CONTEXT,
    dst: agent,
    tCause: 'No user responding',
    terminatedBy: 'callee',
    leg: true,
  });
}

/** Up to `n` distinct items in drawn order. */
export function pickDistinct<T>(rng: Rng, items: readonly T[], n: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < n && pool.length > 0) {
    const [item] = pool.splice(rng.int(0, pool.length - 1), 1);
    out.push(item as T);
  }
  return out;
}
