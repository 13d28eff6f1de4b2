// The Salesforce test server's records, the fields' definitions, and the state the server shares with
// its resource files. It imports no other file of the test server: every file shares its types from
// here, and salesforce-server.ts builds the state and wires the files together.

export type SObjectType =
  | 'Task'
  | 'Contact'
  | 'Lead'
  | 'User'
  | 'Account'
  | 'PermissionSet'
  | 'FieldPermissions'
  | 'PermissionSetAssignment'
  | 'TaskStatus';

/**
 * One value of a picklist as the describe serves it (fields[].picklistValues: value, label, active,
 * defaultValue; https://developer.salesforce.com/docs/platform/apex-ref/references/apex-ref/apex-class-schema-picklistentry.html).
 * `closed` is for Task.Status only: the TaskStatus record's IsClosed.
 */
export interface PicklistEntry {
  value: string;
  label?: string;
  active?: boolean;
  defaultValue?: boolean;
  closed?: boolean;
}

export interface FakeRecord {
  Id: string;
  type: SObjectType;
  fields: Record<string, unknown>;
  CreatedDate: string;
  LastModifiedDate: string;
  /** Moves on every change, a user's or the system's. */
  SystemModstamp: string;
  /** In the recycle bin: gone from query and search, still read by queryAll. */
  IsDeleted: boolean;
}

export type Kind = 'string' | 'textarea' | 'int' | 'date' | 'datetime' | 'boolean' | 'reference' | 'picklist';
export interface FieldDef {
  kind: Kind;
  max?: number;
  values?: string[];
  /** Settable on create only (Salesforce refuses it in an update). */
  createOnly?: boolean;
  /** Read-only: never settable. */
  readOnly?: boolean;
  refersTo?: SObjectType[];
  /** A Task picklist whose values the org sets (Status, Priority). */
  orgPicklist?: 'Status' | 'Priority';
}

/** The field-level security and setup checks of salesforce-setup.ts (FieldSetup), as the files use them. */
export interface SetupView {
  visible(type: string, field: string): boolean;
  checkSetupWrite(type: string): void;
  checkDuplicate(type: string, fields: Record<string, unknown>): void;
  createCustomField(body: unknown): string;
}

/** What the server shares with its resource files (salesforce-records.ts, salesforce-query.ts, …). */
export interface SalesforceState {
  store: Map<string, FakeRecord>;
  /** Task fields the user's Field-Level Security hides (FakeSalesforceOptions.hiddenTaskFields). */
  hidden: Set<string>;
  setup: SetupView;
  /** The org's Task Status and Priority values (setTaskPicklist changes them). */
  picklists: Record<'Status' | 'Priority', PicklistEntry[]>;
  /** The REST API's path, `/services/data/v62.0`. */
  base: string;
  /** Records per query page before nextRecordsUrl. */
  pageSize: number;
  /** The org's standard duplicate rules are active. */
  duplicateRules: boolean;
  /** When each record was created through the API: it enters the search index indexDelay later. */
  createdAt: Map<string, number>;
  /** Milliseconds a record created through the API stays unfindable by SOSL (setSearchIndexDelay). */
  indexDelay: number;
  /** A record's `attributes` as the API answers them (type and url). */
  attributes: (r: FakeRecord) => { type: SObjectType; url: string };
}

/** The standard duplicate rules (salesforce-duplicates.ts). */
export interface DuplicateRules {
  checkDuplicates: (
    type: SObjectType,
    fields: Record<string, unknown>,
    allowSave: boolean,
    existing?: readonly FakeRecord[],
  ) => void;
  checkDuplicatesOnEdit: (record: FakeRecord, fields: Record<string, unknown>, allowSave: boolean) => void;
}

/** Validating, writing and reading records (salesforce-records.ts), as the endpoints do. */
export interface Records {
  typeOf: (name: string) => SObjectType;
  validate: (type: SObjectType, input: unknown, mode: 'create' | 'update') => Record<string, unknown>;
  insert: (type: SObjectType, fields: Record<string, unknown>, lastModified?: string) => FakeRecord;
  live: (type: SObjectType, id: string) => FakeRecord;
  touch: (record: FakeRecord) => void;
  update: (type: SObjectType, id: string, input: unknown, allowSave?: boolean) => void;
  destroy: (id: string) => void;
  setupCheck: (check: () => void) => void;
  syncTaskStatuses: () => void;
  convertLead: (leadId: string, into?: string) => string;
}

/** SOQL's WHERE clauses, projections and queries (salesforce-query.ts); SOSL uses the first two. */
export interface Soql {
  whereFilter: (clause: string | undefined) => (r: FakeRecord) => boolean;
  project: (r: FakeRecord, fields: string[]) => Record<string, unknown>;
  query: (soql: string, all: boolean) => unknown;
  queryMore: (locator: string) => unknown;
}
