import type { Country } from './phone-numbers';

/** What one seeded customer account looks like; everything else is derived from it and the seed. */
export interface CustomerProfile {
  id: number;
  name: string;
  domain: string;
  country: Country;
  currency: string;
  language: string;
  timezone: string;
  users: number;
  queues: readonly string[];
  ringGroups: readonly string[];
  ivrs: readonly string[];
  /** Countries of the customer's telephone numbers (DDIs), one entry per number. */
  ddiCountries: readonly Country[];
  contacts: number;
  contactCountries: readonly (readonly [Country, number])[];
  /** Callers that are not contacts (repeat callers among them). */
  unknownCallers: number;
  sms: number;
  faxes: number;
  chats: number;
  mediaSessions: number;
  /** Email of the account owner (the admin login). */
  adminEmail: string;
}

/** The admin's customer: a mid-size UK company with international numbers. */
export const ACME: CustomerProfile = {
  id: 1,
  name: 'Acme Telecom Ltd',
  domain: 'acme-telecom.example',
  country: 'GB',
  currency: 'GBP',
  language: 'en-GB',
  timezone: 'Europe/London',
  users: 40,
  queues: ['Sales', 'Support', 'Billing', 'Renewals'],
  ringGroups: ['Reception', 'Warehouse', 'Management'],
  ivrs: ['Main Menu', 'After Hours', 'Support Triage'],
  ddiCountries: ['GB', 'GB', 'GB', 'GB', 'US', 'US', 'DE', 'FR', 'ES', 'NL', 'AU', 'PL'],
  contacts: 2000,
  contactCountries: [
    ['GB', 34],
    ['US', 20],
    ['DE', 10],
    ['FR', 8],
    ['ES', 8],
    ['NL', 7],
    ['PL', 6],
    ['AU', 7],
  ],
  unknownCallers: 3000,
  sms: 3000,
  faxes: 60,
  chats: 300,
  mediaSessions: 200,
  adminEmail: 'admin@acme-telecom.example',
};

/** A second, small customer, so that another customer's resources answer 403. */
export const GLOBEX: CustomerProfile = {
  id: 2,
  name: 'Globex Logistik GmbH',
  domain: 'globex-logistik.example',
  country: 'DE',
  currency: 'EUR',
  language: 'de-DE',
  timezone: 'Europe/Berlin',
  users: 5,
  queues: ['Disposition'],
  ringGroups: ['Büro'],
  ivrs: ['Hauptmenü'],
  ddiCountries: ['DE', 'DE', 'PL'],
  contacts: 150,
  contactCountries: [
    ['DE', 70],
    ['PL', 20],
    ['NL', 10],
  ],
  unknownCallers: 200,
  sms: 120,
  faxes: 8,
  chats: 20,
  mediaSessions: 10,
  adminEmail: 'admin@globex-logistik.example',
};

export const PROFILES: readonly CustomerProfile[] = [ACME, GLOBEX];

/** First ids per table, so ids of different kinds do not look alike (a user id is never a contact id). */
export const ID_BASES: Record<string, number> = {
  aclroles: 1,
  users: 120_001,
  usergroups: 11,
  usergrouppolicies: 21,
  queuegroups: 31,
  queues: 301,
  ringgroups: 401,
  ivrs: 501,
  pickupgroups: 41,
  conferences: 61,
  callflows: 71,
  routingrules: 81,
  calllabels: 101,
  cannedresponses: 151,
  vmannouncements: 181,
  monitoraidictionary: 201,
  reportschedules: 251,
  callmeback_settings: 271,
  callmeback_websites: 281,
  callmeback_buttons: 291,
  callmeback_visitors: 3001,
  calltracking_campaigns: 311,
  contacts: 20001,
  cdrs: 5_000_001,
  monitors: 7_000_001,
  voicemessages: 60_001,
  cdrnotes: 90_001,
  sms: 100_001,
  faxes: 8001,
  chats: 40_001,
  chatmsgs: 400_001,
  mediasessions: 70_001,
  msdrs: 80_001,
  webcalls: 30_001,
  statements: 9001,
  live: 880_000_001,
};

/** Hands out the next id of a table (`live` for live-call ids shared by CDRs, recordings, voicemail). */
export interface IdAllocator {
  take(table: string): number;
}

/**
 * Tables of time-stamped history (calls and what hangs off them, messages, media sessions), whose ids a
 * later run must never hand out again: a client that synced an earlier run keys its records by them.
 * The account itself (users, groups, contacts, settings) keeps its ids from run to run.
 */
export const HISTORY_ID_TABLES: ReadonlySet<string> = new Set([
  'cdrs',
  'monitors',
  'voicemessages',
  'cdrnotes',
  'sms',
  'faxes',
  'chats',
  'chatmsgs',
  'mediasessions',
  'msdrs',
  'webcalls',
  'live',
]);

/** History ids a run may use per millisecond between its history's end and the next run's (above what seeding and traffic use). */
const HISTORY_IDS_PER_MS = 1000;

/**
 * How far history ids start above their bases for a history ending at `historyEndMs`: 0 up to
 * `idEpochMs` (so fixed-date runs keep their ids), then 1000 per millisecond. A run started later (real
 * time) thus hands out ids above every id of an earlier run, which seeded and ran for at least that long
 * at fewer than 1000 history ids per millisecond (seeding makes about 300).
 */
export function historyIdOffset(historyEndMs: number, idEpochMs: number): number {
  return Math.max(0, Math.floor(historyEndMs - idEpochMs)) * HISTORY_IDS_PER_MS;
}

/** Next-id counters shared by all customers (ids are global, as on the platform). */
export class IdCounters implements IdAllocator {
  private readonly next = new Map<string, number>();

  /** `historyOffset` (historyIdOffset) lifts the bases of HISTORY_ID_TABLES. */
  constructor(private readonly historyOffset = 0) {}

  /** The first id of a table. */
  first(table: string): number {
    return (ID_BASES[table] ?? 1) + (HISTORY_ID_TABLES.has(table) ? this.historyOffset : 0);
  }

  take(table: string): number {
    const id = this.next.get(table) ?? this.first(table);
    this.next.set(table, id + 1);
    return id;
  }
}
