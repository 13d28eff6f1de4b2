// A stand-in `callLifecycle` for the relay test: it records the signals it receives and answers
// them through a query, and ends once the call hung up.
import { condition, defineQuery, defineSignal, setHandler } from '@temporalio/workflow';
import type { CallEventSignal, CallLifecycleInput } from '../../workflows/call-types';

export const signalsQuery = defineQuery<{ input: CallLifecycleInput; events: CallEventSignal[] }>('signals');
const callEvent = defineSignal<[CallEventSignal]>('callEvent');
const callEvents = defineSignal<[CallEventSignal[]]>('callEvents');

export async function callLifecycle(input: CallLifecycleInput): Promise<number> {
  const events: CallEventSignal[] = [];
  setHandler(callEvent, (e) => void events.push(e));
  setHandler(callEvents, (batch) => void events.push(...batch));
  setHandler(signalsQuery, () => ({ input, events }));
  await condition(() => events.some((e) => e.name === 'call.hangup'));
  return events.length;
}
