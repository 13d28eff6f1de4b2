import type { Row } from '../store/types';
import type { ContactInfo } from './contacts';
import type { Directory } from './directory';
import type { TranscriptEntry } from './transcripts';

/** Everything the call generator draws from for one customer. */
export interface CallContext {
  dir: Directory;
  contacts: ContactInfo[];
  unknownCallers: string[];
  /** AI results per user index, and voicemail transcripts per user index. */
  transcripts: TranscriptEntry[][];
  voicemails: string[][];
  callMeBack: { buttonIds: number[]; visitors: { id: number; number: string; name: string }[] };
  tracking: { ddi: string; campaignId: number; source: string; landingPage: string }[];
  /** Latest calldate per contact index (contacts' last_call_at). */
  contactLastCall: (string | undefined)[];
  /** Charges and call counts per month `YYYY-MM` (statements). */
  months: Map<string, { charge: number; calls: number }>;
}

/** Receives each generated row with the table it belongs to (cdr first, then linked rows). */
export type CallSink = (table: string, row: Row) => void;

/** Options for one call: seeded history has transcripts; calls made "now" may get them later. */
export interface CallOptions {
  transcriptLater?: boolean;
  /** The call's end time (for "now" calls); the start is then derived from the duration. */
  endsAt?: number;
  /** Talk time is cut so the call fits (a CDR exists only once the call has ended). */
  maxDuration?: number;
}
