// Classifies a webhook body: a known call or SMS event, a DTMF key press of a call, the spec's test
// event, an event name callsync does not know (kept), or a rejection with a message that names the
// field. The relay classifies stored bodies of calls the same way (storedCallSignal).
import { z } from 'zod';
import {
  CALL_EVENT_NAMES,
  callEventSchema,
  dtmfEventSchema,
  isDtmfEventName,
  smsReceivedEventSchema,
  TEST_EVENT_NAME,
  unknownEventSchema,
  type WebhookEvent,
} from '../connectors/platform/schemas/events';
import { toCallEventSignal, toDtmfEventSignal, type CallEventSignal } from '../contracts';

/** One problem with a body: the field (or "body") and what is wrong with it. */
export interface BodyProblem {
  field: string;
  message: string;
}

export type ParsedWebhook =
  { ok: true; test: boolean; event: WebhookEvent } | { ok: false; reason: string; problems: BodyProblem[] };

const callNames: ReadonlySet<string> = new Set(CALL_EVENT_NAMES);

function reject(problems: BodyProblem[]): ParsedWebhook {
  return { ok: false, reason: problems.map((p) => `${p.field}: ${p.message}`).join('; '), problems };
}

function problemsOf(error: z.ZodError, raw: Record<string, unknown>): BodyProblem[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join('.') || 'body';
    const top = issue.path[0];
    const absent = typeof top === 'string' && issue.path.length === 1 && raw[top] == null;
    return { field, message: absent ? 'required' : issue.message };
  });
}

/** Parses and validates a webhook body (the raw request text). */
export function parseWebhookBody(text: string): ParsedWebhook {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return reject([{ field: 'body', message: 'is not valid JSON' }]);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return reject([{ field: 'body', message: 'must be a JSON object (one event)' }]);
  }
  // PostgreSQL's jsonb cannot hold NUL; such a body could never be stored, so it is refused here.
  if (text.includes('\\u0000')) {
    return reject([{ field: 'body', message: 'contains a \\u0000 character, which cannot be stored' }]);
  }
  const obj = raw as Record<string, unknown>;
  const base = unknownEventSchema.safeParse(obj);
  if (!base.success) return reject(problemsOf(base.error, obj));
  const name = base.data.event_name;
  if (callNames.has(name)) {
    const call = callEventSchema.safeParse(obj);
    return call.success
      ? { ok: true, test: false, event: { kind: 'call', event: call.data } }
      : reject(problemsOf(call.error, obj));
  }
  if (name === 'sms.received') {
    const sms = smsReceivedEventSchema.safeParse(obj);
    return sms.success
      ? { ok: true, test: false, event: { kind: 'sms', event: sms.data } }
      : reject(problemsOf(sms.error, obj));
  }
  if (isDtmfEventName(name)) {
    // Undocumented (see dtmfEventSchema): one that names no usable call is kept as unknown, not refused.
    const dtmf = dtmfEventSchema.safeParse(obj);
    if (dtmf.success) return { ok: true, test: false, event: { kind: 'dtmf', event: dtmf.data } };
  }
  return { ok: true, test: name === TEST_EVENT_NAME, event: { kind: 'unknown', event: base.data } };
}

/** A stored event of a call as its workflow's signal, or why the body no longer validates. */
export type StoredCallSignal =
  { ok: true; callId: number; signal: CallEventSignal } | { ok: false; error: string };

/** Classifies the stored body of an inbox row that has a call id (a call event or a DTMF key press). */
export function storedCallSignal(body: unknown): StoredCallSignal {
  const name =
    typeof body === 'object' && body !== null ? (body as { event_name?: unknown }).event_name : null;
  if (typeof name === 'string' && isDtmfEventName(name)) {
    const dtmf = dtmfEventSchema.safeParse(body);
    return dtmf.success
      ? { ok: true, callId: dtmf.data.call_id, signal: toDtmfEventSignal(dtmf.data) }
      : { ok: false, error: dtmf.error.message };
  }
  const call = callEventSchema.safeParse(body);
  return call.success
    ? { ok: true, callId: call.data.call_id, signal: toCallEventSignal(call.data) }
    : { ok: false, error: call.error.message };
}
