// Events that cannot wait for the relay's batches: right after a delivery is committed to the inbox,
// a ringing inbound call starts its screen-pop workflow, and a received SMS its logging workflow.
// Each workflow id is derived from the event's subject, so a redelivered event (or the same event
// at two receivers) finds its workflow already started and starts nothing. Fire and forget: the
// webhook's answer never waits for Temporal, and the inbox row still goes through the relay.
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { WebhookEvent } from '../connectors/platform/schemas/events';
import {
  screenPopWorkflow,
  screenPopWorkflowId,
  smsReceivedWorkflow,
  smsReceivedWorkflowId,
} from '../contracts';
import type { Logger } from '../lib/logger';
import { callIdOfEvent } from '../connectors/platform/webhook-body';

/**
 * Priority of the fast path's workflows (1 is the highest of Temporal's five; everything else runs at
 * the default 3): a ringing call's screen-pop and a received SMS's log cut ahead of the call
 * workflows' backlog on the shared task queue, instead of waiting behind it. Temporal Cloud and
 * self-hosted servers apply task-queue priority by default; a server that does not ignores it.
 */
export const FAST_PATH_PRIORITY = { priorityKey: 1 } as const;

/**
 * Called once per committed delivery with the event as stored (anonymised when it is an erased
 * person's, `suppressed` true) and when it reached the receiver (epoch ms); must not throw.
 */
export type FastPath = (
  account: string,
  webhook: WebhookEvent,
  receivedAt: number,
  suppressed?: boolean,
) => void;

/** Whether a call event starts a screen-pop: an inbound call ringing. */
export function startsScreenPop(webhook: WebhookEvent): boolean {
  return (
    webhook.kind === 'call' &&
    webhook.event.event_name === 'call.ringing' &&
    String(webhook.event.destination ?? '').toLowerCase() === 'in'
  );
}

/** How many workflow ids the fast path remembers having started (the oldest are forgotten first). */
export const FAST_PATH_REMEMBERED = 20_000;

/**
 * The production fast path: workflow starts on the given task queue; screen-pops only for the accounts
 * `screenPops` says can get a link (config/account-settings.ts screenPopLinks).
 */
export function temporalFastPath(
  client: Client,
  taskQueue: string,
  logger: Logger,
  screenPops: (account: string) => boolean = () => true,
): FastPath {
  // Workflow ids this receiver started or is starting, each with whether it started (or already
  // had). A call rings several times (one call.ringing per agent, redeliveries): its later events
  // ask Temporal nothing, where each used to be a refused start (REJECT_DUPLICATE): a round trip,
  // work for the Temporal server and an error with its stack trace, per event. Still one screen-pop
  // per call: a start that failed is forgotten, and one waiting on it starts again.
  const recent = new Map<string, Promise<boolean>>();
  const attempt = (what: string, run: () => Promise<unknown>): Promise<boolean> =>
    run().then(
      () => true,
      (err: unknown) => {
        if (err instanceof WorkflowExecutionAlreadyStartedError) return true;
        logger.warn(
          { err, what },
          'fast path could not start its workflow; the relay still delivers the event',
        );
        return false;
      },
    );
  const start = (workflowId: string, what: string, run: () => Promise<unknown>): void => {
    const prior = recent.get(workflowId);
    const started = prior ? prior.then((ok) => ok || attempt(what, run)) : attempt(what, run);
    recent.set(workflowId, started);
    if (!prior && recent.size > FAST_PATH_REMEMBERED) recent.delete(recent.keys().next().value!);
    void started.then((ok) => {
      if (!ok && recent.get(workflowId) === started) recent.delete(workflowId);
    });
  };
  return (account, webhook, _receivedAt, suppressed) => {
    // An erased person's delivery starts nothing: a screen-pop would look them up (and cache the
    // answer), an SMS workflow would log and store it; the inbox keeps it anonymised, as relayed.
    if (suppressed) return;
    // An account whose ringing calls can get no link (screen-pop off, nothing to link to) starts none.
    if (startsScreenPop(webhook) && webhook.kind === 'call') {
      if (!screenPops(account)) return;
      const callId = callIdOfEvent(webhook);
      if (callId === null) return;
      const workflowId = screenPopWorkflowId(account, callId);
      start(workflowId, 'screen-pop', () =>
        client.workflow.start(screenPopWorkflow, {
          workflowId,
          taskQueue,
          args: [{ account, callId, caller: webhook.event.src ?? null }],
          // One screen-pop per call, ever: a ringing event redelivered after it finished does nothing.
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          priority: FAST_PATH_PRIORITY,
        }),
      );
    } else if (webhook.kind === 'sms') {
      const { id, event_time, from_no, to_no, text, user_id } = webhook.event;
      const workflowId = smsReceivedWorkflowId(account, id);
      start(workflowId, 'sms', () =>
        client.workflow.start(smsReceivedWorkflow, {
          workflowId,
          taskQueue,
          args: [{ account, event: { id, event_time, from_no, to_no, text, user_id } }],
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          priority: FAST_PATH_PRIORITY,
        }),
      );
    }
  };
}
