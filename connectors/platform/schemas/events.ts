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

/** Body of a call event (spec, Call event body). */
export const callEventSchema = z.looseObject({
  id: eventId,
  event_time: date(),
  event_name: z.enum(CALL_EVENT_NAMES),
  /** Equals the CDR's and the recording's live_id, and the live call's id. */
  call_id: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]),
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
export type CallEvent = z.infer<typeof callEventSchema>;

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

/** Fields that may carry the keys of a DTMF event, in the order they are read. */
export const DTMF_KEY_FIELDS = ['digit', 'digits', 'dtmf', 'key'] as const;

/**
 * The keys pressed, from the first of DTMF_KEY_FIELDS that holds any: a string or a non-negative
 * integer, upper-cased, keeping only the DTMF keys 0-9 * # A-D; null when no field holds a key.
 */
export function dtmfKeys(body: Readonly<Record<string, unknown>>): string | null {
  for (const field of DTMF_KEY_FIELDS) {
    const value = body[field];
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
          ? String(value)
          : '';
    const keys = text.toUpperCase().replace(/[^0-9*#A-D]/g, '');
    if (keys !== '') return keys;
  }
  return null;
}

/**
 * Body of a DTMF key press event. The spec names the category but shows neither its event name nor
 * its payload (Events, Rules 5), so this is lenient: any name containing "dtmf", the call event's
 * fields (all optional but id and call_id), and the keys from whichever field carries them. Only a
 * usable call_id ties the key press to a call; an event without one is kept as an unknown event and
 * never refused (400), since no documented format exists for it to break.
 */
export const dtmfEventSchema = callEventSchema
  .extend({
    event_name: z.string().refine(isDtmfEventName, 'must name a DTMF event'),
  })
  .transform((e) => ({ ...e, digits: dtmfKeys(e) }));
export type DtmfEvent = z.output<typeof dtmfEventSchema>;

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
