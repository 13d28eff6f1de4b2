// The emulator store's public contract (see BRIEF "Emulator store interface"); the HTTP server codes against it.

export type Id = number | string; // Ddi ids are strings (e164)
export type Row = Record<string, unknown> & { id: Id };
export type FilterOp = 'eq' | '=' | 'like' | 'gt' | 'gte' | 'lt' | 'lte';
export interface FilterCondition {
  property: string;
  operator: FilterOp;
  value: string | number | boolean | null;
}
export interface CollectionQuery {
  page: number;
  limit: number;
  filter: FilterCondition[];
  groupBy?: string;
  /** Order of the rows (default: id ascending); ties keep id order. */
  sort?: { property: string; desc: boolean };
}
export interface CollectionResult {
  data: Row[];
  total: number;
}

/** Every table the emulator keeps, one per resource kind. */
export const TABLE_NAMES = [
  'aclroles',
  'users',
  'usergroups',
  'usergrouppolicies',
  'queuegroups',
  'calls',
  'webcalls',
  'mediasessions',
  'calllabels',
  'sms',
  'cannedresponses',
  'faxes',
  'vmannouncements',
  'contacts',
  'chats',
  'chatmsgs',
  'cdrs',
  'cdrnotes',
  'monitors',
  'monitoraidictionary',
  'msdrs',
  'voicemessages',
  'statements',
  'callmeback_settings',
  'callmeback_websites',
  'callmeback_buttons',
  'callmeback_cdrs',
  'callmeback_visitors',
  'callflows',
  'ddis',
  'calltracking_ddis',
  'calltracking_campaigns',
  'calltracking_cdrs',
  'conferences',
  'queues',
  'ringgroups',
  'pickupgroups',
  'routingrules',
  'ivrs',
  'reportschedules',
] as const;
export type TableName = (typeof TABLE_NAMES)[number];

/** How one insert may bend a table's ordering rule (see MemoryTable). */
export interface InsertOptions {
  /** A row may carry an earlier sorted date than the last row (cdrs: a CDR written late, at its true start). */
  keyMayGoBack?: boolean;
}

/** One collection of one resource kind; rows are owned by a customer (403 for other customers). */
export interface Table {
  readonly name: string;
  get(id: Id): { row: Row; customerId: number } | undefined;
  /** Rows of one customer matching the filter, ordered by id ascending (stable), paged (page is 1-based).
   *  `like` uses SQL semantics: % any run, _ one char, case-insensitive. Date strings compare as strings
   *  (the YYYY-MM-DD HH:MM:SS format sorts correctly); numeric fields compare numerically when the value is
   *  numeric. group_by: one row per distinct value of the property (the first row by id), total = groups. */
  query(customerId: number, q: CollectionQuery): CollectionResult;
  /** Assigns the next id when absent. */
  insert(customerId: number, row: Omit<Row, 'id'> & { id?: Id }, opts?: InsertOptions): Row;
  /** Like insert, for a row written now but dated before rows written earlier (a long call's CDR). */
  insertLate(customerId: number, row: Omit<Row, 'id'> & { id?: Id }): Row;
  /** Shallow merge, returns the new row. */
  update(id: Id, patch: Record<string, unknown>): Row | undefined;
  remove(id: Id): boolean;
  removeAll(customerId: number): number;
  count(customerId: number): number;
  /** Whether the rows have this property; undefined while the table has never held a row. */
  hasProperty(name: string): boolean | undefined;
}

export interface EmulatorClock {
  now(): Date;
  advance(ms: number): void;
  set(d: Date): void;
  nowString(): string;
}

/** A login known to the emulator (POST /login, API key auth). */
export interface Account {
  email: string;
  password: string;
  user_id: number;
  customer_id: number;
  two_factor: 'D' | 'E';
  api_key: string;
}

export interface ChangeEvent {
  table: TableName;
  op: 'insert' | 'update' | 'remove';
  row: Row;
}
export type ChangeListener = (e: ChangeEvent) => void;

export interface EmulatorStore {
  readonly clock: EmulatorClock;
  readonly tables: Record<TableName, Table>;
  readonly customers: { id: number; name: string }[];
  readonly admin: { email: string; password: string; user_id: number; api_key: string; customer_id: number };
  /** Accounts known to the emulator for /login: email -> {password, user_id, customer_id, two_factor, api_key} */
  readonly accounts: Map<string, Account>;
  /** New CDR(s) "now" (for incremental sync tests): realistic, consistent, linked recordings etc. Returns rows. */
  addCdrs(customerId: number, count: number): Row[];
  /** Subscribe to changes (the later webhook issue emits call events from here). */
  onChange(listener: ChangeListener): () => void;
}

export interface CreateStoreOptions {
  seed: number;
  cdrs: number;
  /** End of the seeded history and the clock's start (default: DEFAULT_NOW, or the wall clock when realTime). */
  now?: Date;
  /** The clock follows the wall clock after seeding (otherwise it moves only when told to). */
  realTime?: boolean;
}
