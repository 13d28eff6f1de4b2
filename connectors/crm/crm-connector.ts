// The one small interface every CRM destination implements (HubSpot, Salesforce, and the built-in
// warehouse destination used when no CRM is configured).
import type { CountryCode } from 'libphonenumber-js';
import type { CrmContactBook } from './contact-book';

/** A person in the CRM that a phone number matched. */
export interface CrmContact {
  crmId: string;
  /** Salesforce has Contacts and Leads; HubSpot and the built-in destination only contacts. */
  kind: 'contact' | 'lead';
  name: string | null;
  /** CRM owner (user) id, for the "owned by the call's user" matching rule. */
  ownerId: string | null;
  /** Last modification, for the "most recently updated" matching rule. */
  updatedAt: string | null;
}

/** The call log callsync keeps for one call: created once, then updated in place. */
export interface CallLog {
  /** Idempotency key `<account>:<call_id>`, stored on the CRM object itself so a retry finds it. */
  key: string;
  title: string;
  direction: 'inbound' | 'outbound';
  /** completed (connected), missed, voicemail, busy, failed (not connected). */
  status: 'completed' | 'missed' | 'voicemail' | 'busy' | 'failed';
  /** ISO 8601 start time. */
  startedAt: string;
  durationSeconds: number;
  fromNumber: string | null;
  toNumber: string | null;
  /** The platform user who made or took the call (their e-mail, for owner lookup). */
  userEmail: string | null;
  contact: CrmContact | null;
  recordingUrl: string | null;
  summary: string | null;
  transcriptExcerpt: string | null;
  sentiment: string | null;
  /** DTMF keys the caller pressed in the IVR, in order (e.g. "21"); null when none. */
  ivrDigits: string | null;
  /** Where the IVR keys led, e.g. "2 → Sales (600)"; absent or null when not known. */
  ivrRoute?: string | null;
}

/** A callback task for a caller nobody reached. */
export interface CallbackTask {
  /** Idempotency key `<account>:callback:<E.164 number>:<n>` (n counts tasks for that number). */
  key: string;
  subject: string;
  body: string;
  /**
   * open while nobody has reached the caller; closed by the call that reached them; expired when
   * callsync gave up (callbacks.expireAfter): each CRM shows that its own way.
   */
  status: 'open' | 'closed' | 'expired';
  /** ISO 8601 due time. */
  dueAt: string;
  callerNumber: string;
  assigneeEmail: string | null;
  /** The platform user the task is for, when known (destinations that map users by id). */
  assigneeUserId?: number | null;
  contact: CrmContact | null;
}

/** An SMS or a voice message logged on the contact it was with: created once, then updated in place. */
export interface MessageLog {
  /** Idempotency key `<account>:sms:<sms id>` or `<account>:voicemail:<voice message id>`. */
  key: string;
  channel: 'sms' | 'voicemail';
  direction: 'inbound' | 'outbound';
  /** ISO 8601 time the message was sent or left. */
  at: string;
  fromNumber: string | null;
  toNumber: string | null;
  /** One line: "SMS from +44…", "Voicemail from +44… (42 s)". */
  title: string;
  /** The text: the SMS, or the voicemail's audio link and transcript. */
  body: string;
  /** The platform user who sent or received it (their e-mail, for the CRM owner). */
  userEmail: string | null;
  contact: CrmContact;
}

/** A call log's outcome as the CRM holds it now. */
export interface CrmOutcome {
  /** callsync's call key `<account>:<call id>` (the call log's idempotency key). */
  key: string;
  /** The call log's id in the CRM. */
  crmId: string;
  /** The CRM's value (HubSpot: a disposition GUID; Salesforce: the CallDisposition text). */
  value: string;
  /** The value's display text ("Connected"). */
  label: string;
  /** When the CRM last modified the call log (ISO 8601): the cursor of the next read. */
  modifiedAt: string;
  /** Who the call log belongs to in the CRM (a name or e-mail), when known. */
  by: string | null;
}

/** A CRM that can list the outcomes set on callsync's call logs. */
export interface CrmOutcomeSource {
  /** The CRM's name as people say it ("HubSpot"), for the note. */
  readonly displayName: string;
  /**
   * callsync's call logs carrying an outcome, modified at or after `since` (ISO 8601; every one when
   * null), oldest first, in pages. Call logs modified by callsync itself are among them.
   */
  changedSince(since: string | null): AsyncIterable<CrmOutcome[]>;
  /** The value callsync itself writes on a call log of this status (not an agent's outcome). */
  ownValue(status: CallLog['status']): string | null;
}

/** One pending call-log update, for connectors that have a batch endpoint. */
export interface CallLogUpdate {
  crmId: string;
  log: CallLog;
}

/** One pending callback-task update, for connectors that have a batch endpoint. */
export interface TaskUpdate {
  crmId: string;
  task: CallbackTask;
}

/** Per key: the CRM id written, or why that one item failed (its neighbours in the batch went on). */
export type BatchOutcome = Map<string, string | Error>;

/**
 * Many call logs, tasks and lookups in as few requests as the vendor allows (HubSpot batch and search
 * IN, Salesforce sObject Collections, SOQL IN and multi-term SOSL). Each method takes at most
 * `maxBatch` items; callers split larger work.
 */
