// A local Salesforce for tests: the REST API calls callsync's Salesforce connector makes through
// jsforce (sObject create, update and delete for Task, Contact and Lead, sObject Collections create,
// update and delete, SOQL query with queryMore paging, queryAll with IsDeleted, relationship fields
// such as Account.Name, and SOSL phone search), checking field names, types, picklists, create-only
// and required fields and references as Salesforce does, and answering errors in its format
// (`[{ message, errorCode, fields }]`; per record in a collection, `{ success: false, errors }`).
// Every write moves the record's SystemModstamp; a delete keeps the record in the recycle bin
// (IsDeleted = true), seen by queryAll only.
//
// As strict as Salesforce documents (each rule cites its page where it is enforced): Task Status and
// Priority are restricted picklists whose values the org sets (renamed values, the describe's
// picklistValues, TaskStatus records with IsClosed/IsDefault); the standard duplicate rules refuse a
// Contact or Lead create matching an existing record, and an edit of Phone or Email matching
// another (DUPLICATES_DETECTED, unless Sforce-Duplicate-Rule-Header allowSave=true); a converted
// Lead cannot be referenced (CANNOT_UPDATE_CONVERTED_LEAD); and SOSL can lag behind creates
// (searchIndexDelayMs). SOSL matches on the search index's tokens, as documented
// (salesforce-search.ts), at most 2,000 records.
//
// It enforces the org's limits as Salesforce documents them: sObject Collections take at most 200
// records, and every API call is counted against the org's 24-hour allowance (REQUEST_LIMIT_EXCEEDED
// beyond it; /limits and the Sforce-Limit-Info header report it). `counters` is readable by tests.
//
// Sessions: the fixed `token` always works (most tests need no login); the OAuth token endpoint
// (salesforce-oauth.ts: JWT bearer and refresh token flows, rotation) issues sessions that expire.
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { findPredicate, searchTokens, SOSL_MAX_ROWS } from './salesforce-search';
import { FieldSetup, SetupError, type FieldSetupOptions } from './salesforce-setup';
import { FakeSalesforceOAuth, type SalesforceOAuthSettings } from './salesforce-oauth';
import { DailyAllowance, countLimited, newCounters, type LimitCounters } from './vendor-limits';

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

/** Task.Status as a new org has it: Not Started the default, Completed the one closed value. */
export const STANDARD_TASK_STATUSES: PicklistEntry[] = [
  { value: 'Not Started', defaultValue: true },
  { value: 'In Progress' },
  { value: 'Completed', closed: true },
  { value: 'Waiting on someone else' },
  { value: 'Deferred' },
];
/** Task.Priority as a new org has it: Normal the default. */
export const STANDARD_TASK_PRIORITIES: PicklistEntry[] = [
  { value: 'High' },
  { value: 'Normal', defaultValue: true },
  { value: 'Low' },
];

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

export interface RecordedRequest {
  method: string;
  path: string;
  query: string | null;
  body: unknown;
  status: number;
}

export interface FakeSalesforce {
  /** Instance URL for jsforce. */
  url: string;
  token: string;
  version: string;
  requests: RecordedRequest[];
  /** Requests answered, and those refused with REQUEST_LIMIT_EXCEEDED (the token endpoint's aside). */
  counters: LimitCounters;
  /** The token endpoint (also the login URL): its connected app, sessions, refresh tokens, grants. */
  oauth: FakeSalesforceOAuth;
  /** The org's 24-hour API allowance (DailyApiRequests): `used` and `max` can be read and set. */
  daily: DailyAllowance;
  records(type: SObjectType): FakeRecord[];
  seed(type: Exclude<SObjectType, 'Task'>, fields: Record<string, unknown>, lastModified?: string): string;
  /** The integration user the token stands for (userinfo's user_id). */
  apiUserId: string;
  /** `Object.Field` of the custom fields that exist in the org. */
  customFields(): string[];
  /** A user's edit in Salesforce (fields as given, unvalidated): the stamps move. */
  edit(id: string, fields: Record<string, unknown>): void;
  /** A user's delete: the record goes to the recycle bin. */
  remove(id: string): void;
  /**
   * A salesperson converts a Lead (convertLead): a new Contact with its name, e-mail, numbers and
   * description under a new Account named after its company, or `into` an existing Contact; the
   * Lead is frozen (IsConverted, ConvertedContactId). Returns the Contact's id.
   */
  convertLead(leadId: string, into?: string): string;
  /**
   * The `n`th sObject Collections create from now (1 = the next) saves its records, but the client
   * hears 503 SERVER_UNAVAILABLE, as if the connection broke before the answer came.
   */
  loseCollectionCreateAnswer(n: number): void;
  /** The next `count` requests are refused with REQUEST_LIMIT_EXCEEDED (the org's 24-hour API limit). */
  limitExceededNext(count: number): void;
  /**
   * An admin edits the Task Status or Priority picklist (renames, adds, deactivates values): writes
   * are checked against it, the describe and the TaskStatus records serve it.
   */
  setTaskPicklist(field: 'Status' | 'Priority', entries: PicklistEntry[]): void;
  /** How long a record created through the API stays out of SOSL results (the search index's lag). */
  setSearchIndexDelay(ms: number): void;
  close(): Promise<void>;
}

