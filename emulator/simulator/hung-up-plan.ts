// A call hung up through the API (DELETE /calls/{id}) before its plan ran out: the plan as far as it got,
// closed by a caller's hangup at that moment.
import type { CallPlan, PlannedStep } from './plan';

/** The plan cut after `next` steps and ended by the caller `at` seconds after its start. */
export function hungUpPlan(plan: CallPlan, next: number, at: number): { ended: CallPlan; step: PlannedStep } {
  const connected = plan.connectedAt !== null && at >= plan.connectedAt;
  const cut = plan.steps.slice(0, next);
  const lastDst = cut.at(-1)?.dst ?? plan.dst;
  const tCause = connected ? 'Normal Clearing' : 'Originator cancel';
  const step: PlannedStep = {
    at,
    name: 'call.hangup',
    state: 'HANGUP',
    context: 'LOCAL_USER',
    dst: lastDst,
    tCause,
    terminatedBy: 'caller',
  };
  const ended: CallPlan = {
    ...plan,
    steps: [...cut, step],
    connectedAt: connected ? plan.connectedAt : null,
    recorded: plan.recorded && connected,
    cdr: {
      ...plan.cdr,
      disposition: connected ? 'CONNECTED' : cut.some((s) => s.state === 'RINGING') ? 'RINGING' : 'INITIAL',
      duration: at,
      billsec: connected ? at - (plan.connectedAt as number) : 0,
      tCause,
    },
  };
  return { ended, step };
}
