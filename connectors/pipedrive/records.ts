// What callsync writes into Pipedrive, as pure functions: call logs and callback tasks as activities
// of type `call`, call facts as a Call Logs API record, SMS and voicemail as notes on the person; and
// the key marker. Pipedrive has no field for callsync's key on activities or notes (an activity's
// custom fields cannot be created through the API), so the key is the last paragraph of the
// activity's note or of the note's content (`callsync key: <key>`): find* lists activities or notes
// and reads it back. Pipedrive keeps notes as HTML (https://developers.pipedrive.com/docs/api/v1/Notes).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { callLogBody } from '../crm/call-log-body';
import type { CallbackTask, CallLog, MessageLog } from '../crm/crm-connector';

const MARKER = 'callsync key: ';

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** Plain text as HTML paragraphs, with the key's paragraph last. */
export function htmlWithKey(text: string, key: string): string {
  const paragraphs = text
    .split(/\n{2,}/)
    .filter((p) => p.trim() !== '')
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`);
  return [...paragraphs, `<p>${MARKER}${escapeHtml(key)}</p>`].join('');
}

/** The key an activity's note or a note's content carries, if any. */
export function keyOf(html: string | null | undefined): string | null {
  if (!html) return null;
  const at = html.lastIndexOf(MARKER);
  if (at < 0) return null;
  const m = /^([^<\s]+)/.exec(html.slice(at + MARKER.length));
  return m ? unescapeHtml(m[1]!) : null;
}

/** The text of an HTML note (for the harness and for tests): paragraphs and line breaks as newlines. */
export function textOf(html: string): string {
  return unescapeHtml(
    html
      .replace(/<br\s*\/?>/g, '\n')
      .replace(/<\/p>\s*<p>/g, '\n\n')
      .replace(/<[^>]+>/g, ''),
  );
}

/** ISO 8601 → Pipedrive's due_date (YYYY-MM-DD) and due_time (HH:MM), both UTC. */
export function dueOf(iso: string): { due_date: string; due_time: string } {
  const d = new Date(iso).toISOString();
  return { due_date: d.slice(0, 10), due_time: d.slice(11, 16) };
}

/** Seconds → an activity's duration (HH:MM), at least a minute for a call that connected. */
export function durationOf(seconds: number): string {
  const minutes = Math.ceil(Math.max(0, seconds) / 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** Pipedrive's call log outcomes (https://developers.pipedrive.com/docs/api/v1/CallLogs#addCallLog). */
export type CallLogOutcome =
  'connected' | 'no_answer' | 'left_message' | 'left_voicemail' | 'wrong_number' | 'busy';

export function outcomeOf(status: CallLog['status']): CallLogOutcome {
  switch (status) {
    case 'completed':
      return 'connected';
    case 'voicemail':
      return 'left_voicemail';
    case 'busy':
      return 'busy';
    default:
      return 'no_answer';
  }
}

/** The facts line a call's activity note starts with. */
function callFacts(log: CallLog): string {
  const way = log.direction === 'inbound' ? 'Inbound' : 'Outbound';
  return `${way} call, ${log.status}, ${log.durationSeconds} s (from ${log.fromNumber ?? 'unknown'} to ${log.toNumber ?? 'unknown'})`;
}

/** The activity (type call, done) that is callsync's call log: created once, then updated in place. */
export function callActivity(log: CallLog, ownerId: number | null) {
  const body = callLogBody(log);
  return {
    subject: log.title,
    type: 'call',
    done: true,
    ...dueOf(log.startedAt),
    duration: durationOf(log.durationSeconds),
    ...(log.contact ? { person_id: Number(log.contact.crmId) } : {}),
    ...(ownerId !== null ? { owner_id: ownerId } : {}),
    note: htmlWithKey([callFacts(log), body].filter(Boolean).join('\n\n'), log.key),
  };
}

/** Pipedrive's date-time format for call logs: "YYYY-MM-DD HH:MM:SS" in UTC. */
function callLogTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** The Call Logs API record of a call, attached to its activity (written once: call logs cannot be edited). */
export function callLogRecord(log: CallLog, activityId: number, ownerId: number | null) {
  const start = Date.parse(log.startedAt);
  const [ours, theirs] =
    log.direction === 'inbound' ? [log.toNumber, log.fromNumber] : [log.fromNumber, log.toNumber];
  return {
    activity_id: activityId,
    subject: log.title,
    outcome: outcomeOf(log.status),
    // Pipedrive requires the number called; an inbound call called ours.
    to_phone_number: (log.direction === 'inbound' ? ours : theirs) ?? 'unknown',
    ...((log.direction === 'inbound' ? theirs : ours)
      ? { from_phone_number: (log.direction === 'inbound' ? theirs : ours)! }
      : {}),
    start_time: callLogTime(start),
    end_time: callLogTime(start + log.durationSeconds * 1000),
    duration: String(log.durationSeconds),
    ...(ownerId !== null ? { user_id: ownerId } : {}),
  };
}

/** The activity (type call) of a callback task: open while nobody reached the caller, done after. */
export function taskActivity(task: CallbackTask, ownerId: number | null) {
  return {
    subject: task.status === 'expired' ? `${task.subject} (expired)` : task.subject,
    type: 'call',
    done: task.status !== 'open',
    ...dueOf(task.dueAt),
    ...(task.contact ? { person_id: Number(task.contact.crmId) } : {}),
    ...(ownerId !== null ? { owner_id: ownerId } : {}),
    note: htmlWithKey(task.body, task.key),
  };
}

/** A note's content for an SMS or a voicemail. */
export function messageNote(log: MessageLog): string {
  return htmlWithKey(`${log.title}\n\n${log.body}`, log.key);
}

const digitsOf = (s: string) => s.replace(/\D/g, '');

/** How one E.164 number is searched in Pipedrive and recognised among the hits. */
export function phoneQuery(e164: string): { term: string; holds: (phone: string) => boolean } {
  const international = digitsOf(e164);
  const national = digitsOf(parsePhoneNumberFromString(e164)?.nationalNumber ?? '') || international;
  return {
    // The national significant number: inside "+44 20 7946 0000", "020 7946 0000" and "442079460000".
    term: national,
    holds: (phone) => {
      const written = phone.trim();
      // Written with its country code (+44…, 0044…): that number and no other.
      if (/^(\+|00)/.test(written)) {
        const parsed = parsePhoneNumberFromString(written.replace(/^00/, '+'));
        return parsed ? parsed.number === e164 : digitsOf(written) === international;
      }
      // Written nationally (020 7946 0000) or as bare digits: its digits end with the national number.
      const p = digitsOf(written);
      return p === international || (national.length >= 7 && p.endsWith(national));
    },
  };
}
