// A local HubSpot for tests: the CRM v3 endpoints callsync's HubSpot connector calls through the
// official client (objects create/update/search and batch create/read/update for calls, tasks and
// contacts; property and property-group creation; owners), validating what HubSpot requires and
// answering errors in HubSpot's format. It enforces a Professional private app's documented limits
// (190 requests per rolling 10 seconds, 5 searches per second, 100 inputs per batch) with HubSpot's
// 429 body and X-HubSpot-RateLimit-* headers. In-memory; `requests`, `counters` and `objects()` let
// tests and benches assert on what was sent.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { mulberry32 } from '../../lib/seeded-random';
import {
  deriveContact,
  filterMatches,
  registerContactRoutes,
  searchPage,
  type FakeHubSpotContacts,
} from './hubspot-contacts';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { SlidingWindowLimit, countLimited, newCounters, type LimitCounters } from './vendor-limits';
import {
  expiredAuthenticationBody,
  registerHubSpotOAuth,
  type FakeHubSpotOAuth,
  type FakeHubSpotOAuthOptions,
} from './hubspot-oauth';
import {
  registerHubSpotConversations,
  type ConversationType,
  type FakeEngagement,
} from './hubspot-conversations';

export type { FakeObject, ObjectType } from './hubspot-objects';
import type { FakeObject, ObjectType } from './hubspot-objects';
import { DEFAULT_SEARCH_LAG_MS, SearchIndex } from './hubspot-search-index';

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
  status: number;
  /** When the request arrived (epoch ms), for rate-limit checks over sliding windows. */
  at: number;
}

export interface FakeHubSpot extends FakeHubSpotContacts {
  /** Origin to use as the client's basePath. */
  url: string;
  token: string;
  requests: RecordedRequest[];
  /** Requests answered and those refused for a rate limit (429), by policy. */
  counters: LimitCounters;
  objects(type: ObjectType): FakeObject[];
  /** Adds a contact directly (as if created in HubSpot's UI); returns its id. */
  seedContact(properties: Record<string, string>, updatedAt?: string): string;
  /** Adds an owner for /crm/v3/owners lookups; returns its id. */
  seedOwner(email: string): string;
  /** The next `count` requests get 429 (with Retry-After when `retryAfterSeconds` is given). */
  rateLimitNext(count: number, retryAfterSeconds?: number): void;
  /**
   * The next `count` requests matching `method` and `path` (exact, no query) get this error status
   * (a 429 in HubSpot's rate-limit format, with Retry-After when `retryAfterSeconds` is given);
   * `message` replaces the error body's message (HubSpot's validation errors quote the values).
   */
  failNext(
    method: string,
    path: string,
    status: number,
    count?: number,
    retryAfterSeconds?: number,
    message?: string,
  ): void;
  /**
   * From now on each request is answered 429 (with Retry-After) with chance `rate429`, or a 5xx
   * (500, 502 or 503 in turn) with chance `rate5xx`, drawn from a seeded generator; null stops it.
   * Recorded in `requests` like any answer.
   */
  randomFaults(faults: RandomFaults | null): void;
  /** Custom properties defined on an object type (what a portal admin or callsync created). */
  customProperties(type: ObjectType): string[];
  /** Communications (SMS) and notes written (test/fakes/hubspot-conversations.ts). */
  engagements(type: ConversationType): FakeEngagement[];
  /** The portal id account-info answers (record links carry it). */
  portalId: number;
  /** The OAuth app's endpoints and counters, when started with `oauth`. */
  oauth: FakeHubSpotOAuth | undefined;
  /** Sets how long the writes from now on take to reach search (see FakeHubSpotOptions.searchLagMs). */
  setSearchLag(ms: number): void;
  close(): Promise<void>;
}

/** Random CRM faults (see FakeHubSpot.randomFaults). */
export interface RandomFaults {
  rate429: number;
  rate5xx: number;
  retryAfterSeconds: number;
  seed?: number;
}

/** Properties each object type knows besides custom ones (a subset of HubSpot's defaults). */
const DEFAULT_PROPERTIES: Record<ObjectType, string[]> = {
  calls: [
    'hs_timestamp',
    'hs_call_title',
    'hs_call_body',
    'hs_call_direction',
    'hs_call_status',
    'hs_call_duration',
    'hs_call_disposition',
    'hs_call_from_number',
    'hs_call_to_number',
    'hs_call_recording_url',
    'hubspot_owner_id',
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
  ],
  tasks: [
    'hs_timestamp',
    'hs_task_subject',
    'hs_task_body',
    'hs_task_status',
    'hs_task_priority',
    'hs_task_type',
    'hubspot_owner_id',
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
  ],
  contacts: [
    'firstname',
    'lastname',
    'email',
    'company',
    'phone',
    'mobilephone',
    'hubspot_owner_id',
    'hs_searchable_calculated_phone_number',
    'hs_searchable_calculated_mobile_number',
    'createdate',
    'lastmodifieddate',
    'hs_object_id',
  ],
};

