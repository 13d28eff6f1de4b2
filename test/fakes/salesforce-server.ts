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
// Contact or Lead create matching an existing record (DUPLICATES_DETECTED, unless
// Sforce-Duplicate-Rule-Header allowSave=true); a converted Lead cannot be referenced
// (CANNOT_UPDATE_CONVERTED_LEAD); and SOSL can lag behind creates (searchIndexDelayMs). SOSL's
// phone matching is still the digits predicate below, not Salesforce's own tokenisation (unverified).
//
// It enforces the org's limits as Salesforce documents them: sObject Collections take at most 200
// records, and every API call is counted against the org's 24-hour allowance (REQUEST_LIMIT_EXCEEDED
// beyond it; /limits and the Sforce-Limit-Info header report it). `counters` is readable by tests.
//
// Sessions: the fixed `token` always works (most tests need no login); the OAuth token endpoint
// (salesforce-oauth.ts: JWT bearer and refresh token flows, rotation) issues sessions that expire.
//
// The resources are in files of their own: salesforce-sobjects.ts (sObject CRUD, collections,
// describe, picklists), salesforce-duplicates.ts (duplicate rules), salesforce-query.ts (SOQL),
// salesforce-search.ts (SOSL), salesforce-limits.ts (the daily allowance), salesforce-schema.ts (the
// fields of each sObject type), salesforce-oauth.ts and salesforce-setup.ts; this file holds the
// server, its shared state, authentication and the wiring of the limits.
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { FieldSetup, SetupError, type FieldSetupOptions } from './salesforce-setup';
import { FakeSalesforceOAuth, type SalesforceOAuthSettings } from './salesforce-oauth';
import { DailyAllowance, newCounters, type LimitCounters } from './vendor-limits';
import { SalesforceError } from './salesforce-errors';
import { PREFIX, QUERY_PAGE, type SalesforceState } from './salesforce-schema';
import { registerSObjectRoutes, sobjectHelpers } from './salesforce-sobjects';
import { duplicateCheck } from './salesforce-duplicates';
import { registerQueryRoutes, soqlHelpers } from './salesforce-query';
import { registerSearchRoute } from './salesforce-search';
import { apiAllowance, registerLimitsRoute } from './salesforce-limits';

export { COLLECTION_MAX } from './salesforce-sobjects';

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
   * create matching an existing record is refused with DUPLICATES_DETECTED unless the request sends
   * `Sforce-Duplicate-Rule-Header: allowSave=true`.
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

export async function startFakeSalesforce(opts: FakeSalesforceOptions = {}): Promise<FakeSalesforce> {
  const hidden = new Set(opts.hiddenTaskFields ?? []);
  const token = opts.token ?? '00Dfake!session';
  const version = opts.version ?? '62.0';
  const store = new Map<string, FakeRecord>();
  const requests: RecordedRequest[] = [];
  let counter = 1;
  const counters = newCounters();
  const daily = new DailyAllowance(opts.dailyApiRequests ?? 100_000);
  const pageSize = opts.queryPageSize ?? QUERY_PAGE;
  const duplicateRules = opts.duplicateRules ?? true;
  let indexDelay = opts.searchIndexDelayMs ?? 0;
  /** When each record was created through the API: it enters the search index indexDelay later. */
  const createdAt = new Map<string, number>();
  const picklists: Record<'Status' | 'Priority', PicklistEntry[]> = {
    Status: opts.taskStatuses ?? STANDARD_TASK_STATUSES,
    Priority: opts.taskPriorities ?? STANDARD_TASK_PRIORITIES,
  };
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
  const newId = (type: SObjectType) => `${PREFIX[type]}${String(counter++).padStart(12, '0')}AAA`;
  const s: SalesforceState = {
    store,
    base: `/services/data/v${version}`,
    hidden,
    setup,
    picklists,
    duplicateRules,
    pageSize,
    createdAt,
    indexDelay: () => indexDelay,
    newId,
    setupCheck,
  };
  const sobjects = sobjectHelpers(s);
  const { insert, live, touch, destroy } = sobjects;
  const soql = soqlHelpers(s, sobjects.attributes);
  const allowance = apiAllowance(daily, counters);
  const { base } = s;

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
    return allowance.take(reply);
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

  const collections = registerSObjectRoutes(app, s, sobjects, duplicateCheck(s, sobjects.attributes));
  registerLimitsRoute(app, base, daily);
  registerQueryRoutes(app, s, soql);
  registerSearchRoute(app, s, soql);

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
    loseCollectionCreateAnswer: collections.loseCollectionCreateAnswer,
    limitExceededNext: allowance.limitExceededNext,
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
