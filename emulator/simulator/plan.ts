// One simulated call, planned in full before it starts: who calls whom, the events of the spec's call-state
// table at their offsets (simulated seconds), and how the CDR will read. Pure: the same generator state
// and world give the same plan. Each scenario's planner lives in its own file (plan-inbound, plan-queue,
// plan-ring-group, plan-outbound); this file draws what they share and picks the planner.
import type { Rng } from '../data/prng';
import { planUserCall } from './plan-inbound';
import { planOutboundCall } from './plan-outbound';
import { srcHash, talkTime, type PlanScope } from './plan-parties';
import { planIvrCall, planQueueCall } from './plan-queue';
import { planRingGroupCall } from './plan-ring-group';
import type { CallPlan, CallScenario, PlannedStep, PlanOptions } from './plan-types';
import type { SimWorld } from './world';

export * from './plan-types';
export { externalParty } from './plan-parties';

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
  const scope: PlanScope = {
    rng,
    world,
    opts,
    base,
    ring,
    talk,
    recorded,
    steps,
    step: (s) => {
      steps.push(s);
    },
    hangupBy: () => (rng.chance(0.5) ? 'caller' : 'callee'),
  };
  switch (scenario) {
    case 'inbound_answered':
    case 'hold_unhold':
    case 'inbound_missed':
    case 'inbound_voicemail':
    case 'blind_transfer':
      return planUserCall(scope, scenario);
    case 'inbound_queue_answered':
    case 'inbound_queue_missed':
      return planQueueCall(scope, scenario);
    case 'ivr_dtmf':
      return planIvrCall(scope);
    case 'inbound_ring_group':
      return planRingGroupCall(scope);
    case 'outbound_answered':
    case 'outbound_failed':
      return planOutboundCall(scope, scenario);
  }
}
