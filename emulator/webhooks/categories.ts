// Which event names each webhook category selects. The spec lists the categories but not their event
// names (Events, "Event categories"); the choices here are the emulator's and are documented in
// emulator/webhooks/README.md.
import { CALL_EVENT_NAMES, type EventCategory } from '../../connectors/platform/schemas/events';

/** Name of the DTMF key press event (the spec does not show it); its body is a call event plus `digit`. */
export const DTMF_EVENT_NAME = 'call.dtmf';
/** Name of the SMS received event. */
export const SMS_EVENT_NAME = 'sms.received';
/** Context of user events; events of any other context (QUEUE, IVR) need the call state change category. */
export const USER_CONTEXT = 'LOCAL_USER';

const CALL_NAMES: ReadonlySet<string> = new Set(CALL_EVENT_NAMES);

/** Event names selected by each category other than call state change, for user (LOCAL_USER) events. */
const BY_CATEGORY: Readonly<Record<Exclude<EventCategory, 'call_state_change'>, readonly string[]>> = {
  missed_call: ['call.missed'],
  ringing_call: ['call.ringing'],
  connected_call: ['call.connected'],
  ended_call: ['call.hangup', 'call.failed'],
  sms_received: [SMS_EVENT_NAME],
  dtmf_key_press: [DTMF_EVENT_NAME],
};

/** The minimal view of an event the selection needs. */
export interface SelectableEvent {
  event_name: string;
  context?: unknown;
}

/**
 * Whether a webhook with these categories receives the event. Call state change selects every documented
 * call event in every context (spec Rule 1: queue events need it); the single call categories select
 * their events only in the user context; DTMF key press selects call.dtmf in any context.
 */
export function categoriesSelect(categories: readonly EventCategory[], event: SelectableEvent): boolean {
  const name = event.event_name;
  const userContext = event.context === undefined || event.context === null || event.context === USER_CONTEXT;
  for (const category of categories) {
    if (category === 'call_state_change') {
      if (CALL_NAMES.has(name)) return true;
      continue;
    }
    if (!BY_CATEGORY[category].includes(name)) continue;
    if (category === 'dtmf_key_press' || category === 'sms_received' || userContext) return true;
  }
  return false;
}
