// Classifies a webhook body: an event of a call (any name, as long as it carries a call id), a DTMF
// key press of a call, a received SMS, the spec's test event, an event callsync does not know (kept),
// or a rejection with a message that names the field. The relay classifies stored bodies of calls
// the same way (storedCallSignal).
import { z } from 'zod';
import {
  CALL_EVENT_NAMES,
  CALL_ID_PROBLEM,
  callEventSchema,
  callIdOf,
  dtmfKeys,
  isDtmfEventName,
  lenientCallEvent,
  smsReceivedEventSchema,
  TEST_EVENT_NAME,
  unknownEventSchema,
  type CallEvent,
  type WebhookEvent,
} from './schemas/events';
import { toCallEventSignal, type CallEventSignal } from '../../contracts';

/** One problem with a body: the field (or "body") and what is wrong with it. */
export interface BodyProblem {
  field: string;
  message: string;
}

export type ParsedWebhook =
  { ok: true; test: boolean; event: WebhookEvent } | { ok: false; reason: string; problems: BodyProblem[] };

/** Longest event id accepted: the inbox's unique index cannot hold a key of a few kilobytes. */
export const MAX_EVENT_ID_LENGTH = 255;

/** Deepest nesting of objects and arrays accepted (jsonb refuses deep bodies; events are flat). */
export const MAX_BODY_DEPTH = 32;

const callNames: ReadonlySet<string> = new Set(CALL_EVENT_NAMES);

function reject(problems: BodyProblem[]): ParsedWebhook & { ok: false } {
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

/**
 * What PostgreSQL could not store of a parsed body: nesting deeper than MAX_BODY_DEPTH, or a NUL
 * character in a string or a key (jsonb cannot hold U+0000; the escaped text `\\u0000` is fine).
 */
function unstorable(value: unknown): BodyProblem | null {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) {
        return { field: 'body', message: 'contains a \\u0000 character, which cannot be stored' };
      }
    } else if (typeof v === 'object' && v !== null) {
      if (depth >= MAX_BODY_DEPTH) {
        return { field: 'body', message: `is nested deeper than ${MAX_BODY_DEPTH} levels` };
      }
      const entries = Array.isArray(v) ? v.map((x) => ['', x] as const) : Object.entries(v);
      for (const [k, x] of entries) {
        if (k.includes('\u0000')) stack.push({ value: k, depth });
        stack.push({ value: x, depth: depth + 1 });
      }
    }
  }
  return null;
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
  const problem = unstorable(raw);
  if (problem) return reject([problem]);
  return classifyEvent(raw as Record<string, unknown>);
}

/** Classifies a parsed body (a JSON object). */
export function classifyEvent(obj: Record<string, unknown>): ParsedWebhook {
  const base = unknownEventSchema.safeParse(obj);
  if (!base.success) return reject(problemsOf(base.error, obj));
  if (base.data.id.length > MAX_EVENT_ID_LENGTH) {
    return reject([{ field: 'id', message: `is longer than ${MAX_EVENT_ID_LENGTH} characters` }]);
  }
  const name = base.data.event_name;
  if (name === 'sms.received') {
    const sms = smsReceivedEventSchema.safeParse(obj);
    return sms.success
      ? { ok: true, test: false, event: { kind: 'sms', event: sms.data } }
      : reject(problemsOf(sms.error, obj));
  }
  if (callNames.has(name)) {
    const call = callEventSchema.safeParse(obj);
    return call.success
      ? { ok: true, test: false, event: { kind: 'call', event: call.data } }
      : reject(problemsOf(call.error, obj));
  }
  // Any other event that names a call belongs to that call (transfers, recordings, key presses,
  // names the spec does not list); its call id must be usable, the rest is read leniently.
  if (obj.call_id != null) {
    const call = lenientCallEvent({ ...obj, id: base.data.id });
    if (!call || callIdOf(obj.call_id) === null) {
      return reject([{ field: 'call_id', message: CALL_ID_PROBLEM }]);
    }
    return isDtmfEventName(name)
      ? { ok: true, test: false, event: { kind: 'dtmf', event: { ...call, digits: dtmfKeys(obj) } } }
      : { ok: true, test: false, event: { kind: 'call', event: call } };
  }
  return { ok: true, test: name === TEST_EVENT_NAME, event: { kind: 'unknown', event: base.data } };
}

/** The call id of a classified event, or null for events of no call. */
export function callIdOfEvent(webhook: WebhookEvent): number | null {
  return webhook.kind === 'call' || webhook.kind === 'dtmf' ? webhook.event.call_id : null;
}

/** A stored event of a call as its workflow's signal, or why the body no longer validates. */
export type StoredCallSignal =
  { ok: true; callId: number; signal: CallEventSignal } | { ok: false; error: string };

/** Classifies the stored body of an inbox row that has a call id (any event of a call). */
export function storedCallSignal(body: unknown): StoredCallSignal {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, error: 'body: must be a JSON object (one event)' };
  }
  const obj = body as Record<string, unknown>;
  const parsed = classifyEvent(obj);
  if (!parsed.ok) return { ok: false, error: parsed.reason };
  const { event } = parsed;
  if (event.kind !== 'call' && event.kind !== 'dtmf') {
    return { ok: false, error: 'call_id: required (the stored event names no call)' };
  }
  const call: CallEvent = event.event;
  const digits = event.kind === 'dtmf' ? event.event.digits : null;
  return { ok: true, callId: call.call_id, signal: toCallEventSignal(call, digits, obj) };
}
