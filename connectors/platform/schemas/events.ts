// Webhook event bodies (spec, Events): call events, received SMS and DTMF key presses. The platform
// signs nothing and sends event names beyond its documented list, so the union keeps unknown events.
import { z } from 'zod';
import { date, int, str } from './primitives';

/** Call event names the spec documents. */
export const CALL_EVENT_NAMES = [
  'call.initial',
  'call.ringing',
  'call.missed',
  'call.connected',
  'call.failed',
  'call.hangup',
  'call.hold',
  'call.unhold',
] as const;
export type CallEventName = (typeof CALL_EVENT_NAMES)[number];

/** Call states carried in call events. */
export const CALL_STATES = [
  'INITIAL',
  'ACCEPTED',
  'RINGING',
  'CONNECTED',
  'ON_HOLD',
  'HANGUP',
  'FAILED',
] as const;

/** The spec's event categories, selectable on a webhook. */
export const EVENT_CATEGORIES = [
  'missed_call',
  'ringing_call',
  'connected_call',
  'ended_call',
  'call_state_change',
  'sms_received',
  'dtmf_key_press',
] as const;
export type EventCategory = (typeof EVENT_CATEGORIES)[number];

const eventId = z.union([z.string().min(1), z.number().transform(String)], { error: 'required' });

/** What a call id that is not usable is told. */
export const CALL_ID_PROBLEM = 'must be a positive integer (a number or a numeric string)';

/**
 * A call id as live deployments send it: a positive integer, as a number or a numeric string; null
 * for anything else (0, negative, fractional, beyond 2^53, not numeric).
 */
export function callIdOf(value: unknown): number | null {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,16}$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

const callId = z.unknown().transform((value, ctx) => {
  const id = callIdOf(value);
  if (id === null) ctx.addIssue({ code: 'custom', message: value == null ? 'required' : CALL_ID_PROBLEM });
  return id ?? 0;
});

/** Body of a call event (spec, Call event body). */
export const callEventSchema = z.looseObject({
  id: eventId,
  event_time: date(),
  event_name: z.enum(CALL_EVENT_NAMES),
  /** Equals the CDR's and the recording's live_id, and the live call's id. */
  call_id: callId,
  state: str(),
  connected_at: date(),
  start_time: date(),
  /** `LOCAL_USER` for user events, `QUEUE` for queue events. */
  context: str(),
  destination: str(),
  duration: int(),
  t_cause: str(),
  clid: str(),
  src: str(),
  src_id: int(),
  src_name: str(),
  src_hash: str(),
  dst: str(),
  dst_id: int(),
  dst_name: str(),
  info: str(),
  terminated_by: str(),
});
/** A call event of any name (lenientCallEvent reads those the spec does not list). */
export const anyCallEventSchema = callEventSchema.extend({ event_name: z.string() });
/** A call event; names beyond the spec's list arrive through lenientCallEvent. */
export type CallEvent = z.infer<typeof anyCallEventSchema>;

/** Body of an SMS-received event. */
export const smsReceivedEventSchema = z.looseObject({
  id: eventId,
  event_time: date(),
  event_name: z.literal('sms.received'),
  customer_id: int(),
  user_id: int(),
  from_no: str(),
  to_no: str(),
  text: str(),
});
export type SmsReceivedEvent = z.infer<typeof smsReceivedEventSchema>;

/** Whether an event name is a DTMF key press: the spec shows no name, so any name with "dtmf" is one. */
export function isDtmfEventName(name: string): boolean {
  return /dtmf/i.test(name);
}

/** Fields that may carry the keys of a DTMF event, read first and in this order. */
export const DTMF_KEY_FIELDS = ['digit', 'digits', 'dtmf', 'key'] as const;

/** Live deployments name the keys' field in several ways: any field starting with one of these. */
const DTMF_KEY_FIELD = /^(dtmf|digit|key)/i;

function keysIn(value: unknown): string {
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
        ? String(value)
        : '';
  return text.toUpperCase().replace(/[^0-9*#A-D]/g, '');
}

/**
 * The keys pressed, from the first field that holds any: DTMF_KEY_FIELDS first, then any other field
 * whose name starts with dtmf, digit or key (in the body's order). A string or a non-negative integer,
 * upper-cased, keeping only the DTMF keys 0-9 * # A-D; null when no field holds a key.
 */
export function dtmfKeys(body: Readonly<Record<string, unknown>>): string | null {
  const others = Object.keys(body).filter(
    (f) => DTMF_KEY_FIELD.test(f) && !(DTMF_KEY_FIELDS as readonly string[]).includes(f),
  );
  for (const field of [...DTMF_KEY_FIELDS, ...others]) {
    const keys = keysIn(body[field]);
    if (keys !== '') return keys;
  }
  return null;
}

/**
 * An event of a call whose name the spec does not list (transfers, recordings, DTMF key presses, …):
 * a usable call_id ties it to its call; its other fields are read as the call event's where they
 * make sense and left out of the parsed event (never refused) where they do not: the body keeps them.
 */
export function lenientCallEvent(body: Readonly<Record<string, unknown>>): CallEvent | null {
  const id = eventId.safeParse(body.id);
  const callIdValue = callIdOf(body.call_id);
  if (!id.success || callIdValue === null || typeof body.event_name !== 'string') return null;
  const event: Record<string, unknown> = { ...body, id: id.data, call_id: callIdValue };
  for (const [field, schema] of Object.entries(callEventSchema.shape)) {
    if (field === 'id' || field === 'event_name' || field === 'call_id') continue;
    const parsed = (schema as z.ZodType).safeParse(body[field]);
    event[field] = parsed.success ? parsed.data : undefined;
  }
  return event as CallEvent;
}

/** A DTMF key press: an event of a call with the keys pressed (the spec shows neither name nor body). */
export type DtmfEvent = CallEvent & { digits: string | null };

/**
 * Body of a DTMF key press event, strictly typed (the emulator's own events meet it): any name
 * containing "dtmf", the call event's fields, and the keys. The receiver reads live DTMF events more
 * leniently (lenientCallEvent plus dtmfKeys).
 */
export const dtmfEventSchema = callEventSchema
  .extend({
    event_name: z.string().refine(isDtmfEventName, 'must name a DTMF event'),
  })
  .transform((e): DtmfEvent => ({ ...e, digits: dtmfKeys(e) }));

/** Any event: only `id` and `event_name` are required; an unknown name is still an event to keep. */
export const unknownEventSchema = z.looseObject({
  id: eventId,
  event_name: z.string().min(1, 'required'),
  event_time: date(),
});
export type UnknownEvent = z.infer<typeof unknownEventSchema>;

/**
 * A webhook delivery, classified: a known call or SMS event, a DTMF key press of a call, or an event
 * name callsync does not know.
 */
export type WebhookEvent =
  | { kind: 'call'; event: CallEvent }
  | { kind: 'sms'; event: SmsReceivedEvent }
  | { kind: 'dtmf'; event: DtmfEvent }
  | { kind: 'unknown'; event: UnknownEvent };

/** The event the spec sends when a webhook is saved, to test the URL. */
export const TEST_EVENT_NAME = 'webhook.test';
