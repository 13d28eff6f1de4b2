// What the two-way contact sync needs from a CRM: its contacts read in full and by modification time,
// found by numbers and e-mails, and written in the vendor's batches. HubSpot and Salesforce implement
// it; the sync itself (sync/contacts) is the same for both.
import type { ContactField } from '../../config/contact-sync';
import type { ContactState, SideRecord } from './contact-model';

/** A record to create, carrying the key of the platform contact it is for. */
export interface ContactCreate {
  /** `<account>:<platform contact id>`, stored on the CRM record so a lost create is found again. */
  linkKey: string;
  state: ContactState;
}

/** Fields to set on an existing record. */
export interface ContactUpdate {
  id: string;
  kind: 'contact' | 'lead';
  state: ContactState;
  fields: readonly ContactField[];
}

/** What a create answered: ids by link key, and why the CRM refused the others (by link key). */
export interface CreateOutcome {
  ids: Map<string, string>;
  rejected: Map<string, string>;
  /**
   * Creates the CRM refused because its duplicate rule matched existing records (Salesforce's
   * DUPLICATES_DETECTED), by link key, with the records the rule named read back (Contacts first):
   * the sync links the platform contact to one of them as if its search had found it.
   */
  duplicates?: Map<string, SideRecord[]>;
}

/** What an update answered: the ids that no longer exist, and why the CRM refused others (by id). */
export interface UpdateOutcome {
  missing: string[];
  rejected: Map<string, string>;
  /**
   * Of the rejected, those the CRM's duplicate rule refused (Salesforce's DUPLICATES_DETECTED: the
   * record would match another), with the ids of the records it named: the same edit is refused
   * again until one of the records changes.
   */
  duplicates?: Map<string, string[]>;
}

export interface CrmContactBook {
  readonly destination: string;
  /** The synced fields this CRM keeps (HubSpot has no free-text notes on a contact). */
  readonly fields: readonly ContactField[];
  /** Most records one create or update request takes (HubSpot 100, Salesforce 200). */
  readonly batchSize: number;
  /** The kind of record a platform contact becomes (Salesforce: Contact or Lead, by config). */
  readonly createKind: 'contact' | 'lead';
  /** The synced fields a record of this kind can be written (a Salesforce Contact's company is its Account's). */
  writable(kind: 'contact' | 'lead'): readonly ContactField[];
  /** Makes sure the CRM has the properties the sync writes; idempotent. */
  prepare(): Promise<void>;
  /** Every record, page by page. */
  listAll(): AsyncIterable<SideRecord[]>;
  /** Records modified at or after `since` (ISO 8601), page by page, oldest first. */
  changedSince(since: string): AsyncIterable<SideRecord[]>;
  /** Records holding any of these E.164 numbers or e-mails (however the numbers were typed). */
  findByNumbersOrEmails(numbers: readonly string[], emails: readonly string[]): Promise<SideRecord[]>;
  /** Records deleted at or after `since` (ISO 8601), page by page, when the CRM can tell. */
  deletedSince?(since: string): AsyncIterable<string[]>;
  /** Leads converted at or after `since` (ISO 8601), with the Contact each became (Salesforce). */
  convertedSince?(since: string): AsyncIterable<Array<{ leadId: string; contactId: string }>>;
  /** Creates up to `batchSize` records; one the CRM refuses does not fail the others. */
  create(inputs: readonly ContactCreate[]): Promise<CreateOutcome>;
  /** Updates up to `batchSize` records; one the CRM refuses does not fail the others. */
  update(inputs: readonly ContactUpdate[]): Promise<UpdateOutcome>;
  /** Marks records whose platform contact was deleted (deletes: mark). */
  markDeleted(records: readonly { id: string; kind: 'contact' | 'lead' }[]): Promise<void>;
  /** Deletes records (deletes: propagate). */
  remove(records: readonly { id: string; kind: 'contact' | 'lead' }[]): Promise<void>;
}