type Kind = 'string' | 'textarea' | 'int' | 'date' | 'datetime' | 'boolean' | 'reference' | 'picklist';
interface FieldDef {
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

const TASK: Record<string, FieldDef> = {
  Subject: { kind: 'string', max: 255 },
  Description: { kind: 'textarea', max: 32_000 },
  // Restricted picklists whose values are the org's own (setTaskPicklist): an org may rename them.
  Status: { kind: 'picklist', orgPicklist: 'Status' },
  Priority: { kind: 'picklist', orgPicklist: 'Priority' },
  ActivityDate: { kind: 'date' },
  TaskSubtype: {
    kind: 'picklist',
    values: ['Task', 'Email', 'ListEmail', 'Cadence', 'Call', 'LinkedIn'],
    createOnly: true,
  },
  CallType: { kind: 'picklist', values: ['Internal', 'Inbound', 'Outbound'] },
  CallDurationInSeconds: { kind: 'int' },
  CallDisposition: { kind: 'string', max: 255 },
  CallObject: { kind: 'string', max: 255 },
  WhoId: { kind: 'reference', refersTo: ['Contact', 'Lead'] },
  OwnerId: { kind: 'reference', refersTo: ['User'] },
};
const NAME_AND_OWNER: Record<string, FieldDef> = {
  FirstName: { kind: 'string', max: 40 },
  LastName: { kind: 'string', max: 80 },
  Email: { kind: 'string', max: 80 },
  OwnerId: { kind: 'reference', refersTo: ['User'] },
};
/** The custom fields an org adds for callsync's contact sync (docs/contact-sync.md "Contact sync"). */
const CALLSYNC_FIELDS: Record<string, FieldDef> = {
  Callsync_Contact__c: { kind: 'string', max: 255 },
  Callsync_Deleted__c: { kind: 'datetime' },
};
const CONTACT: Record<string, FieldDef> = {
  ...NAME_AND_OWNER,
  Phone: { kind: 'string', max: 40 },
  MobilePhone: { kind: 'string', max: 40 },
  HomePhone: { kind: 'string', max: 40 },
  OtherPhone: { kind: 'string', max: 40 },
  AssistantPhone: { kind: 'string', max: 40 },
  Description: { kind: 'textarea', max: 32_000 },
  AccountId: { kind: 'reference', refersTo: ['Account'] },
  ...CALLSYNC_FIELDS,
};
const LEAD: Record<string, FieldDef> = {
  ...NAME_AND_OWNER,
  Phone: { kind: 'string', max: 40 },
  MobilePhone: { kind: 'string', max: 40 },
  Company: { kind: 'string', max: 255 },
  Description: { kind: 'textarea', max: 32_000 },
  // Set by lead conversion (convertLead), never by a create or an update.
  IsConverted: { kind: 'boolean', readOnly: true },
  ConvertedContactId: { kind: 'reference', refersTo: ['Contact'], readOnly: true },
  ...CALLSYNC_FIELDS,
};
const USER: Record<string, FieldDef> = { ...NAME_AND_OWNER, IsActive: { kind: 'boolean' } };
const ACCOUNT: Record<string, FieldDef> = { Name: { kind: 'string', max: 255 } };
/** Setup objects callsync writes to grant its own fields (salesforce-setup.ts). */
const PERMISSION_SET: Record<string, FieldDef> = {
  Name: { kind: 'string', max: 80 },
  Label: { kind: 'string', max: 80 },
  Description: { kind: 'textarea', max: 255 },
};
const FIELD_PERMISSIONS: Record<string, FieldDef> = {
  ParentId: { kind: 'reference', refersTo: ['PermissionSet'], createOnly: true },
  SobjectType: { kind: 'string', max: 80, createOnly: true },
  Field: { kind: 'string', max: 255, createOnly: true },
  PermissionsRead: { kind: 'boolean' },
  PermissionsEdit: { kind: 'boolean' },
};
const PERMISSION_SET_ASSIGNMENT: Record<string, FieldDef> = {
  AssigneeId: { kind: 'reference', refersTo: ['User'], createOnly: true },
  PermissionSetId: { kind: 'reference', refersTo: ['PermissionSet'], createOnly: true },
};
/**
 * The values of Task.Status with their meaning (supported calls describeSObjects(), query(),
 * retrieve(): read only;
 * https://developer.salesforce.com/docs/atlas.en-us.256.0.object_reference.meta/object_reference/sforce_api_objects_taskstatus.htm).
 */
const TASK_STATUS: Record<string, FieldDef> = {
  MasterLabel: { kind: 'string', max: 255, readOnly: true },
  ApiName: { kind: 'string', max: 255, readOnly: true },
  IsClosed: { kind: 'boolean', readOnly: true },
  IsDefault: { kind: 'boolean', readOnly: true },
  SortOrder: { kind: 'int', readOnly: true },
};
const SCHEMA: Record<SObjectType, Record<string, FieldDef>> = {
  Task: TASK,
  Contact: CONTACT,
  Lead: LEAD,
  User: USER,
  Account: ACCOUNT,
  PermissionSet: PERMISSION_SET,
  FieldPermissions: FIELD_PERMISSIONS,
  PermissionSetAssignment: PERMISSION_SET_ASSIGNMENT,
  TaskStatus: TASK_STATUS,
};
/** The phone fields SOSL's IN PHONE FIELDS searches, per object. */
const PHONE_FIELDS: Partial<Record<SObjectType, string[]>> = {
  Contact: ['Phone', 'MobilePhone', 'HomePhone', 'OtherPhone', 'AssistantPhone'],
  Lead: ['Phone', 'MobilePhone'],
};
const REQUIRED: Record<SObjectType, string[]> = {
  Task: [],
  Contact: ['LastName'],
  Lead: ['LastName', 'Company'],
  User: [],
  Account: ['Name'],
  PermissionSet: ['Name', 'Label'],
  FieldPermissions: ['ParentId', 'SobjectType', 'Field'],
  PermissionSetAssignment: ['AssigneeId', 'PermissionSetId'],
  TaskStatus: [],
};
const DEFAULTS: Record<SObjectType, Record<string, unknown>> = {
  // Status and Priority default to the org's default values (insert).
  Task: { TaskSubtype: 'Task' },
  Contact: {},
  Lead: { IsConverted: false },
  User: { IsActive: true },
  Account: {},
  PermissionSet: {},
  FieldPermissions: { PermissionsRead: false, PermissionsEdit: false },
  PermissionSetAssignment: {},
  TaskStatus: {},
};
const PREFIX: Record<SObjectType, string> = {
  Task: '00T',
  Contact: '003',
  Lead: '00Q',
  User: '005',
  Account: '001',
  PermissionSet: '0PS',
  FieldPermissions: '01k',
  PermissionSetAssignment: '0Pa',
  TaskStatus: '01J',
};
/** Records one query page holds (Salesforce's default batch size); the rest come by queryMore. */
const QUERY_PAGE = 2000;

class SalesforceError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly fields: string[] = [],
    /** More of the error (a DuplicateError's duplicateResult). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
  toJSON() {
    return { message: this.message, errorCode: this.errorCode, fields: this.fields, ...this.extra };
  }
  /** The error as one of a collection's per-record errors. */
  asRecordError() {
    return { statusCode: this.errorCode, message: this.message, fields: this.fields, ...this.extra };
  }
}

