// A missed inbound call in the emulator (its CDR), announced to callsync as its webhooks would be:
// call.missed and call.hangup signalled into the call's lifecycle workflow (of each account given).
import {
  callbackWorkflowId,
  callEventSignal,
  callLifecycleWorkflow,
  callWorkflowId,
  type CallEventSignal,
} from '../../contracts';
import { callerKey } from '../../lib/caller-key';
import { workflowIdKey } from '../../lib/encryption-keys';
import type { SyncHarness } from './sync-harness';

/** Adds a missed call from `caller` to the emulator (taken by `userId` when given); returns its call id. */
export async function missedCall(
  h: SyncHarness,
  caller: string,
  opts: { userId?: number; accounts?: string[] } = {},
): Promise<number> {
  const customer = h.emulator.admin.customer_id;
  const [cdr] = h.emulator.store.addCdrs(customer, 1);
  h.emulator.store.tables.cdrs.update(cdr!.id, {
    type: 'M',
    src: caller,
    dst: '101',
    billsec: 0,
    disposition: 'RINGING',
    t_cause: 'No user responding',
    ...(opts.userId !== undefined ? { user_id: opts.userId } : {}),
  });
  const callId = Number(cdr!.live_id);
  const event = (n: number, name: string): CallEventSignal => ({
    eventId: `${callId}-${n}`,
    name,
    // The platform's event time (its clock, as the CDR's): without start_time the call is ordered by it.
    time: String(cdr!.calldate),
    state: null,
    context: 'LOCAL_USER',
    destination: 'in',
    src: caller,
    dst: '101',
    srcId: null,
    dstId: opts.userId ?? null,
    srcName: null,
    dstName: null,
    duration: null,
    tCause: null,
    connectedAt: null,
    digits: null,
  });
  for (const account of opts.accounts ?? ['acme']) {
    await deliverCallEvents(h, callId, [event(1, 'call.missed'), event(2, 'call.hangup')], account);
  }
  return callId;
}

/** Signals each event into the call's lifecycle (account acme by default), starting it when needed. */
export async function deliverCallEvents(
  h: Pick<SyncHarness, 'client' | 'taskQueue'>,
  callId: number,
  events: CallEventSignal[],
  account = 'acme',
): Promise<void> {
  for (const e of events) {
    await h.client.workflow.signalWithStart(callLifecycleWorkflow, {
      workflowId: callWorkflowId(account, callId),
      taskQueue: h.taskQueue,
      args: [{ account, callId }],
      signal: callEventSignal,
      signalArgs: [e],
    });
  }
}

/** The callback workflow id of `caller` (account acme): the keyed hash of the number, as activities build it. */
export function callbackIdOf(h: Pick<SyncHarness, 'config'>, caller: string): string {
  return callbackWorkflowId('acme', callerKey(workflowIdKey(h.config.temporal), 'acme', caller));
}
