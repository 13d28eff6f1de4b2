// Builds the CRM call log of one call from its CDR, its recording and the keys pressed. Pure.
import type { CountryCode } from 'libphonenumber-js';
import type { Cdr, Monitor } from '../platform';
import type { CallLog, CrmContact } from './crm-connector';
import { toE164 } from '../../lib/phone';

/** Characters of the transcript put into the call log's body. */
export const TRANSCRIPT_EXCERPT_CHARS = 600;

/** What the call was, seen from the company: who is the outside party, and what happened. */
export interface CallSummary {
  direction: 'inbound' | 'outbound';
  status: CallLog['status'];
  /** The outside party's number in E.164, when it is a phone number. */
  externalNumber: string | null;
  missed: boolean;
  connected: boolean;
}

/** Direction, outcome and the outside party of a CDR. */
export function summarizeCdr(cdr: Cdr, defaultCountry: CountryCode): CallSummary {
  const direction = cdr.type === 'O' ? 'outbound' : 'inbound';
  const billsec = cdr.billsec ?? 0;
  const cause = (cdr.t_cause ?? '').toLowerCase();
  let status: CallLog['status'];
  if (cdr.type === 'M') status = 'missed';
  else if (cdr.disposition === 'VM') status = 'voicemail';
  else if (billsec > 0) status = 'completed';
  else if (cause.includes('busy')) status = 'busy';
  else status = direction === 'inbound' ? 'missed' : 'failed';
  const external = direction === 'inbound' ? cdr.src : cdr.dst;
  return {
    direction,
    status,
    externalNumber: toE164(external ?? null, defaultCountry),
    missed: status === 'missed',
    connected: status === 'completed',
  };
}

export interface CallLogInput {
  account: string;
  callId: number;
  cdr: Cdr;
  recording: Monitor | null;
  /** Where the recording can be played (the platform's .mp3 URL or the archive's). */
  recordingUrl: string | null;
  userEmail: string | null;
  contact: CrmContact | null;
  defaultCountry: CountryCode;
  /** DTMF keys pressed during the call, in order (from its timeline); null or '' when none. */
  ivrDigits: string | null;
  /** Where the IVR keys led (ivrRouteText), or null. */
  ivrRoute?: string | null;
}

/** The call log for a call: created at hangup, and rebuilt as the recording and transcript arrive. */
export function buildCallLog(input: CallLogInput): CallLog {
  const { cdr, recording } = input;
  const s = summarizeCdr(cdr, input.defaultCountry);
  const other = s.externalNumber ?? (s.direction === 'inbound' ? cdr.src : cdr.dst) ?? 'unknown';
  const verb = {
    completed: 'call',
    missed: 'Missed call',
    voicemail: 'Voicemail',
    busy: 'Busy call',
    failed: 'Failed call',
  }[s.status];
  const title =
    s.status === 'completed'
      ? `${s.direction === 'inbound' ? 'Inbound call from' : 'Outbound call to'} ${other}`
      : `${verb} ${s.direction === 'inbound' ? 'from' : 'to'} ${other}`;
  const transcript = recording?.transcript?.trim() || null;
  return {
    key: `${input.account}:${input.callId}`,
    title,
    direction: s.direction,
    status: s.status,
    startedAt: cdr.calldate ? `${cdr.calldate.replace(' ', 'T')}Z` : new Date(0).toISOString(),
    durationSeconds: s.connected ? (cdr.billsec ?? 0) : 0,
    fromNumber: toE164(cdr.src ?? null, input.defaultCountry) ?? cdr.src ?? null,
    toNumber: toE164(cdr.dst ?? null, input.defaultCountry) ?? cdr.dst ?? null,
    userEmail: input.userEmail,
    contact: input.contact,
    recordingUrl: recording ? input.recordingUrl : null,
    summary: recording?.summary?.trim() || null,
    transcriptExcerpt: transcript
      ? transcript.length > TRANSCRIPT_EXCERPT_CHARS
        ? `${transcript.slice(0, TRANSCRIPT_EXCERPT_CHARS - 1)}…`
        : transcript
      : null,
    sentiment: recording?.sentiment ?? null,
    ivrDigits: input.ivrDigits || null,
    ivrRoute: input.ivrRoute ?? null,
  };
}
