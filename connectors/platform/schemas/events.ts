// Webhook event bodies (spec, Events): call events and received SMS. The platform signs nothing
// and sends event names beyond its documented list, so the union keeps unknown events.
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

/** Any event: only `id` and `event_name` are required; an unknown name is still an event to keep. */
export const unknownEventSchema = z.looseObject({
  id: eventId,
  event_name: z.string().min(1, 'required'),
  event_time: date(),
});
export type UnknownEvent = z.infer<typeof unknownEventSchema>;

/** A webhook delivery, classified: a known call or SMS event, or an event name callsync does not know. */
export type WebhookEvent =
  | { kind: 'call'; event: CallEvent }
  | { kind: 'sms'; event: SmsReceivedEvent }
  | { kind: 'unknown'; event: UnknownEvent };

/** The event the spec sends when a webhook is saved, to test the URL. */
export const TEST_EVENT_NAME = 'webhook.test';
