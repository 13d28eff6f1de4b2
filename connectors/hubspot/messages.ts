// SMS and voice messages in HubSpot: an SMS is a communication (hs_communication_channel_type SMS),
// or a note where the portal has no communications object; a voice message is a note. Each carries
// callsync's key in `callsync_key` and is associated with the contact.
import { truncate } from '../crm/call-log-body';
import type { MessageLog } from '../crm/crm-connector';
import { KEY_PROPERTY, MAX_BODY_CHARS } from './properties';

/** HubSpot-defined association types (v4): communication → contact and note → contact. */
export const COMMUNICATION_TO_CONTACT = 81;
export const NOTE_TO_CONTACT = 202;

export type MessageObjectType = 'communications' | 'notes';

/** Where a message goes: SMS to communications when the portal has them, everything else to notes. */
export function messageObjectType(log: MessageLog, communications: boolean): MessageObjectType {
  return log.channel === 'sms' && communications ? 'communications' : 'notes';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

/** The message as HubSpot rich text: its title, then its lines (links clickable). */
export function messageBodyHtml(log: MessageLog): string {
  const lines = [`<b>${escapeHtml(log.title)}</b>`];
  for (const line of log.body.split('\n')) {
    const html = escapeHtml(line).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>');
    lines.push(html);
  }
  return truncate(lines.join('<br>'), MAX_BODY_CHARS);
}

/** Properties of the communication or note for `log`. */
export function messageProperties(
  log: MessageLog,
  type: MessageObjectType,
  ownerId: string | null,
): Record<string, string> {
  const props: Record<string, string> = {
    hs_timestamp: new Date(log.at).toISOString(),
    [KEY_PROPERTY]: log.key,
  };
  if (type === 'communications') {
    props.hs_communication_channel_type = 'SMS';
    props.hs_communication_logged_from = 'CRM';
    props.hs_communication_body = messageBodyHtml(log);
  } else {
    props.hs_note_body = messageBodyHtml(log);
  }
  if (ownerId) props.hubspot_owner_id = ownerId;
  return props;
}
