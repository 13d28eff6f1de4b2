// What a call's lifecycle workflow was signalled, in the order its history took the signals in: the
// events of each `callEvent` and `callEvents` signal, read through the harness's payload codec (the
// history's payloads are encrypted, as in production).
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter, type PayloadCodec } from '@temporalio/common';
import { callEventSignal, callEventsSignal, callWorkflowId, type CallEventSignal } from '../../contracts';

/** Every event signalled to the current run of the call's workflow, in history order. */
export async function signalledEvents(
  client: Client,
  codec: PayloadCodec | undefined,
  account: string,
  callId: number,
): Promise<CallEventSignal[]> {
  const history = await client.workflow.getHandle(callWorkflowId(account, callId)).fetchHistory();
  const events: CallEventSignal[] = [];
  for (const e of history.events ?? []) {
    const signal = e.workflowExecutionSignaledEventAttributes;
    if (!signal) continue;
    const raw = signal.input?.payloads ?? [];
    const [arg] = codec ? await codec.decode(raw) : raw;
    if (!arg) continue;
    const value = defaultPayloadConverter.fromPayload<unknown>(arg);
    if (signal.signalName === callEventSignal.name) events.push(value as CallEventSignal);
    else if (signal.signalName === callEventsSignal.name) events.push(...(value as CallEventSignal[]));
  }
  return events;
}
