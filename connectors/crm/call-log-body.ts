// The text a call log carries in the CRM (HubSpot hs_call_body, Salesforce Description, the built-in
// destination's body): IVR keys pressed, summary, sentiment, a transcript excerpt and the recording link.
import type { CallLog } from './crm-connector';

/** Safety cap on the transcript excerpt in a call log body (call-log.ts already cuts it shorter). */
export const BODY_EXCERPT_MAX_CHARS = 2_000;

/** Cuts `text` to `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** The call log's body as plain text with one section per known part; '' when nothing is known yet. */
export function callLogBody(log: CallLog, excerptChars = BODY_EXCERPT_MAX_CHARS): string {
  const parts: string[] = [];
  // First: the menu choice is what a rep looks for, and it survives a CRM's cut of a long body.
  if (log.ivrDigits) {
    const keys = `IVR keys pressed: ${[...log.ivrDigits].join(' ')}`;
    parts.push(log.ivrRoute ? `${keys}\nIVR route: ${log.ivrRoute}` : keys);
  }
  if (log.summary) parts.push(`Summary: ${log.summary.trim()}`);
  if (log.sentiment) parts.push(`Sentiment: ${log.sentiment}`);
  if (log.transcriptExcerpt) {
    parts.push(`Transcript (excerpt):\n${truncate(log.transcriptExcerpt.trim(), excerptChars)}`);
  }
  if (log.recordingUrl) parts.push(`Recording: ${log.recordingUrl}`);
  return parts.join('\n\n');
}

/** The account a key `<account>:…` belongs to. */
export function accountOfKey(key: string): string {
  const at = key.indexOf(':');
  if (at <= 0) throw new RangeError(`idempotency key without an account prefix: ${key}`);
  return key.slice(0, at);
}

/** Splits a display name into first and last name (the last word is the last name). */
export function splitName(name: string | null): { first: string | null; last: string | null } {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { first: null, last: null };
  if (words.length === 1) return { first: null, last: words[0]! };
  return { first: words.slice(0, -1).join(' '), last: words[words.length - 1]! };
}
