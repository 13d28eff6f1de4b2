// How the relay turns a batch of claimed inbox rows into signals: each call's events in arrival
// order, together in as few signals as the limits allow; rows of no call are done at once; rows
// whose stored body no longer validates can never be relayed. Pure, so it is tested on its own.
import { callWorkflowId, type CallEventSignal } from '../contracts';
import { storedCallSignal } from '../connectors/platform/webhook-body';

/** Most events handed to a workflow in one signal. */
export const MAX_EVENTS_PER_SIGNAL = 100;

/**
 * Most body text (characters) in one signal: Temporal refuses payloads over 2 MiB, and a signal
 * carries each body plus the fields read from it.
 */
export const MAX_BODY_CHARS_PER_SIGNAL = 512 * 1024;

/** Events of one call to hand to its workflow in one signal, in arrival order. */
export interface CallSignal {
  workflowId: string;
  account: string;
  callId: number;
  events: CallEventSignal[];
}

/** A claimed inbox row, as far as grouping needs it. */
export interface GroupableRow {
  id: string;
  account: string;
  call_id: number | null;
  /** The stored body as JSON text. */
  body: string;
}

/** One signal to send and the rows it carries. */
export interface SignalChunk {
  rowIds: string[];
  signal: CallSignal;
}

/** What the relay does with a batch. */
export interface RelayPlan {
  /** Rows that need no signal (SMS, unknown events). */
  done: string[];
  /** Rows that can never be relayed, with why. */
  failed: Array<{ id: string; error: string }>;
  /** Per call (workflow), its signals in order; calls in order of their first row. */
  calls: SignalChunk[][];
}

/** Groups claimed rows (in arrival order) into signals. */
export function planSignals(
  rows: readonly GroupableRow[],
  limits: { maxEvents?: number; maxBodyChars?: number } = {},
): RelayPlan {
  const maxEvents = limits.maxEvents ?? MAX_EVENTS_PER_SIGNAL;
  const maxChars = limits.maxBodyChars ?? MAX_BODY_CHARS_PER_SIGNAL;
  const plan: RelayPlan = { done: [], failed: [], calls: [] };
  const byWorkflow = new Map<string, { chunks: SignalChunk[]; chars: number }>();
  for (const row of rows) {
    if (row.call_id === null) {
      plan.done.push(row.id);
      continue;
    }
    let body: unknown;
    try {
      body = JSON.parse(row.body);
    } catch {
      body = null;
    }
    const parsed = storedCallSignal(body);
    if (!parsed.ok) {
      plan.failed.push({ id: row.id, error: `stored body no longer validates: ${parsed.error}` });
      continue;
    }
    const workflowId = callWorkflowId(row.account, parsed.callId);
    let call = byWorkflow.get(workflowId);
    if (!call) {
      call = { chunks: [], chars: 0 };
      byWorkflow.set(workflowId, call);
      plan.calls.push(call.chunks);
    }
    let last = call.chunks[call.chunks.length - 1];
    const full = last && (last.rowIds.length >= maxEvents || call.chars + row.body.length > maxChars);
    if (!last || full) {
      last = { rowIds: [], signal: { workflowId, account: row.account, callId: parsed.callId, events: [] } };
      call.chunks.push(last);
      call.chars = 0;
    }
    last.rowIds.push(row.id);
    last.signal.events.push(parsed.signal);
    call.chars += row.body.length;
  }
  return plan;
}