export interface CrmBatchOps {
  readonly maxBatch: number;
  /** Contacts (and leads) per E.164 number, for many numbers at once (numbers without any: absent). */
  findContactsByPhones(numbers: readonly string[]): Promise<Map<string, CrmContact[]>>;
  /** Call logs already carrying these keys (key → CRM id; the oldest should a duplicate exist). */
  findCallLogs(keys: readonly string[]): Promise<Map<string, string>>;
  /**
   * Creates call logs. A key the CRM already holds refuses the request (CrmError status 409) when the
   * vendor enforces unique keys; callers then find the existing ones and create the rest.
   */
  createCallLogs(logs: readonly CallLog[]): Promise<BatchOutcome>;
  updateCallLogs(updates: readonly CallLogUpdate[]): Promise<void>;
  findTasks(keys: readonly string[]): Promise<Map<string, string>>;
  createTasks(tasks: readonly CallbackTask[]): Promise<BatchOutcome>;
  updateTasks(updates: readonly TaskUpdate[]): Promise<void>;
}

/** The account's settings a contact book is built with (config `contacts`, `crm.defaultCountry`). */
export interface ContactBookOptions {
  /** Where numbers typed without a country code are read (CRM records' free-form phone fields). */
  country: CountryCode;
  /** What a platform contact becomes where the CRM has both (config `contacts.salesforceCreateAs`). */
  createAs: 'contact' | 'lead';
}

/** What a CRM destination can do for callsync. Every method is safe to call again after a failure. */
export interface CrmConnector {
  readonly name: string;
  /**
   * Which destination this is: the type plus the portal, org or instance (`hubspot:<token id>`,
   * `salesforce:<instance URL>`). Caches and rate windows are keyed by it; `name` when absent.
   */
  readonly destinationId?: string;
  /**
   * How long a created contact may take to appear in findContactsByPhone (HubSpot's search index
   * lags behind writes); 0 or absent where the search sees every write at once.
   */
  readonly searchLagMs?: number;
  /**
   * Makes sure the CRM has what callsync writes (custom properties, writable fields); run once at
   * worker start, idempotent. Throws a non-retryable CrmError naming the missing permission.
   */
  prepare?(): Promise<void>;
  /**
   * The CRM owner (user) id of a person's e-mail, through the vendor's owner/user API (cached); null
   * when the CRM has no such user. Without it, the CRM's owner ids are the platform's user ids.
   */
  ownerId?(email: string | null): Promise<string | null>;
  /** Contacts (and leads) whose phone fields hold this E.164 number. */
  findContactsByPhone(e164: string): Promise<CrmContact[]>;
  /**
   * Creates a contact for an unknown caller. `key` (`<account>:contact:<E.164>`) is stored on it
   * where the vendor has a place that findContactByKey reads.
   */
  createContact(input: { phone: string; name: string | null; key?: string }): Promise<CrmContact>;
  /**
   * The contact callsync created under `key`, read where the vendor answers at once (unlike its
   * search): a create whose answer was lost is found by it. Absent where contacts carry no key.
   */
  findContactByKey?(key: string): Promise<CrmContact | null>;
  /** The contact's page in the CRM's web UI (screen-pop links); absent where the CRM has no UI. */
  contactPageUrl?(contact: CrmContact): Promise<string>;
  /** The CRM's page where an agent creates a contact, with the number filled in where the CRM allows. */
  newContactPageUrl?(e164: string): Promise<string>;
  /**
   * The call log's page in the CRM's web UI (the dashboard's call page links to it); absent where the
   * CRM has no UI. Built from ids and what the connector already knows (a HubSpot portal id is read
   * once).
   */
  callLogPageUrl?(crmId: string): string | Promise<string>;
  /** The call log carrying `key`, if one exists (recovers a create whose mapping was not recorded). */
  findCallLog(key: string): Promise<string | null>;
  createCallLog(log: CallLog): Promise<string>;
  updateCallLog(crmId: string, log: CallLog): Promise<void>;
  /**
   * Several call-log updates in as few requests as the vendor allows (HubSpot batch/update, Salesforce
   * sObject collections). Optional: without it, callers update one by one.
   */
  updateCallLogs?(updates: readonly CallLogUpdate[]): Promise<void>;
  /** The logged message carrying `key`, if one exists (recovers a create whose mapping was lost). */
  findMessageLog?(key: string, log: MessageLog): Promise<string | null>;
  /** Logs an SMS or voice message on its contact; absent where the destination keeps no messages. */
  createMessageLog?(log: MessageLog): Promise<string>;
  updateMessageLog?(crmId: string, log: MessageLog): Promise<void>;
  /** The task carrying `key`, if one exists (`task` tells destinations that file tasks per user where to look). */
  findTask(key: string, task?: CallbackTask): Promise<string | null>;
  createTask(task: CallbackTask): Promise<string>;
  updateTask(crmId: string, task: CallbackTask): Promise<void>;
  /** Batch endpoints, when the vendor has them: callsync then writes many calls per request. */
  readonly batch?: CrmBatchOps;
  /** The outcomes agents set on call logs (written back to CDRs); absent where the CRM has none. */
  outcomes?(): CrmOutcomeSource;
  /** Deletes a call log callsync created (erasure); one already gone counts as deleted. */
  deleteCallLog?(crmId: string): Promise<void>;
  /** Deletes a callback task callsync created (erasure); one already gone counts as deleted. */
  deleteTask?(crmId: string): Promise<void>;
  /** Deletes an SMS or voice message log callsync created (erasure); one already gone counts as deleted. */
  deleteMessageLog?(crmId: string, channel: MessageLog['channel']): Promise<void>;
  /** Deletes a contact callsync created for an unknown caller (erasure); one already gone counts as deleted. */
  deleteContact?(crmId: string): Promise<void>;
  /**
   * The two-way contact sync's view of the CRM's people (sync/contacts), through this connector's
   * rate gates and tokens; absent where the destination keeps no contact book to sync with.
   */
  contactBook?(options: ContactBookOptions): CrmContactBook;
}

/** The destination's identity (type plus portal, org or instance), for keys of caches and windows. */
export function destinationIdOf(crm: Pick<CrmConnector, 'name' | 'destinationId'>): string {
  return crm.destinationId ?? crm.name;
}
