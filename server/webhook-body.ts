// Classifies a webhook body: a known call or SMS event, the spec's test event, an event name
// callsync does not know (kept), or a rejection with a message that names the field.
import { z } from 'zod';
import {
  CALL_EVENT_NAMES,
  callEventSchema,
  smsReceivedEventSchema,
  TEST_EVENT_NAME,
  unknownEventSchema,
  type WebhookEvent,
} from '../connectors/platform/schemas/events';

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
  return { ok: true, test: name === TEST_EVENT_NAME, event: { kind: 'unknown', event: base.data } };
}
