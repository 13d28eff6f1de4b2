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
//
// The resources are in files of their own: salesforce-records.ts (validation and writes, TaskStatus
// records, lead conversion), salesforce-sobjects.ts (sObject and sObject Collections endpoints),
// salesforce-duplicates.ts (duplicate rules), salesforce-describe.ts (describe, Tooling API custom
// fields), salesforce-query.ts (SOQL), salesforce-sosl.ts (SOSL; its tokens are salesforce-search.ts),
// salesforce-limits.ts (the daily allowance), salesforce-schema.ts (the fields of each sObject type),
// salesforce-errors.ts, salesforce-setup.ts and salesforce-oauth.ts; salesforce-state.ts holds the
// types and the shared state they import. This file holds the server: its state, authentication, the
// wiring of the resources and limits, and the tests' handle on it.
import Fastify from 'fastify';
import { FieldSetup, type FieldSetupOptions } from './salesforce-setup';
import { FakeSalesforceOAuth, type SalesforceOAuthSettings } from './salesforce-oauth';
import { DailyAllowance, newCounters, type LimitCounters } from './vendor-limits';
import { SalesforceError } from './salesforce-errors';
import { STANDARD_TASK_PRIORITIES, STANDARD_TASK_STATUSES } from './salesforce-schema';
import { duplicateChecks } from './salesforce-duplicates';
import { recordHelpers } from './salesforce-records';
import { registerSObjectRoutes } from './salesforce-sobjects';
import { registerDescribeRoutes } from './salesforce-describe';
import { QUERY_PAGE, registerQueryRoutes, soqlHelpers } from './salesforce-query';
import { registerSearchRoute } from './salesforce-sosl';
import { apiAllowance, registerLimitsRoute } from './salesforce-limits';
import type { FakeRecord, PicklistEntry, SalesforceState, SObjectType } from './salesforce-state';

export type { FakeRecord, PicklistEntry, SObjectType } from './salesforce-state';
export { STANDARD_TASK_PRIORITIES, STANDARD_TASK_STATUSES } from './salesforce-schema';
export { COLLECTION_MAX } from './salesforce-sobjects';

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

export async function startFakeSalesforce(opts: FakeSalesforceOptions = {}): Promise<FakeSalesforce> {
  const token = opts.token ?? '00Dfake!session';
  const version = opts.version ?? '62.0';
  const base = `/services/data/v${version}`;
  const store = new Map<string, FakeRecord>();
  const requests: RecordedRequest[] = [];
  const counters = newCounters();
  const daily = new DailyAllowance(opts.dailyApiRequests ?? 100_000);
  const allowance = apiAllowance(daily, counters);
  // The API user (the integration user the token belongs to), and field-level security of the
  // custom fields callsync creates for itself.
  let apiUserId = '';
  const setup = new FieldSetup(
    opts,
    () => store.values(),
    () => apiUserId,
  );
  const state: SalesforceState = {
    store,
    hidden: new Set(opts.hiddenTaskFields ?? []),
    setup,
    picklists: {
      Status: opts.taskStatuses ?? STANDARD_TASK_STATUSES,
      Priority: opts.taskPriorities ?? STANDARD_TASK_PRIORITIES,
    },
    base,
    pageSize: opts.queryPageSize ?? QUERY_PAGE,
    duplicateRules: opts.duplicateRules ?? true,
    createdAt: new Map<string, number>(),
    indexDelay: opts.searchIndexDelayMs ?? 0,
    attributes: (r) => ({ type: r.type, url: `${base}/sobjects/${r.type}/${r.Id}` }),
  };
  const duplicates = duplicateChecks(state);
  const helpers = recordHelpers(state, duplicates);
  const soql = soqlHelpers(state);
  const { insert, touch, destroy, syncTaskStatuses } = helpers;

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
    const refused = allowance.take(reply);
    if (refused) return refused;
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

  const sobjects = registerSObjectRoutes(app, state, helpers, duplicates);
  registerLimitsRoute(app, base, daily);
  registerDescribeRoutes(app, state, helpers);
  registerQueryRoutes(app, base, soql);
  // Who the token belongs to (jsforce's request('/services/oauth2/userinfo')).
  app.get('/services/oauth2/userinfo', async () => ({
    user_id: apiUserId,
    organization_id: '00Dfake0000000000AAA',
    preferred_username: 'integration@example.invalid',
  }));
  registerSearchRoute(app, state, soql);

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
    convertLead: helpers.convertLead,
    loseCollectionCreateAnswer: sobjects.loseCollectionCreateAnswer,
    limitExceededNext: allowance.limitExceededNext,
    setSearchIndexDelay: (ms) => {
      state.indexDelay = ms;
    },
    setTaskPicklist: (field, entries) => {
      state.picklists[field] = entries;
      if (field === 'Status') syncTaskStatuses();
    },
    close: () => app.close(),
  };
}
