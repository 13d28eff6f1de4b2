// The directory as the call generator sees it: users, groups that ring several users, and DDIs.
import type { Country } from './phone-numbers';

/** A user as the call generator needs it (the row holds the full API shape). */
export interface UserInfo {
  id: number;
  ext: string;
  name: string;
  email: string;
  ua: string;
  codec: string;
  /** Automated recording: N none, A all, I inbound, O outbound. */
  monitor: 'N' | 'A' | 'I' | 'O';
  transcribe: boolean;
  /** Where unanswered direct calls go: V voicemail (VM CDR), otherwise a missed call. */
  finalDst: 'V' | 'H' | 'R';
  cli: string;
  mobile: string;
  sipEndpointId: number;
}

/** A queue or ring group: a number that rings several users. */
export interface GroupInfo {
  id: number;
  name: string;
  number: string;
  members: UserInfo[];
  monitor: boolean;
}

export interface DdiInfo {
  e164: string;
  country: Country;
  targetKind: 'user' | 'queue' | 'ringgroup' | 'ivr';
  targetId: number;
  tracking: boolean;
}