const ENUMS: Record<string, string[]> = {
  hs_call_direction: ['INBOUND', 'OUTBOUND'],
  hs_call_status: [
    'BUSY',
    'CALLING_CRM_USER',
    'CANCELED',
    'COMPLETED',
    'CONNECTING',
    'FAILED',
    'IN_PROGRESS',
    'MISSED',
    'NO_ANSWER',
    'QUEUED',
    'RINGING',
  ],
  hs_call_disposition: [
    '9d9162e7-6cf3-4944-bf63-4dff82258764',
    'f240bbac-87c9-4f6e-bf70-924b57d47db7',
    'a4c4c377-d246-4b32-a13b-75a56a4cd0ff',
    'b2cf5968-551e-4856-9783-52b3da59a7d0',
    '73a0d17f-1163-4015-bdd5-ec830791da20',
    '17b47fee-58de-441e-a44c-c6300d46f273',
  ],
  hs_task_status: ['NOT_STARTED', 'IN_PROGRESS', 'WAITING', 'COMPLETED', 'DEFERRED'],
  hs_task_priority: ['NONE', 'LOW', 'MEDIUM', 'HIGH'],
  hs_task_type: ['EMAIL', 'CALL', 'TODO', 'LINKED_IN', 'LINKED_IN_CONNECT', 'LINKED_IN_MESSAGE'],
};
/** HubSpot's default call outcomes (GET /calling/v1/dispositions). */
const DISPOSITION_LABELS: Record<string, string> = {
  '9d9162e7-6cf3-4944-bf63-4dff82258764': 'Busy',
  'f240bbac-87c9-4f6e-bf70-924b57d47db7': 'Connected',
  'a4c4c377-d246-4b32-a13b-75a56a4cd0ff': 'Left live message',
  'b2cf5968-551e-4856-9783-52b3da59a7d0': 'Left voicemail',
  '73a0d17f-1163-4015-bdd5-ec830791da20': 'No answer',
  '17b47fee-58de-441e-a44c-c6300d46f273': 'Wrong number',
};
const NUMBERS = new Set(['hs_call_duration']);
const TIMESTAMPS = new Set(['hs_timestamp']);
/** HubSpot-defined association types from these objects to contacts. */
const CONTACT_ASSOCIATION: Partial<Record<ObjectType, number>> = { calls: 194, tasks: 204 };
const OBJECT_TYPES = new Set<string>(['calls', 'tasks', 'contacts']);
/** Object types of this server whose properties may have unique values (hasUniqueValue). */
const UNIQUE_VALUE_TYPES = new Set<ObjectType>(['contacts']);
/** Longest search request body HubSpot takes (https://developers.hubspot.com/docs/api/crm/search, Limitations). */
export const SEARCH_BODY_CHARS = 3_000;

const fail = (status: number, category: string, message: string): Error =>
  new HubSpotError(status, category, message);

class HubSpotError extends Error {
  constructor(
    readonly status: number,
    readonly category: string,
    message: string,
    readonly errors: unknown[] = [],
  ) {
    super(message);
  }
}

/** HubSpot's answer when an app exceeds a rate limit (the rolling 10-second one, or search's secondly one). */
function rateLimitBody(policy: 'TEN_SECONDLY_ROLLING' | 'SECONDLY' | 'DAILY' = 'TEN_SECONDLY_ROLLING') {
  return {
    status: 'error',
    message: `You have reached your ${policy.toLowerCase()} limit.`,
    errorType: 'RATE_LIMIT',
    correlationId: randomUUID(),
    policyName: policy,
    requestId: randomUUID(),
  };
}

/** A Professional private app's documented limits; tests may lower them. */
export interface HubSpotLimits {
  /** Requests per rolling 10 seconds, all endpoints together (Professional private app: 190). */
  per10Seconds: number;
  /** Search requests per second (CRM search API: 5 per account, whatever the token). */
  searchPerSecond: number;
  /** Inputs per batch request (100). */
  batchInputs: number;
  /** Requests per day, the account's (private apps: 250,000 to 1,000,000 by tier; Professional: 650,000). */
  daily: number;
}

export const PROFESSIONAL_LIMITS: HubSpotLimits = {
  per10Seconds: 190,
  searchPerSecond: 5,
  batchInputs: 100,
  daily: 650_000,
};

