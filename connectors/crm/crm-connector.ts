// The one small interface every CRM destination implements (HubSpot, Salesforce, and the built-in
// warehouse destination used when no CRM is configured).

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
  status: 'open' | 'closed';
  /** ISO 8601 due time. */
  dueAt: string;
  callerNumber: string;
  assigneeEmail: string | null;
  /** The platform user the task is for, when known (destinations that map users by id). */
  assigneeUserId?: number | null;
  contact: CrmContact | null;
}

/** One pending call-log update, for connectors that have a batch endpoint. */
export interface CallLogUpdate {
  crmId: string;
  log: CallLog;
}

/** What a CRM destination can do for callsync. Every method is safe to call again after a failure. */
export interface CrmConnector {
  readonly name: string;
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
  /** Creates a contact for an unknown caller. */
  createContact(input: { phone: string; name: string | null }): Promise<CrmContact>;
  /** The call log carrying `key`, if one exists (recovers a create whose mapping was not recorded). */
  findCallLog(key: string): Promise<string | null>;
  createCallLog(log: CallLog): Promise<string>;
  updateCallLog(crmId: string, log: CallLog): Promise<void>;
  /**
   * Several call-log updates in as few requests as the vendor allows (HubSpot batch/update, Salesforce
   * sObject collections). Optional: without it, callers update one by one.
   */
  updateCallLogs?(updates: readonly CallLogUpdate[]): Promise<void>;
  /** The task carrying `key`, if one exists (`task` tells destinations that file tasks per user where to look). */
  findTask(key: string, task?: CallbackTask): Promise<string | null>;
  createTask(task: CallbackTask): Promise<string>;
  updateTask(crmId: string, task: CallbackTask): Promise<void>;
}
