// What the CRM conformance suite (test/conformance/crm-conformance.ts) needs from one destination:
// its connector, built the way the product builds it (runtime/crm.ts from a config), pointed at the
// destination's test server; a migrated warehouse for the mapping tables; and a view of what the
// vendor now holds, read from the test server's own state (never through the connector under test).
import type { Kysely } from 'kysely';
import type { ContactState } from '../../connectors/crm/contact-model';
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import type { Database } from '../../connectors/postgres';

/** A person the test puts into the CRM before a scenario, as an agent would have. */
export interface SeedContact {
  name: string;
  /** E.164 or as a person would type it ("+44 20 7946 0000", "020 7946 0000"): the vendor's own field. */
  phones: string[];
  /** The CRM user who owns the record (by e-mail; the harness maps it to the vendor's user id). */
  ownerEmail?: string | null;
  /** When the vendor last modified the record (ISO 8601), for the "most recently updated" rule. */
  updatedAt?: string;
}

/** One object the vendor holds that callsync wrote (a call log, task, message or contact). */
export interface HeldRecord {
  crmId: string;
  /** callsync's idempotency key as the vendor stores it (field, property or external id); null if none. */
  key: string | null;
  /** The object's one-line title or subject as the vendor shows it. */
  title: string;
  /** The vendor's own status value (task: its open or done state; call: its result), as stored. */
  status: string | null;
  /** The contact (or lead, or person) it is attached to, by its CRM id; null when unattached. */
  contactId: string | null;
  /** Its free text (description, note body, comment). */
  body: string;
}

/** Which of the suite's scenario groups apply to a destination (what it does not have, it does not claim). */
export interface DestinationFeatures {
  /** Unknown callers are created as contacts (createContact), and found again by number. */
  createContacts: boolean;
  /** CRM users have their own ids, looked up by e-mail (ownerId), for the owner matching rule. */
  owners: boolean;
  /** SMS and voicemail are logged on the contact (createMessageLog). */
  messages: boolean;
  /** Agents' outcomes on call logs are read back (outcomes()). */
  outcomes: boolean;
  /** What callsync created can be deleted (deleteCallLog, deleteTask, deleteMessageLog, deleteContact). */
  erasure: boolean;
  /** The test server enforces the vendor's request rate and answers 429 beyond it. */
  rateLimits: boolean;
  /** The test server's access tokens expire and the connector renews them. */
  tokenExpiry: boolean;
  /** Two-way contact sync (sync/contacts) through the connector's contactBook, with the harness's contact view. */
  contactSync: boolean;
}

/**
 * A CRM person as the vendor holds it, in the contact sync's field names, read from the test
 * server's state: names as stored (a vendor with one name field splits it at its first space), the
 * numbers as stored (not normalised), null when the vendor holds nothing there.
 */
export type HeldContact = Partial<ContactState>;

export interface DestinationHarness {
  /** Display name for the describe block ("HubSpot"). */
  readonly name: string;
  readonly features: DestinationFeatures;
  /** The connector under test, as runtime/crm.ts builds it for the harness's config. */
  readonly connector: CrmConnector;
  /** A migrated warehouse database (mapping tables, built-in rows), this harness's own. */
  readonly db: Kysely<Database>;
  /** The account callsync writes for (keys are `<account>:…`). */
  readonly account: string;
  /** Puts a person into the CRM as an agent would; returns its CRM id as the connector reports it. */
  seedContact(contact: SeedContact): Promise<string>;
  /** The call logs the vendor holds. */
  callLogs(): Promise<HeldRecord[]>;
  /** The callback tasks (or their equivalent: activities, follow-up tickets) the vendor holds. */
  tasks(): Promise<HeldRecord[]>;
  /** The SMS and voicemail logs the vendor holds (empty where `features.messages` is false). */
  messages(): Promise<HeldRecord[]>;
  /** The contacts whose phone fields hold `e164` in the vendor's own data. */
  contactsWithPhone(e164: string): Promise<HeldRecord[]>;
  /**
   * The next create of this kind is carried out by the test server and its answer lost (the socket
   * is destroyed before the response): the connector sees a network error, the object exists.
   */
  loseNextAnswer(kind: 'callLog' | 'task' | 'message' | 'contact'): void;
  /** An agent sets an outcome on a call log in the vendor's UI (only with `features.outcomes`). */
  setOutcome?(crmId: string, label: string): Promise<void>;
  /** Every access token the test server issued stops working now (only with `features.tokenExpiry`). */
  expireTokens?(): void;
  /** The 429 answers the test server sent so far (only with `features.rateLimits`). */
  tooManyRequests?(): number;
  /**
   * An agent edits a person in the vendor's UI (only with `features.contactSync`): the fields given
   * change and the vendor's modification time moves, as its own UI would.
   */
  editContact?(crmId: string, changes: HeldContact): Promise<void>;
  /** The person `crmId` as the vendor holds it now; null when there is none (only with `features.contactSync`). */
  heldContact?(crmId: string): Promise<HeldContact | null>;
  /**
   * How many person records the test server has written for clients so far (each record of a batch
   * counts; creates and updates), the independent count the "no echo" scenario checks.
   */
  contactWrites?(): number;
  /** Makes the test server's request limit small enough that the suite's burst would cross it. */
  tightenRateLimit?(): void;
  /**
   * With `features.rateLimits`: 'avoided' (the default) when the connector's rate gate keeps under the
   * vendor's documented limit, so the vendor answers no 429; 'retried' when the vendor's documentation
   * makes 429s part of normal work (a limit not known in advance) and the connector waits them out:
   * the suite then asserts that every write landed exactly once instead.
   */
  readonly tooManyRequestsPolicy?: 'avoided' | 'retried';
  dispose(): Promise<void>;
}

/** Builds a fresh harness (a new test server and database); the suite calls it once per file. */
export type HarnessFactory = () => Promise<DestinationHarness>;