/** The digits HubSpot puts in hs_searchable_calculated_*_number: the number without its country code. */
function searchableDigits(value: string | null | undefined): string | null {
  if (!value) return null;
  const parsed = parsePhoneNumberFromString(value, 'US');
  return parsed?.nationalNumber ?? (value.replace(/\D/g, '') || null);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** HubSpot's timestamp properties take epoch milliseconds or an ISO 8601 UTC string. */
function validTimestamp(value: string): boolean {
  if (/^\d{10,14}$/.test(value)) return true;
  return /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/.test(value) && !Number.isNaN(Date.parse(value));
}

/** Scopes of a private app; a fake started with `scopes` grants only those (default: all). */
export interface FakeHubSpotOptions {
  token?: string;
  /**
   * More private apps' tokens of this portal. The search limit and the daily limit are the portal's,
   * shared by all of them; the rolling 10-second limit here is shared too (one window per fake).
   */
  tokens?: string[];
  scopes?: string[];
  /** Limits enforced (default: a Professional private app's); `false` turns rate limits off. */
  limits?: Partial<HubSpotLimits> | false;
  /** False: the portal lacks the communications object (callsync logs SMS as notes). */
  communications?: boolean;
  /**
   * The portal's id (account-info's portalId). A private app's token belongs to one portal, so two
   * portals are two fakes, each with its token and id; their record ids overlap, as two real ones' do.
   */
  portalId?: number;
  /** An OAuth app whose access tokens the portal also accepts (test/fakes/hubspot-oauth.ts). */
  oauth?: FakeHubSpotOAuthOptions;
  /**
   * How long a write takes to reach search (default 1 s: HubSpot's "a few moments",
   * https://developers.hubspot.com/docs/api/crm/search). 0 only for tests that are not about search.
   */
  searchLagMs?: number;
}

export async function startFakeHubSpot(opts: FakeHubSpotOptions = {}): Promise<FakeHubSpot> {
  const token = opts.token ?? 'pat-test-token';
  const privateTokens = new Set([token, ...(opts.tokens ?? [])]);
  const requireScope = (scope: string): void => {
    if (!opts.scopes || opts.scopes.includes(scope)) return;
    throw new HubSpotError(
      403,
      'MISSING_SCOPES',
      "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
      [
        {
          message: 'One or more of the following scopes are required.',
          context: { requiredGranularScopes: [scope] },
        },
      ],
    );
  };
  const failures: {
    method: string;
    path: string;
    status: number;
    count: number;
    retryAfter: number | undefined;
    message?: string | undefined;
  }[] = [];
  const store = new Map<ObjectType, Map<string, FakeObject>>([
    ['calls', new Map()],
    ['tasks', new Map()],
    ['contacts', new Map()],
  ]);
  const custom = new Map<ObjectType, Set<string>>([
    ['calls', new Set()],
    ['tasks', new Set()],
    ['contacts', new Set()],
  ]);
  const groups = new Map<string, Set<string>>();
  const owners: { id: string; email: string }[] = [];
  const requests: RecordedRequest[] = [];
  const counters = newCounters();
  const limits: HubSpotLimits = { ...PROFESSIONAL_LIMITS, ...(opts.limits || {}) };
  const rolling = new SlidingWindowLimit(limits.per10Seconds, 10_000);
  const secondly = new SlidingWindowLimit(limits.searchPerSecond, 1_000);
  let dailyUsed = 0;
  /** Custom properties whose values must be unique per object type (hasUniqueValue). */
  const unique = new Map<ObjectType, Set<string>>([
    ['calls', new Set()],
    ['tasks', new Set()],
    ['contacts', new Set()],
  ]);
  let nextId = 10_001;
  const index = new SearchIndex(opts.searchLagMs ?? DEFAULT_SEARCH_LAG_MS);
  let rateLimited = 0;
  let retryAfter: number | undefined;
  let random: (RandomFaults & { next: () => number; served: number }) | null = null;

  const known = (type: ObjectType, name: string) =>
    DEFAULT_PROPERTIES[type].includes(name) || custom.get(type)!.has(name);

  function validateProperties(
    type: ObjectType,
    props: unknown,
    creating: boolean,
  ): Record<string, string | null> {
    if (!isRecord(props))
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON: properties is required');
    const problems: { isValid: false; message: string; error: string; name: string }[] = [];
    const out: Record<string, string | null> = {};
    for (const [name, value] of Object.entries(props)) {
      if (!known(type, name)) {
        problems.push({
          isValid: false,
          message: `Property "${name}" does not exist`,
          error: 'PROPERTY_DOESNT_EXIST',
          name,
        });
        continue;
      }
      if (value !== null && typeof value !== 'string') {
        problems.push({
          isValid: false,
          message: `${JSON.stringify(value)} is not a string`,
          error: 'INVALID_STRING',
          name,
        });
        continue;
      }
      if (value !== null && value !== '') {
        const options = ENUMS[name];
        if (options && !options.includes(value)) {
          problems.push({
            isValid: false,
            message: `${value} was not one of the allowed options: [${options.join(', ')}]`,
            error: 'INVALID_OPTION',
            name,
          });
        }
        if (NUMBERS.has(name) && !/^\d+(\.\d+)?$/.test(value)) {
          problems.push({
            isValid: false,
            message: `${value} is not a valid number`,
            error: 'INVALID_INTEGER',
            name,
          });
        }
        if (TIMESTAMPS.has(name) && !validTimestamp(value)) {
          problems.push({
            isValid: false,
            message: `${value} is not a valid datetime`,
            error: 'INVALID_DATE',
            name,
          });
        }
      }
      out[name] = value;
    }
    if (creating && type !== 'contacts' && !out.hs_timestamp) {
      problems.push({
        isValid: false,
        message: 'hs_timestamp is required',
        error: 'REQUIRED_PROPERTY',
        name: 'hs_timestamp',
      });
    }
    if (problems.length > 0) {
      throw new HubSpotError(
        400,
        'VALIDATION_ERROR',
        `Property values were not valid: ${JSON.stringify(problems)}`,
      );
    }
    return out;
  }

  function validateAssociations(type: ObjectType, list: unknown): FakeObject['associations'] {
    if (list === undefined) return [];
    if (!Array.isArray(list))
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON: associations must be an array');
    return list.map((a: unknown) => {
      if (
        !isRecord(a) ||
        !isRecord(a.to) ||
        typeof a.to.id !== 'string' ||
        !Array.isArray(a.types) ||
        a.types.length === 0
      ) {
        throw new HubSpotError(
          400,
          'VALIDATION_ERROR',
          'Invalid input JSON: each association needs to.id and types',
        );
      }
      const spec = a.types[0] as unknown;
      if (
        !isRecord(spec) ||
        typeof spec.associationTypeId !== 'number' ||
        typeof spec.associationCategory !== 'string'
      ) {
        throw new HubSpotError(
          400,
          'VALIDATION_ERROR',
          'Invalid input JSON: associationCategory and associationTypeId are required',
        );
      }
      if (!['HUBSPOT_DEFINED', 'USER_DEFINED', 'INTEGRATOR_DEFINED'].includes(spec.associationCategory)) {
        throw new HubSpotError(
          400,
          'VALIDATION_ERROR',
          `Unknown associationCategory ${spec.associationCategory}`,
        );
      }
      if (
        spec.associationCategory === 'HUBSPOT_DEFINED' &&
        spec.associationTypeId !== CONTACT_ASSOCIATION[type]
      ) {
        throw new HubSpotError(
          400,
          'VALIDATION_ERROR',
          `association type ${spec.associationTypeId} is not valid from ${type} to contacts`,
        );
      }
      if (!store.get('contacts')!.has(a.to.id)) {
        throw new HubSpotError(
          400,
          'VALIDATION_ERROR',
          `One or more associations are invalid: contact ${a.to.id} does not exist`,
        );
      }
      return { toId: a.to.id, category: spec.associationCategory, typeId: spec.associationTypeId };
    });
  }

  /** Refuses a value another object already holds in a property with hasUniqueValue. */
  function checkUnique(type: ObjectType, props: Record<string, string | null>, selfId?: string): void {
    for (const name of unique.get(type)!) {
      const value = props[name];
      if (value === undefined || value === null || value === '') continue;
      for (const other of store.get(type)!.values()) {
        if (other.id !== selfId && other.properties[name] === value) {
          throw new HubSpotError(
            409,
            'CONFLICT',
            `A ${type.replace(/s$/, '')} with the unique property "${name}" value "${value}" already exists. Existing ID: ${other.id}`,
          );
        }
      }
    }
  }

  /** HubSpot's calculated searchable numbers follow a contact's phone and mobile phone. */
  function calculate(type: ObjectType, props: Record<string, string | null>): void {
    if (type !== 'contacts') return;
    if ('phone' in props) props.hs_searchable_calculated_phone_number = searchableDigits(props.phone);
    if ('mobilephone' in props)
      props.hs_searchable_calculated_mobile_number = searchableDigits(props.mobilephone);
  }

  function insert(
    type: ObjectType,
    properties: Record<string, string | null>,
    associations: FakeObject['associations'],
  ) {
    checkUnique(type, properties);
    const now = new Date().toISOString();
    const id = String(nextId++);
    const obj: FakeObject = {
      id,
      type,
      properties: { ...properties, hs_object_id: id, hs_createdate: now, hs_lastmodifieddate: now },
      associations,
      createdAt: now,
      updatedAt: now,
    };
    calculate(type, obj.properties);
    deriveContact(obj);
    store.get(type)!.set(id, obj);
    index.wrote(obj);
    return obj;
  }

  function patch(type: ObjectType, id: string, props: Record<string, string | null>) {
    const obj = store.get(type)!.get(id);
    if (!obj) throw new HubSpotError(404, 'OBJECT_NOT_FOUND', 'resource not found');
    checkUnique(type, props, id);
    obj.updatedAt = new Date().toISOString();
    Object.assign(obj.properties, props, { hs_lastmodifieddate: obj.updatedAt });
    calculate(type, obj.properties);
    deriveContact(obj);
    index.wrote(obj);
    return obj;
  }

  const view = (obj: FakeObject, props?: string[]) => ({
    id: obj.id,
    properties: props
      ? Object.fromEntries(
          [...props, 'hs_object_id', 'hs_createdate', 'hs_lastmodifieddate'].map((p) => [
            p,
            obj.properties[p] ?? null,
          ]),
        )
      : obj.properties,
    createdAt: obj.createdAt,
    updatedAt: obj.updatedAt,
    archived: false,
  });

  function objectType(req: FastifyRequest): ObjectType {
    const type = (req.params as { type: string }).type;
    if (!OBJECT_TYPES.has(type))
      throw new HubSpotError(404, 'OBJECT_NOT_FOUND', `Unknown object type ${type}`);
    return type as ObjectType;
  }

  function search(type: ObjectType, body: unknown) {
    if (!isRecord(body)) throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON');
    // At most 5 filterGroups, 6 filters in a group and 18 filters in all; at most 200 results a page
    // (https://developers.hubspot.com/docs/api/crm/search, Limitations).
    const filterGroups = (body.filterGroups ?? []) as unknown[];
    if (!Array.isArray(filterGroups) || filterGroups.length > 5) {
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'There can be at most 5 filterGroups');
    }
    const total = filterGroups.reduce<number>(
      (n, g) => n + (isRecord(g) && Array.isArray(g.filters) ? g.filters.length : 0),
      0,
    );
    if (total > 18) throw new HubSpotError(400, 'VALIDATION_ERROR', 'There can be at most 18 filters');
    const matches = (obj: FakeObject, g: unknown) => {
      if (!isRecord(g) || !Array.isArray(g.filters))
        throw new HubSpotError(400, 'VALIDATION_ERROR', 'filterGroups[].filters is required');
      if (g.filters.length > 6)
        throw new HubSpotError(400, 'VALIDATION_ERROR', 'A filterGroup can have at most 6 filters');
      return g.filters.every((f: unknown) => {
        if (!isRecord(f) || typeof f.propertyName !== 'string') {
          throw new HubSpotError(400, 'VALIDATION_ERROR', 'filters[].propertyName is required');
        }
        return filterMatches(obj, f, fail);
      });
    };
    // HubSpot refuses a filter on a property the object type does not have, whatever the data.
    for (const g of filterGroups) {
      const filters = isRecord(g) && Array.isArray(g.filters) ? (g.filters as unknown[]) : [];
      for (const f of filters) {
        if (isRecord(f) && typeof f.propertyName === 'string' && !known(type, f.propertyName)) {
          throw new HubSpotError(
            400,
            'VALIDATION_ERROR',
            `There was a problem with the request: property ${f.propertyName} does not exist on ${type}`,
          );
        }
      }
    }
    const limit = typeof body.limit === 'number' ? body.limit : 10;
    if (limit > 200) throw new HubSpotError(400, 'VALIDATION_ERROR', 'limit must be at most 200');
    const props = Array.isArray(body.properties) ? (body.properties as string[]) : undefined;
    // Search reads the index, which sees writes only after the lag (hubspot-search-index.ts).
    const hits = index
      .visible(type, store.get(type)!.values())
      .filter((o) => filterGroups.length === 0 || filterGroups.some((g) => matches(o, g)));
    return searchPage(hits, body, limit, (o) => view(o, props), fail);
  }

  const app = Fastify({ logger: false, bodyLimit: 5 * 1024 * 1024 });
  // JSON parsed by hand to keep each body's length as sent: HubSpot limits a search request body
  // to 3,000 characters (https://developers.hubspot.com/docs/api/crm/search, Limitations).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = String(body);
    (req as FastifyRequest & { bodyChars?: number }).bodyChars = text.length;
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON: the body is not JSON'), undefined);
    }
  });

  const portalId = opts.portalId ?? 4_242_424;
  const oauth = opts.oauth ? registerHubSpotOAuth(app, portalId, opts.oauth) : undefined;

  app.addHook('onRequest', async (req, reply) => {
    // OAuth's own endpoints take no bearer token and count against no API limit.
    if (oauth && req.url.startsWith('/oauth/')) return;
    const failure = failures.find(
      (f) => f.count > 0 && f.method === req.method && f.path === req.url.split('?')[0],
    );
    if (failure) {
      failure.count--;
      if (failure.retryAfter !== undefined) void reply.header('retry-after', String(failure.retryAfter));
      if (failure.status === 429) {
        countLimited(counters, 'INJECTED');
        return reply.code(429).send(rateLimitBody());
      }
      return reply.code(failure.status).send({
        status: 'error',
        message: failure.message ?? `fault injected by the test (${failure.status})`,
        correlationId: randomUUID(),
        category: failure.status === 400 ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR',
      });
    }
    if (rateLimited > 0) {
      rateLimited--;
      countLimited(counters, 'INJECTED');
      if (retryAfter !== undefined) void reply.header('retry-after', String(retryAfter));
      return reply.code(429).send(rateLimitBody());
    }
    if (random) {
      const roll = random.next();
      if (roll < random.rate429) {
        void reply.header('retry-after', String(random.retryAfterSeconds));
        return reply.code(429).send(rateLimitBody());
      }
      if (roll < random.rate429 + random.rate5xx) {
        const status = [500, 502, 503][random.served++ % 3]!;
        return reply.code(status).send({
          status: 'error',
          message: `fault injected by the test (${status})`,
          correlationId: randomUUID(),
          category: 'INTERNAL_ERROR',
        });
      }
    }
    const bearer = req.headers.authorization?.replace(/^Bearer /, '');
    const oauthToken = oauth && bearer !== undefined ? oauth.check(bearer) : undefined;
    if (oauthToken?.state === 'expired') {
      oauth!.counters.expiredCalls++;
      return reply.code(401).send(expiredAuthenticationBody(oauthToken.agoMs));
    }
    if (!privateTokens.has(bearer ?? '') && oauthToken?.state !== 'ok') {
      return reply.code(401).send({
        status: 'error',
        message: 'Authentication credentials not found. This API supports OAuth 2.0 authentication.',
        correlationId: randomUUID(),
        category: 'INVALID_AUTHENTICATION',
      });
    }
    if (opts.limits === false) return;
    const now = Date.now();
    const isSearch =
      req.method === 'POST' && /^\/crm\/v3\/objects\/[^/]+\/search$/.test(req.url.split('?')[0]!);
    // Search answers carry no rate-limit headers (HubSpot documents that); other answers do.
    const headers = () => {
      if (isSearch) return;
      void reply.headers({
        'x-hubspot-ratelimit-daily': String(limits.daily),
        'x-hubspot-ratelimit-daily-remaining': String(Math.max(0, limits.daily - dailyUsed)),
        'x-hubspot-ratelimit-interval-milliseconds': '10000',
        'x-hubspot-ratelimit-max': String(limits.per10Seconds),
        'x-hubspot-ratelimit-remaining': String(rolling.remaining(now)),
      });
    };
    // The daily limit is the account's (portal's), shared by its private apps: 250,000 to 1,000,000
    // requests a day by tier, reset at midnight in the account's time zone; past it HubSpot answers
    // 429 with policyName DAILY (https://developers.hubspot.com/docs/api/usage-details).
    if (dailyUsed >= limits.daily) {
      countLimited(counters, 'DAILY');
      headers();
      return reply.code(429).send(rateLimitBody('DAILY'));
    }
    // Search: 5 requests per second per account (portal), whatever the token
    // (https://developers.hubspot.com/docs/api/crm/search, Limitations).
    if (isSearch && secondly.remaining(now) === 0) {
      countLimited(counters, 'SECONDLY');
      return reply.code(429).send(rateLimitBody('SECONDLY'));
    }
    if (!rolling.take(now)) {
      countLimited(counters, 'TEN_SECONDLY_ROLLING');
      headers();
      return reply.code(429).send(rateLimitBody('TEN_SECONDLY_ROLLING'));
    }
    if (isSearch) secondly.take(now);
    dailyUsed++;
    headers();
  });
  app.addHook('onResponse', async (req, reply) => {
    counters.requests++;
    requests.push({
      method: req.method,
      path: req.url,
      body: req.body ?? null,
      status: reply.statusCode,
      at: Date.now() - reply.elapsedTime,
    });
  });
  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof HubSpotError) {
      return reply.code(err.status).send({
        status: 'error',
        message: err.message,
        correlationId: randomUUID(),
        category: err.category,
        ...(err.errors.length > 0 ? { errors: err.errors } : {}),
      });
    }
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    return reply.code(status).send({
      status: 'error',
      message: (err as Error).message,
      correlationId: randomUUID(),
      category: status === 400 ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR',
    });
  });

  app.post('/crm/v3/objects/:type', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = objectType(req);
    const body = req.body;
    if (!isRecord(body)) throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON');
    const properties = validateProperties(type, body.properties, true);
    const associations = validateAssociations(type, body.associations);
    return reply.code(201).send(view(insert(type, properties, associations)));
  });

  function checkBatchSize(inputs: unknown[]): void {
    if (inputs.length > limits.batchInputs) {
      throw new HubSpotError(
        400,
        'VALIDATION_ERROR',
        `Batch input limit is ${limits.batchInputs}; received ${inputs.length} inputs`,
      );
    }
  }

  // Batch create is all or nothing: any invalid input or unique-value conflict refuses the batch.
  // Results come back in no particular order (HubSpot does not promise input order; here: reversed).
  app.post('/crm/v3/objects/:type/batch/create', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = objectType(req);
    const body = req.body;
    if (!isRecord(body) || !Array.isArray(body.inputs))
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'inputs is required');
    checkBatchSize(body.inputs);
    const startedAt = new Date().toISOString();
    const inputs = body.inputs.map((input: unknown) => {
      if (!isRecord(input)) throw new HubSpotError(400, 'VALIDATION_ERROR', 'inputs[] must be objects');
      return {
        properties: validateProperties(type, input.properties, true),
        associations: validateAssociations(type, input.associations),
      };
    });
    for (const name of unique.get(type)!) {
      const values = inputs.map((i) => i.properties[name]).filter((v) => v !== undefined && v !== null);
      if (new Set(values).size !== values.length)
        throw new HubSpotError(
          409,
          'CONFLICT',
          `Duplicate values of the unique property "${name}" in the batch`,
        );
    }
    for (const input of inputs) checkUnique(type, input.properties);
    const results = inputs.map((i) => view(insert(type, i.properties, i.associations))).reverse();
    return reply
      .code(201)
      .send({ status: 'COMPLETE', results, startedAt, completedAt: new Date().toISOString() });
  });

  // Batch read by id, or by a unique property (idProperty); missing ones are a 207's errors.
  app.post('/crm/v3/objects/:type/batch/read', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = objectType(req);
    const body = req.body;
    if (!isRecord(body) || !Array.isArray(body.inputs))
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'inputs is required');
    checkBatchSize(body.inputs);
    const idProperty = typeof body.idProperty === 'string' ? body.idProperty : undefined;
    if (idProperty !== undefined && !unique.get(type)!.has(idProperty)) {
      throw new HubSpotError(
        400,
        'VALIDATION_ERROR',
        `${idProperty} is not a unique identifier property of ${type}`,
      );
    }
    const props = Array.isArray(body.properties) ? (body.properties as string[]) : undefined;
    const startedAt = new Date().toISOString();
    const results = [];
    const missing: string[] = [];
    for (const input of body.inputs as unknown[]) {
      if (!isRecord(input) || typeof input.id !== 'string')
        throw new HubSpotError(400, 'VALIDATION_ERROR', 'inputs[].id is required');
      const id = input.id;
      const hit = [...store.get(type)!.values()].find((o) =>
        idProperty === undefined ? o.id === id : o.properties[idProperty] === id,
      );
      if (hit) results.push(view(hit, props));
      else missing.push(id);
    }
    const completedAt = new Date().toISOString();
    if (missing.length === 0) return { status: 'COMPLETE', results, startedAt, completedAt };
    return reply.code(207).send({
      status: 'COMPLETE',
      results,
      numErrors: 1,
      errors: [
        {
          status: 'error',
          category: 'OBJECT_NOT_FOUND',
          message: `Could not get some ${type} objects, they may be deleted or not exist. Check that ids are valid.`,
          context: { ids: missing },
        },
      ],
      startedAt,
      completedAt,
    });
  });

  app.patch('/crm/v3/objects/:type/:id', async (req: FastifyRequest) => {
    const type = objectType(req);
    const body = req.body;
    if (!isRecord(body)) throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON');
    const properties = validateProperties(type, body.properties, false);
    return view(patch(type, (req.params as { id: string }).id, properties));
  });

  app.delete('/crm/v3/objects/:type/:id', async (req: FastifyRequest, reply: FastifyReply) => {
    const id = (req.params as { id: string }).id;
    if (!store.get(objectType(req))!.delete(id)) {
      throw new HubSpotError(404, 'OBJECT_NOT_FOUND', `Object not found.  objectId are usually numeric.`);
    }
    return reply.code(204).send();
  });

  app.post('/crm/v3/objects/:type/search', async (req: FastifyRequest) => {
    const type = objectType(req);
    // "The request body is limited to 3,000 characters" (https://developers.hubspot.com/docs/api/crm/search,
    // Limitations): a longer one is refused whole, in HubSpot's error shape.
    const chars = (req as FastifyRequest & { bodyChars?: number }).bodyChars ?? 0;
    if (chars > SEARCH_BODY_CHARS) {
      throw new HubSpotError(
        400,
        'VALIDATION_ERROR',
        `The request body is ${chars} characters long; a search request body is limited to ${SEARCH_BODY_CHARS} characters.`,
      );
    }
    return search(type, req.body);
  });

  app.post('/crm/v3/objects/:type/batch/update', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = objectType(req);
    const body = req.body;
    if (!isRecord(body) || !Array.isArray(body.inputs))
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'inputs is required');
    checkBatchSize(body.inputs);
    const startedAt = new Date().toISOString();
    // Validate everything first: HubSpot rejects the whole batch when an input is invalid.
    const inputs = body.inputs.map((input: unknown) => {
      if (!isRecord(input) || typeof input.id !== 'string')
        throw new HubSpotError(400, 'VALIDATION_ERROR', 'inputs[].id is required');
      return { id: input.id, properties: validateProperties(type, input.properties, false) };
    });
    const results = [];
    const errors = [];
    for (const input of inputs) {
      try {
        results.push(view(patch(type, input.id, input.properties)));
      } catch {
        errors.push({
          status: 'error',
          category: 'OBJECT_NOT_FOUND',
          message: `Object ${input.id} not found`,
          context: { ids: [input.id] },
        });
      }
    }
    const completedAt = new Date().toISOString();
    if (errors.length > 0) {
      return reply
        .code(207)
        .send({ status: 'COMPLETE', results, numErrors: errors.length, errors, startedAt, completedAt });
    }
    return { status: 'COMPLETE', results, startedAt, completedAt };
  });

  app.get('/crm/v3/properties/:type/:name', async (req: FastifyRequest) => {
    const type = objectType(req);
    requireScope(`crm.schemas.${type}.read`);
    const name = (req.params as { name: string }).name;
    if (!known(type, name))
      throw new HubSpotError(404, 'OBJECT_NOT_FOUND', `Unable to find property ${name} on ${type}`);
    return {
      name,
      label: name,
      type: 'string',
      fieldType: 'text',
      groupName: 'callsync',
      hasUniqueValue: unique.get(type)!.has(name),
    };
  });

  app.post('/crm/v3/properties/:type/groups', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = objectType(req);
    requireScope(`crm.schemas.${type}.write`);
    const body = req.body;
    if (!isRecord(body) || typeof body.name !== 'string' || typeof body.label !== 'string') {
      throw new HubSpotError(400, 'VALIDATION_ERROR', 'name and label are required');
    }
    const set = groups.get(type) ?? new Set<string>();
    groups.set(type, set);
    if (set.has(body.name))
      throw new HubSpotError(409, 'OBJECT_ALREADY_EXISTS', `Property group ${body.name} already exists`);
    set.add(body.name);
    return reply.code(201).send({ name: body.name, label: body.label, displayOrder: -1, archived: false });
  });

  app.post('/crm/v3/properties/:type', async (req: FastifyRequest, reply: FastifyReply) => {
    const type = objectType(req);
    requireScope(`crm.schemas.${type}.write`);
    const body = req.body;
    if (!isRecord(body)) throw new HubSpotError(400, 'VALIDATION_ERROR', 'Invalid input JSON');
    for (const field of ['name', 'label', 'type', 'fieldType', 'groupName']) {
      if (typeof body[field] !== 'string')
        throw new HubSpotError(400, 'VALIDATION_ERROR', `${field} is required`);
    }
    const name = body.name as string;
    if (
      !(groups.get(type)?.has(body.groupName as string) ?? false) &&
      !['callinformation', 'task', 'contactinformation'].includes(body.groupName as string)
    ) {
      throw new HubSpotError(
        400,
        'VALIDATION_ERROR',
        `Property group ${String(body.groupName)} does not exist`,
      );
    }
    // Unique-value properties exist on contacts, companies, deals, tickets and custom objects only
    // (https://developers.hubspot.com/docs/api/crm/properties): not on calls, tasks or other engagements.
    if (body.hasUniqueValue === true && UNIQUE_VALUE_TYPES.has(type) === false) {
      throw new HubSpotError(
        400,
        'VALIDATION_ERROR',
        `Property ${name} cannot have unique values: hasUniqueValue is not supported on ${type}`,
      );
    }
    if (known(type, name))
      throw new HubSpotError(409, 'OBJECT_ALREADY_EXISTS', `Property named '${name}' already exists.`);
    custom.get(type)!.add(name);
    if (body.hasUniqueValue === true) unique.get(type)!.add(name);
    const now = new Date().toISOString();
    return reply
      .code(201)
      .send({ ...body, createdAt: now, updatedAt: now, hidden: false, options: [], formField: false });
  });

  app.get('/crm/v3/owners/', async (req: FastifyRequest) => {
    requireScope('crm.objects.owners.read');
    const email = (req.query as { email?: string }).email;
    const hits = owners.filter((o) => email === undefined || o.email === email.toLowerCase());
    const now = new Date().toISOString();
    return {
      results: hits.map((o) => ({
        id: o.id,
        email: o.email,
        userId: Number(o.id),
        createdAt: now,
        updatedAt: now,
        archived: false,
      })),
    };
  });

  // GET /crm/v3/owners/{ownerId}: one owner by id (idProperty=id), 404 when there is none.
  app.get('/crm/v3/owners/:ownerId', async (req: FastifyRequest) => {
    requireScope('crm.objects.owners.read');
    const { ownerId } = req.params as { ownerId: string };
    const o = owners.find((x) => x.id === ownerId);
    if (!o) throw new HubSpotError(404, 'OBJECT_NOT_FOUND', `No owner with id ${ownerId}`);
    const now = new Date().toISOString();
    return {
      id: o.id,
      email: o.email,
      userId: Number(o.id),
      createdAt: now,
      updatedAt: now,
      archived: false,
    };
  });

  // GET /calling/v1/dispositions: the portal's call outcomes (HubSpot's six defaults here).
  app.get('/calling/v1/dispositions', async () =>
    Object.entries(DISPOSITION_LABELS).map(([id, label]) => ({ id, label, deleted: false })),
  );

  const contactHelpers = registerContactRoutes(app, {
    store,
    patch,
    view,
    objectType,
    error: fail,
  });

  const conversations = registerHubSpotConversations(app, {
    portalId,
    communications: opts.communications ?? true,
    contactExists: (id) => store.get('contacts')!.has(id),
    nextId: () => String(nextId++),
    fail: (status, category, message) => {
      throw new HubSpotError(status, category, message);
    },
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('fake HubSpot did not bind a port');

  return {
    url: `http://127.0.0.1:${address.port}`,
    token,
    requests,
    counters,
    objects: (type) => [...store.get(type)!.values()],
    seedContact: (properties, updatedAt) => {
      const obj = insert('contacts', properties, []);
      if (updatedAt) obj.updatedAt = updatedAt;
      deriveContact(obj);
      // A seeded contact was there long before the test: search already sees it.
      index.wrote(obj, 0);
      return obj.id;
    },
    seedOwner: (email) => {
      const id = String(90_000 + owners.length + 1);
      owners.push({ id, email: email.toLowerCase() });
      return id;
    },
    rateLimitNext: (count, retryAfterSeconds) => {
      rateLimited = count;
      retryAfter = retryAfterSeconds;
    },
    failNext: (method, path, status, count = 1, retryAfterSeconds, message) => {
      failures.push({ method, path, status, count, retryAfter: retryAfterSeconds, message });
    },
    randomFaults: (faults) => {
      random = faults && { ...faults, next: mulberry32(faults.seed ?? 17), served: 0 };
    },
    customProperties: (type) => [...custom.get(type)!],
    ...contactHelpers,
    engagements: conversations.engagements,
    portalId,
    oauth,
    setSearchLag: (ms) => {
      index.lagMs = ms;
    },
    close: () => app.close(),
  };
}
