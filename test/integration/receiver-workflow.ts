// A stand-in `callLifecycle` for the relay test: it records the signals it receives and answers
// them through a query, and ends once the call hung up.
import { condition, defineQuery, setHandler } from '@temporalio/workflow';
import {
  callEventSignal,
  callEventsSignal,
  type CallEventSignal,
  type CallLifecycleInput,
} from '../../contracts';

export const signalsQuery = defineQuery<{ input: CallLifecycleInput; events: CallEventSignal[] }>('signals');

export async function callLifecycle(input: CallLifecycleInput): Promise<number> {
  const events: CallEventSignal[] = [];
  setHandler(callEventSignal, (e) => void events.push(e));
  setHandler(callEventsSignal, (batch) => void events.push(...batch));
  setHandler(signalsQuery, () => ({ input, events }));
  await condition(() => events.some((e) => e.name === 'call.hangup'));
  return events.length;
}