/** `v <op> value` as SOQL compares: null only with = and !=, datetimes as instants. */
function compareSoql(v: unknown, op: string, value: unknown): boolean {
  if (value === null || v === null || v === undefined) {
    const isNull = v === null || v === undefined;
    if (op === '=') return value === null ? isNull : false;
    if (op === '!=') return value === null ? !isNull : !isNull;
    return false;
  }
  if (value instanceof Date) {
    const d = Date.parse((typeof v === 'string' ? v : '').replace(/\+0000$/, 'Z'));
    const t = value.getTime();
    return { '=': d === t, '!=': d !== t, '>': d > t, '>=': d >= t, '<': d < t, '<=': d <= t }[op] ?? false;
  }
  if (op === '=') return v === value;
  if (op === '!=') return v !== value;
  const [a, b] = [v as string | number, value as string | number];
  return { '>': a > b, '>=': a >= b, '<': a < b, '<=': a <= b }[op] ?? false;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const digits = (s: unknown) => (typeof s === 'string' ? s.replace(/\D/g, '') : '');

export interface FakeSalesforceOptions extends FieldSetupOptions {
  token?: string;
  /** The connected app behind the token endpoint (client id, certificate, session timeout, rotation). */
  oauth?: Partial<SalesforceOAuthSettings>;
  version?: string;
  /**
   * Task fields the user's Field-Level Security hides ('CallObject'): absent from the describe, and
   * refused in writes as Salesforce refuses a field the user cannot see.
   */
  hiddenTaskFields?: string[];
  /** API calls the org may make per 24 hours (DailyApiRequests.Max; default 100,000). */
  dailyApiRequests?: number;
  /** Records per query page before nextRecordsUrl (default 2000, Salesforce's); small to test paging. */
  queryPageSize?: number;
  /** The org's Task Status values (default STANDARD_TASK_STATUSES); settable later by setTaskPicklist. */
  taskStatuses?: PicklistEntry[];
  /** The org's Task Priority values (default STANDARD_TASK_PRIORITIES). */
  taskPriorities?: PicklistEntry[];
  /**
   * The org's standard duplicate rules, active as in a new org (default true): a Contact or Lead
   * create matching an existing record, or an update of its Phone or Email matching another, is
   * refused with DUPLICATES_DETECTED unless the request sends `Sforce-Duplicate-Rule-Header: allowSave=true`.
   */
  duplicateRules?: boolean;
  /**
   * Milliseconds a record created through the API stays unfindable by SOSL (default 0). Salesforce
   * indexes for search asynchronously: "after a searchable object's record is created or updated, it
   * could take about 15 minutes or more for the updated text to become searchable"
   * (https://developer.salesforce.com/docs/platform/salesforce-large-data-volumes-bp/guide/ldv-deployments-concepts-search-architecture.html).
   * SOQL reads its writes at once. Seeded records count as indexed already.
   */
  searchIndexDelayMs?: number;
}

/** Most records one sObject Collections request takes. */
export const COLLECTION_MAX = 200;

export async function startFakeSalesforce(opts: FakeSalesforceOptions = {}): Promise<FakeSalesforce> {
  const hidden = new Set(opts.hiddenTaskFields ?? []);
  const token = opts.token ?? '00Dfake!session';
  const version = opts.version ?? '62.0';
  const store = new Map<string, FakeRecord>();
  const requests: RecordedRequest[] = [];
  let counter = 1;
  let limitExceeded = 0;
  let loseCreate = 0;
  const counters = newCounters();
  const daily = new DailyAllowance(opts.dailyApiRequests ?? 100_000);
  const pageSize = opts.queryPageSize ?? QUERY_PAGE;
  const duplicateRules = opts.duplicateRules ?? true;
  let indexDelay = opts.searchIndexDelayMs ?? 0;
  /** When each record was created through the API: it enters the search index indexDelay later. */
  const createdAt = new Map<string, number>();
  const created = (record: FakeRecord) => {
    createdAt.set(record.Id, Date.now());
    return record;
  };
  /** `Sforce-Duplicate-Rule-Header: allowSave=true; …` on the request. */
  const allowSave = (req: FastifyRequest) =>
    /(?:^|;)\s*allowSave\s*=\s*true\b/i.test(String(req.headers['sforce-duplicate-rule-header'] ?? ''));
  const picklists: Record<'Status' | 'Priority', PicklistEntry[]> = {
    Status: opts.taskStatuses ?? STANDARD_TASK_STATUSES,
    Priority: opts.taskPriorities ?? STANDARD_TASK_PRIORITIES,
  };
  /** The values a write may set: the active ones of the field's picklist. */
  const picklistValues = (def: FieldDef): string[] =>
    def.orgPicklist
      ? picklists[def.orgPicklist].filter((e) => e.active !== false).map((e) => e.value)
      : def.values!;
  const picklistDefault = (field: 'Status' | 'Priority') =>
    picklists[field].find((e) => e.defaultValue && e.active !== false)?.value;
  // The API user (the integration user the token belongs to), and field-level security of the
  // custom fields callsync creates for itself.
  let apiUserId = '';
  const setup = new FieldSetup(
    opts,
    () => store.values(),
    () => apiUserId,
  );
  /** Runs a setup check, answering its refusal as Salesforce's error. */
  const setupCheck = (check: () => void) => {
    try {
      check();
    } catch (err) {
      if (err instanceof SetupError) throw new SalesforceError(err.status, err.errorCode, err.message);
      throw err;
    }
  };
  /** Query cursors: the rest of a result, by locator. */
  const cursors = new Map<string, { fields: string[]; hits: FakeRecord[] }>();
  let cursorCounter = 1;

  const newId = (type: SObjectType) => `${PREFIX[type]}${String(counter++).padStart(12, '0')}AAA`;
  const typeOf = (name: string): SObjectType => {
    if (!(name in SCHEMA))
      throw new SalesforceError(404, 'NOT_FOUND', `The requested resource does not exist`);
    return name as SObjectType;
  };

  function validate(type: SObjectType, input: unknown, mode: 'create' | 'update'): Record<string, unknown> {
    if (!isRecord(input))
      throw new SalesforceError(400, 'JSON_PARSER_ERROR', 'The request body must be a JSON object');
    const schema = SCHEMA[type];
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(input)) {
      if (name === 'attributes' || name === 'Id' || name === 'id') continue;
      const def =
        (type === 'Task' && hidden.has(name)) || !setup.visible(type, name) ? undefined : schema[name];
      if (!def)
        throw new SalesforceError(
          400,
          'INVALID_FIELD',
          `No such column '${name}' on sobject of type ${type}`,
          [name],
        );
      if (def.readOnly || (def.createOnly && mode === 'update')) {
        throw new SalesforceError(
          400,
          'INVALID_FIELD_FOR_INSERT_UPDATE',
          `Unable to create/update fields: ${name}. Please check the security settings of this field and verify that it is read/write for your profile or permission set.`,
          [name],
        );
      }
      if (value === null) {
        out[name] = null;
        continue;
      }
      const wrongType = () =>
        new SalesforceError(
          400,
          'JSON_PARSER_ERROR',
          `Cannot deserialize instance of ${def.kind} from ${typeof value} value ${JSON.stringify(value)} at [field ${name}]`,
          [name],
        );
      switch (def.kind) {
        case 'string':
        case 'textarea':
          if (typeof value !== 'string') throw wrongType();
          if (def.max !== undefined && value.length > def.max) {
            throw new SalesforceError(
              400,
              'STRING_TOO_LONG',
              `${name}: data value too large (max length=${def.max})`,
              [name],
            );
          }
          break;
        case 'int':
          if (typeof value !== 'number' || !Number.isInteger(value)) throw wrongType();
          break;
        case 'boolean':
          if (typeof value !== 'boolean') throw wrongType();
          break;
        case 'date':
          if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw wrongType();
          break;
        case 'datetime':
          if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw wrongType();
          break;
        case 'picklist':
          if (typeof value !== 'string') throw wrongType();
          // A restricted picklist takes only its own active values through the API ("users can't
          // load or remove values through the API";
          // https://developer.salesforce.com/docs/atlas.en-us.260.0.api_meta.meta/api_meta/meta_picklist.htm).
          if (!picklistValues(def).includes(value)) {
            throw new SalesforceError(
              400,
              'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST',
              `${name}: bad value for restricted picklist field: ${value}`,
              [name],
            );
          }
          break;
        case 'reference': {
          if (typeof value !== 'string') throw wrongType();
          const target = store.get(value);
          if (!target || !def.refersTo!.includes(target.type)) {
            throw new SalesforceError(
              400,
              'FIELD_INTEGRITY_EXCEPTION',
              `${name}: id value of incorrect type: ${value}`,
              [name],
            );
          }
          // A converted Lead cannot be referenced (a Task's WhoId): "after a lead is converted, only
          // convertedAccountId or convertedContactId can be referenced"
          // (https://help.salesforce.com/s/articleView?id=000384333&type=1).
          if (target.type === 'Lead' && target.fields.IsConverted === true) {
            throw new SalesforceError(
              400,
              'CANNOT_UPDATE_CONVERTED_LEAD',
              'cannot reference converted lead',
              [name],
            );
          }
          break;
        }
      }
      out[name] = value;
    }
    {
      // A create must set every required field; an update must not clear one.
      const missing = REQUIRED[type].filter((f) =>
        mode === 'create' ? out[f] === undefined || out[f] === null || out[f] === '' : f in out && !out[f],
      );
      if (missing.length > 0) {
        throw new SalesforceError(
          400,
          'REQUIRED_FIELD_MISSING',
          `Required fields are missing: [${missing.join(', ')}]`,
          missing,
        );
      }
    }
    return out;
  }

  /**
   * The standard duplicate rules of a new org, active by default, action on create "Allow" with an
   * alert (https://help.salesforce.com/apex/HTViewHelpDoc?id=sales.duplicate_rules_standard_account_rule.htm
   * for the rules' shape): through the API the alert cannot be acknowledged, so the create is refused
   * with DUPLICATES_DETECTED unless the request sends `Sforce-Duplicate-Rule-Header: allowSave=true`
   * (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api/headers_duplicaterules.htm;
   * default false). The error carries a DuplicateResult (duplicateRule, matchResults[].matchRecords[]
   * .record with attributes and Id;
   * https://developer.salesforce.com/docs/platform/api/guide/sforce-api-objects-duplicateerror.html,
   * https://developer.salesforce.com/docs/platform/api/guide/sforce-api-objects-matchresult.html).
   * Modelled matching: the same Phone (its digits) or the same Email (any case). A new Contact is
   * compared with Contacts (Standard Contact Duplicate Rule); a new Lead with unconverted Leads and
   * with Contacts (Standard Lead Duplicate Rule, Standard Rule for Leads with Duplicate Contacts).
   * The code "must set allowSave" to complete such an insert
   * (https://developer.salesforce.com/docs/platform/api-metadata/references/meta-types/metadata-duplicaterule.html,
   * actionOnInsert). Records of one collections request are checked against those saved before it,
   * not against each other.
   */
  function checkDuplicates(
    type: SObjectType,
    fields: Record<string, unknown>,
    allowSave: boolean,
    existing: readonly FakeRecord[] = [...store.values()],
  ) {
    if (!duplicateRules || allowSave || (type !== 'Contact' && type !== 'Lead')) return;
    const phone = digits(fields.Phone);
    const email = typeof fields.Email === 'string' ? fields.Email.trim().toLowerCase() : '';
    if (phone === '' && email === '') return;
    const matches = (r: FakeRecord) =>
      (phone !== '' && digits(r.fields.Phone) === phone) ||
      (email !== '' && typeof r.fields.Email === 'string' && r.fields.Email.trim().toLowerCase() === email);
    const against: SObjectType[] = type === 'Contact' ? ['Contact'] : ['Lead', 'Contact'];
    const matchResults = against
      .map((entityType) => ({
        entityType,
        hits: existing.filter(
          (r) =>
            r.type === entityType &&
            !r.IsDeleted &&
            !(r.type === 'Lead' && r.fields.IsConverted === true) &&
            matches(r),
        ),
      }))
      .filter((m) => m.hits.length > 0)
      .map(({ entityType, hits }) => ({
        entityType,
        errors: [],
        matchEngine: 'FuzzyMatchEngine',
        matchRecords: hits.map((r) => ({
          additionalInformation: [],
          fieldDiffs: [],
          matchConfidence: 100.0,
          record: { attributes: attributes(r), Id: r.Id },
        })),
        rule: `Standard_${entityType}_Match_Rule_v1_1`,
        size: hits.length,
        success: true,
      }));
    if (matchResults.length === 0) return;
    const message = "You're creating a duplicate record. We recommend you use an existing record instead.";
    throw new SalesforceError(400, 'DUPLICATES_DETECTED', message, [], {
      duplicateResult: {
        allowSave: true,
        duplicateRule:
          type === 'Contact' ? 'Standard_Contact_Duplicate_Rule' : 'Standard_Lead_Duplicate_Rule',
        duplicateRuleEntityType: type,
        errorMessage: message,
        matchResults,
      },
    });
  }

  function insert(type: SObjectType, fields: Record<string, unknown>, lastModified?: string): FakeRecord {
    setupCheck(() => {
      setup.checkSetupWrite(type);
      setup.checkDuplicate(type, { ...DEFAULTS[type], ...fields });
    });
    const now = new Date().toISOString();
    const defaults: Record<string, unknown> = { ...DEFAULTS[type] };
    if (type === 'Task') {
      defaults.Status = picklistDefault('Status') ?? null;
      defaults.Priority = picklistDefault('Priority') ?? null;
    }
    const record: FakeRecord = {
      Id: newId(type),
      type,
      fields: { ...defaults, ...fields },
      CreatedDate: now,
      LastModifiedDate: lastModified ?? now,
      SystemModstamp: lastModified ?? now,
      IsDeleted: false,
    };
    store.set(record.Id, record);
    return record;
  }

  /** A live record of `type`, or Salesforce's error for a missing or deleted one. */
  function live(type: SObjectType, id: string): FakeRecord {
    const record = store.get(id);
    if (!record || record.type !== type)
      throw new SalesforceError(404, 'NOT_FOUND', 'The requested resource does not exist');
    if (record.IsDeleted) throw new SalesforceError(404, 'ENTITY_IS_DELETED', 'entity is deleted');
    return record;
  }

  function touch(record: FakeRecord) {
    record.LastModifiedDate = record.SystemModstamp = new Date().toISOString();
  }

  function update(type: SObjectType, id: string, input: unknown, allowSave = false) {
    setupCheck(() => setup.checkSetupWrite(type));
    const record = live(type, id);
    if (type === 'Lead' && record.fields.IsConverted === true)
      throw new SalesforceError(400, 'CANNOT_UPDATE_CONVERTED_LEAD', 'cannot reference converted lead');
    const fields = validate(type, input, 'update');
    checkDuplicatesOnEdit(record, fields, allowSave);
    Object.assign(record.fields, fields);
    touch(record);
  }

  /**
   * The same standard rules on edit: their action on update is also "Allow" with an alert
   * (actionOnUpdate, https://developer.salesforce.com/docs/platform/api-metadata/references/meta-types/metadata-duplicaterule.html),
   * so through the API an edit whose record then matches ANOTHER record is refused with
   * DUPLICATES_DETECTED unless the request sends allowSave=true. A rule runs on edit only when the
   * edit changes a field of its matching rule ("duplicate rules are only triggered when a change is
   * detected in the fields defined in the Matching Criteria",
   * https://help.salesforce.com/s/articleView?id=005237351&type=1): here Phone (its digits) or
   * Email (any case), so an edit of other fields of a record that already has a duplicate is saved.
   */
  function checkDuplicatesOnEdit(record: FakeRecord, fields: Record<string, unknown>, allowSave: boolean) {
    const email = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');
    const changed =
      ('Phone' in fields && digits(fields.Phone) !== digits(record.fields.Phone)) ||
      ('Email' in fields && email(fields.Email) !== email(record.fields.Email));
    if (!changed) return;
    const others = [...store.values()].filter((r) => r.Id !== record.Id);
    checkDuplicates(record.type, { ...record.fields, ...fields }, allowSave, others);
  }

  function destroy(id: string) {
    const record = store.get(id);
    if (!record) throw new SalesforceError(404, 'NOT_FOUND', 'The requested resource does not exist');
    live(record.type, id);
    record.IsDeleted = true;
    touch(record);
  }

  const base = `/services/data/v${version}`;
  const attributes = (r: FakeRecord) => ({ type: r.type, url: `${base}/sobjects/${r.type}/${r.Id}` });
  const fieldValue = (r: FakeRecord, f: string): unknown => {
    if (f === 'Id') return r.Id;
    if (f === 'CreatedDate' || f === 'LastModifiedDate' || f === 'SystemModstamp')
      return r[f].replace('Z', '+0000');
    if (f === 'IsDeleted') return r.IsDeleted;
    // A person's Name is compound (first and last); Account's and PermissionSet's are fields.
    if (f === 'Name' && (r.type === 'Contact' || r.type === 'Lead' || r.type === 'User'))
      return [r.fields.FirstName, r.fields.LastName].filter(Boolean).join(' ');
    if (!(f in SCHEMA[r.type]) || !setup.visible(r.type, f))
      throw new SalesforceError(400, 'INVALID_FIELD', `No such column '${f}' on entity '${r.type}'`);
    return r.fields[f] ?? null;
  };
  /** A relationship (`Account.Name`): the parent record's fields nested, or null without a parent. */
  const related = (r: FakeRecord, path: string): [string, unknown] => {
    const [rel, field] = path.split('.') as [string, string];
    const def = SCHEMA[r.type][`${rel}Id`];
    if (!def || def.kind !== 'reference')
      throw new SalesforceError(
        400,
        'INVALID_FIELD',
        `Didn't understand relationship '${rel}' in field path. If you are attempting to use a custom relationship, be sure to append the '__r' after the custom relationship name.`,
      );
    const parentId = r.fields[`${rel}Id`];
    const parent = typeof parentId === 'string' ? store.get(parentId) : undefined;
    return [rel, parent ? { attributes: attributes(parent), [field]: fieldValue(parent, field) } : null];
  };
  const project = (r: FakeRecord, fields: string[]) => ({
    attributes: attributes(r),
    ...Object.fromEntries(fields.map((f) => (f.includes('.') ? related(r, f) : [f, fieldValue(r, f)]))),
  });

  function parseValue(text: string): unknown {
    if (/^'(?:[^'\\]|\\.)*'$/.test(text)) return text.slice(1, -1).replace(/\\(.)/g, '$1');
    if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
    if (/^-?\d+$/.test(text)) return Number(text);
    if (/^null$/i.test(text)) return null;
    // A datetime literal (unquoted in SOQL), compared as an instant.
    if (/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})$/.test(text)) return new Date(text);
    throw new SalesforceError(400, 'MALFORMED_QUERY', `unexpected token: ${text}`);
  }

  /** Conditions `Field <op> value` (=, !=, <, <=, >, >=; null, datetimes) or `Field IN (…)` joined by AND. */
  function whereFilter(clause: string | undefined): (r: FakeRecord) => boolean {
    if (!clause) return () => true;
    const conds = clause.split(/\s+AND\s+/i).map((c) => {
      const list = /^(\w+)\s+IN\s*\((.+)\)$/i.exec(c.trim());
      if (list) {
        const values = (list[2]!.match(/'(?:[^'\\]|\\.)*'|[^,\s]+/g) ?? []).map(parseValue);
        return { field: list[1]!, test: (v: unknown) => values.includes(v) };
      }
      const m = /^(\w+)\s*(!=|>=|<=|=|>|<)\s*(.+)$/.exec(c.trim());
      if (!m) throw new SalesforceError(400, 'MALFORMED_QUERY', `unexpected token: ${c}`);
      const value = parseValue(m[3]!.trim());
      return { field: m[1]!, test: (v: unknown) => compareSoql(v, m[2]!, value) };
    });
    return (r) => conds.every((c) => c.test(fieldValue(r, c.field)));
  }

  /** One page of a result; the rest kept behind a locator for queryMore. */
  function page(fields: string[], hits: FakeRecord[], totalSize: number) {
    const records = hits.slice(0, pageSize).map((r) => project(r, fields));
    if (hits.length <= pageSize) return { totalSize, done: true, records };
    const locator = `01gD0000000${String(cursorCounter++).padStart(4, '0')}-${pageSize}`;
    cursors.set(locator, { fields, hits: hits.slice(pageSize) });
    return { totalSize, done: false, nextRecordsUrl: `${base}/query/${locator}`, records };
  }

  /** SOQL; `all` is queryAll (records in the recycle bin too). */
  function query(soql: string, all: boolean) {
    const m =
      /^SELECT\s+(.+?)\s+FROM\s+(\w+)(?:\s+WHERE\s+(.+?))?(?:\s+ORDER\s+BY\s+(.+?))?(?:\s+LIMIT\s+(\d+))?\s*$/i.exec(
        soql.trim(),
      );
    if (!m) throw new SalesforceError(400, 'MALFORMED_QUERY', `unexpected token in: ${soql}`);
    const fields = m[1]!.split(',').map((f) => f.trim());
    const type = m[2]!;
    if (!(type in SCHEMA))
      throw new SalesforceError(400, 'INVALID_TYPE', `sObject type '${type}' is not supported.`);
    const filter = whereFilter(m[3]);
    let hits = [...store.values()].filter((r) => r.type === type && (all || !r.IsDeleted) && filter(r));
    if (m[4]) {
      const keys = m[4].split(',').map((k) => {
        const o = /^(\w+)(?:\s+(ASC|DESC))?$/i.exec(k.trim());
        if (!o) throw new SalesforceError(400, 'MALFORMED_QUERY', `unexpected token: ${k}`);
        return { field: o[1]!, dir: (o[2] ?? 'ASC').toUpperCase() === 'DESC' ? -1 : 1 };
      });
      // Ties on every key fall back to creation order, as ids grow.
      hits = hits.sort((a, b) => {
        for (const { field, dir } of keys) {
          const [x, y] = [fieldValue(a, field), fieldValue(b, field)];
          const c =
            typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
          if (c !== 0) return dir * c;
        }
        return a.Id.localeCompare(b.Id);
      });
    }
    if (m[5]) hits = hits.slice(0, Number(m[5]));
    return page(fields, hits, hits.length);
  }

  function queryMore(locator: string) {
    const cursor = cursors.get(locator);
    if (!cursor) throw new SalesforceError(400, 'INVALID_QUERY_LOCATOR', 'invalid query locator');
    cursors.delete(locator);
    return page(cursor.fields, cursor.hits, cursor.hits.length);
  }

  function search(sosl: string) {
    const m = /^FIND\s+\{(.+?)\}\s+IN\s+PHONE\s+FIELDS\s+RETURNING\s+(.+)$/i.exec(sosl.trim());
    if (!m)
      throw new SalesforceError(
        400,
        'MALFORMED_SEARCH',
        `this fake supports FIND {…} IN PHONE FIELDS RETURNING … only: ${sosl}`,
      );
    const terms = m[1]!.split(/\s+OR\s+/i).map((t) => t.trim());
    if (terms.some((t) => /[?&|!{}[\]()^~:\\"'+-]/.test(t))) {
      throw new SalesforceError(
        400,
        'MALFORMED_SEARCH',
        'reserved characters in the search term must be escaped',
      );
    }
    // Matched on the search index's tokens (salesforce-search.ts), at most 2,000 records.
    const matches = findPredicate(m[1]!);
    const searchRecords: unknown[] = [];
    for (const part of m[2]!.matchAll(/(\w+)\s*\(([^)]*)\)/g)) {
      const type = part[1]!;
      if (type !== 'Contact' && type !== 'Lead')
        throw new SalesforceError(400, 'INVALID_TYPE', `sObject type '${type}' is not supported here`);
      const [fieldList, where] = part[2]!.split(/\s+WHERE\s+/i);
      const fields = fieldList!.split(',').map((f) => f.trim());
      const filter = whereFilter(where);
      for (const r of store.values()) {
        if (!matches || searchRecords.length >= SOSL_MAX_ROWS) break;
        if (r.type !== type || r.IsDeleted || !filter(r)) continue;
        if ((createdAt.get(r.Id) ?? -Infinity) + indexDelay > Date.now()) continue; // not indexed yet
        const tokens = new Set(
          (PHONE_FIELDS[type] ?? []).flatMap((f) => {
            const v = r.fields[f];
            return typeof v === 'string' ? searchTokens(v) : [];
          }),
        );
        if (matches(tokens)) searchRecords.push(project(r, fields));
      }
    }
    return { searchRecords };
  }

  const app = Fastify({ logger: false, bodyLimit: 5 * 1024 * 1024 });
  let url = '';
  const oauth = new FakeSalesforceOAuth(opts.oauth ?? {}, () => url);
  const TOKEN_PATH = '/services/oauth2/token';
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  // The token endpoint answers OAuth's JSON errors, needs no session and is not an API call.
  app.post(TOKEN_PATH, async (req, reply) => {
    const answer = oauth.token((req.body ?? {}) as Record<string, string | undefined>);
    return reply.code(answer.status).send(answer.body);
  });
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.split('?')[0] === TOKEN_PATH) return;
    if (req.headers.authorization !== `Bearer ${token}` && !oauth.liveSession(req.headers.authorization)) {
      return reply
        .code(401)
        .send([{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }]);
    }
    if (limitExceeded > 0 || !daily.take()) {
      if (limitExceeded > 0) limitExceeded--;
      countLimited(counters, 'DAILY');
      return reply
        .code(403)
        .send([{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }]);
    }
    void reply.header('sforce-limit-info', `api-usage=${daily.used}/${daily.max}`);
  });
  app.addHook('onResponse', async (req, reply) => {
    if (req.url.split('?')[0] === TOKEN_PATH) return;
    counters.requests++;
    const [path, query] = req.url.split('?');
    requests.push({
      method: req.method,
      path: path!,
      query: query ?? null,
      body: req.body ?? null,
      status: reply.statusCode,
    });
  });
  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof SalesforceError) return reply.code(err.status).send([err.toJSON()]);
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    return reply.code(status).send([
      {
        message: (err as Error).message,
        errorCode: status === 400 ? 'JSON_PARSER_ERROR' : 'UNKNOWN_EXCEPTION',
      },
    ]);
  });

  app.post(`${base}/sobjects/:type`, async (req: FastifyRequest, reply: FastifyReply) => {
    const type = typeOf((req.params as { type: string }).type);
    const fields = validate(type, req.body, 'create');
    checkDuplicates(type, fields, allowSave(req));
    const record = created(insert(type, fields));
    return reply.code(201).send({ id: record.Id, success: true, errors: [] });
  });

  app.patch(`${base}/sobjects/:type/:id`, async (req: FastifyRequest, reply: FastifyReply) => {
    const { type, id } = req.params as { type: string; id: string };
    update(typeOf(type), id, req.body, allowSave(req));
    return reply.code(204).send();
  });

  app.delete(`${base}/sobjects/:type/:id`, async (req: FastifyRequest, reply: FastifyReply) => {
    const { type, id } = req.params as { type: string; id: string };
    live(typeOf(type), id);
    destroy(id);
    return reply.code(204).send();
  });

  // sObject Collections delete: `?ids=` (at most 200), results in request order.
  app.delete(`${base}/composite/sobjects`, async (req: FastifyRequest) => {
    const ids = ((req.query as { ids?: string }).ids ?? '').split(',').filter(Boolean);
    if (ids.length > COLLECTION_MAX)
      throw new SalesforceError(
        400,
        'EXCEEDED_ID_LIMIT',
        `record limit reached. cannot submit more than ${COLLECTION_MAX} records into this call`,
      );
    return ids.map((id) => {
      try {
        destroy(id);
        return { id, success: true, errors: [] };
      } catch (err) {
        if (!(err instanceof SalesforceError)) throw err;
        return {
          id,
          success: false,
          errors: [{ statusCode: err.errorCode, message: err.message, fields: [] }],
        };
      }
    });
  });

  const collection = (body: unknown): unknown[] => {
    if (!isRecord(body) || !Array.isArray(body.records))
      throw new SalesforceError(400, 'JSON_PARSER_ERROR', 'records is required');
    if (body.records.length > COLLECTION_MAX)
      throw new SalesforceError(
        400,
        'EXCEEDED_ID_LIMIT',
        `record limit reached. cannot submit more than ${COLLECTION_MAX} records into this call`,
      );
    return body.records as unknown[];
  };

  // sObject Collections create: results in request order; allOrNone false saves what it can.
  app.post(`${base}/composite/sobjects`, async (req: FastifyRequest, reply: FastifyReply) => {
    const lost = loseCreate > 0 && --loseCreate === 0;
    const before = [...store.values()];
    const results = collection(req.body).map((rec: unknown) => {
      try {
        const r = isRecord(rec) ? rec : {};
        const attrs = isRecord(r.attributes) ? r.attributes : {};
        if (typeof attrs.type !== 'string')
          throw new SalesforceError(400, 'INVALID_TYPE', 'Must send a concrete entity type.');
        const type = typeOf(attrs.type);
        const fields = validate(type, r, 'create');
        checkDuplicates(type, fields, allowSave(req), before);
        return { id: created(insert(type, fields)).Id, success: true, errors: [] };
      } catch (err) {
        if (!(err instanceof SalesforceError)) throw err;
        return { success: false, errors: [err.asRecordError()] };
      }
    });
    if (lost) {
      return reply
        .code(503)
        .send([{ message: 'Server temporarily unavailable', errorCode: 'SERVER_UNAVAILABLE' }]);
    }
    return results;
  });

  app.get(`${base}/limits`, async () => ({
    DailyApiRequests: { Max: daily.max, Remaining: daily.remaining },
  }));

  app.patch(`${base}/composite/sobjects`, async (req: FastifyRequest) => {
    return collection(req.body).map((rec: unknown) => {
      const r = isRecord(rec) ? rec : {};
      const id = typeof r.id === 'string' ? r.id : '';
      try {
        const attrs = isRecord(r.attributes) ? r.attributes : {};
        if (typeof attrs.type !== 'string')
          throw new SalesforceError(400, 'INVALID_TYPE', 'Must send a concrete entity type.');
        update(typeOf(attrs.type), id, r, allowSave(req));
        return { id, success: true, errors: [] };
      } catch (err) {
        if (!(err instanceof SalesforceError)) throw err;
        return { success: false, errors: [err.asRecordError()] };
      }
    });
  });

  // The describe of an sObject: its fields as this user sees them (hidden ones left out).
  app.get(`${base}/sobjects/:type/describe`, async (req: FastifyRequest) => {
    const type = typeOf((req.params as { type: string }).type);
    const fields = Object.entries(SCHEMA[type])
      .filter(([name]) => !(type === 'Task' && hidden.has(name)) && setup.visible(type, name))
      .map(([name, def]) => ({
        name,
        type: def.kind,
        createable: !def.readOnly,
        updateable: !def.readOnly && !def.createOnly,
        ...(def.max !== undefined ? { length: def.max } : {}),
        ...(def.refersTo ? { referenceTo: def.refersTo } : {}),
        ...(def.kind === 'picklist'
          ? {
              restrictedPicklist: true,
              picklistValues: def.orgPicklist
                ? picklists[def.orgPicklist].map((e) => ({
                    value: e.value,
                    label: e.label ?? e.value,
                    active: e.active !== false,
                    defaultValue: e.defaultValue === true,
                    validFor: null,
                  }))
                : def.values!.map((v) => ({
                    value: v,
                    label: v,
                    active: true,
                    defaultValue: false,
                    validFor: null,
                  })),
            }
          : {}),
      }));
    return {
      name: type,
      createable: true,
      updateable: true,
      fields: [{ name: 'Id', type: 'id' }, ...fields],
    };
  });

  app.get(`${base}/query`, async (req: FastifyRequest) =>
    query((req.query as { q?: string }).q ?? '', false),
  );
  app.get(`${base}/queryAll`, async (req: FastifyRequest) =>
    query((req.query as { q?: string }).q ?? '', true),
  );
  app.get(`${base}/query/:locator`, async (req: FastifyRequest) =>
    queryMore((req.params as { locator: string }).locator),
  );
  app.get(`${base}/queryAll/:locator`, async (req: FastifyRequest) =>
    queryMore((req.params as { locator: string }).locator),
  );
  // Who the token belongs to (jsforce's request('/services/oauth2/userinfo')).
  app.get('/services/oauth2/userinfo', async () => ({
    user_id: apiUserId,
    organization_id: '00Dfake0000000000AAA',
    preferred_username: 'integration@example.invalid',
  }));
  app.post(`${base}/tooling/sobjects/CustomField`, async (req: FastifyRequest, reply: FastifyReply) => {
    let id = '';
    setupCheck(() => (id = setup.createCustomField(req.body)));
    return reply.code(201).send({ id, success: true, errors: [] });
  });

  app.get(`${base}/search`, async (req: FastifyRequest) => search((req.query as { q?: string }).q ?? ''));

  /** TaskStatus records mirror the Status picklist: one per value, its IsClosed and IsDefault. */
  const syncTaskStatuses = () => {
    for (const r of [...store.values()]) if (r.type === 'TaskStatus') store.delete(r.Id);
    picklists.Status.forEach((e, i) => {
      if (e.active === false) return;
      insert('TaskStatus', {
        MasterLabel: e.label ?? e.value,
        ApiName: e.value,
        IsClosed: e.closed === true,
        IsDefault: e.defaultValue === true,
        SortOrder: i + 1,
      });
    });
  };
  syncTaskStatuses();

  apiUserId = insert('User', {
    FirstName: 'Integration',
    LastName: 'User',
    Email: 'integration@example.invalid',
  }).Id;

  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('fake Salesforce did not bind a port');
  url = `http://127.0.0.1:${address.port}`;

  return {
    url,
    token,
    oauth,
    version,
    requests,
    counters,
    daily,
    apiUserId,
    customFields: () => [...setup.created].sort(),
    records: (type) => [...store.values()].filter((r) => r.type === type && !r.IsDeleted),
    seed: (type, fields, lastModified) => insert(type, fields, lastModified).Id,
    edit: (id, fields) => {
      const record = store.get(id);
      if (!record || record.IsDeleted) throw new Error(`no live record ${id}`);
      Object.assign(record.fields, fields);
      touch(record);
    },
    remove: (id) => destroy(id),
    convertLead: (leadId, into) => {
      const lead = live('Lead', leadId);
      if (lead.fields.IsConverted) throw new Error(`lead ${leadId} is converted already`);
      let contactId = into;
      if (contactId === undefined) {
        const { FirstName, LastName, Email, Phone, MobilePhone, Description, Company } = lead.fields;
        const account = insert('Account', { Name: Company });
        contactId = insert('Contact', {
          FirstName,
          LastName,
          Email,
          Phone,
          MobilePhone,
          Description,
          AccountId: account.Id,
        }).Id;
      } else {
        touch(live('Contact', contactId));
      }
      Object.assign(lead.fields, { IsConverted: true, ConvertedContactId: contactId });
      touch(lead);
      return contactId;
    },
    loseCollectionCreateAnswer: (n) => {
      loseCreate = n;
    },
    limitExceededNext: (count) => {
      limitExceeded = count;
    },
    setSearchIndexDelay: (ms) => {
      indexDelay = ms;
    },
    setTaskPicklist: (field, entries) => {
      picklists[field] = entries;
      if (field === 'Status') syncTaskStatuses();
    },
    close: () => app.close(),
  };
}
