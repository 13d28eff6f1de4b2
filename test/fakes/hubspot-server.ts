// A local HubSpot for tests: the CRM v3 endpoints callsync's HubSpot connector calls through the
// official client (objects create/update/search and batch create/read/update for calls, tasks and
// contacts; property and property-group creation; owners), validating what HubSpot requires and
// answering errors in HubSpot's format. It enforces a Professional private app's documented limits
// (190 requests per rolling 10 seconds, 5 searches per second, 100 inputs per batch) with HubSpot's
// 429 body and X-HubSpot-RateLimit-* headers. In-memory; `requests`, `counters` and `objects()` let
// tests and benches assert on what was sent.
// The resources are in files of their own: hubspot-records.ts (object endpoints), hubspot-search.ts
// (search), hubspot-properties.ts (properties, owners, dispositions), hubspot-limits.ts (rate limits),
// hubspot-contacts.ts, hubspot-conversations.ts and hubspot-oauth.ts; this file holds the server, its
// shared state, authentication, injected faults and the wiring of the limits.
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { mulberry32 } from '../../lib/seeded-random';
import { deriveContact, registerContactRoutes, type FakeHubSpotContacts } from './hubspot-contacts';
import { countLimited, newCounters, type LimitCounters } from './vendor-limits';
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
import type { FakeObject, HubSpotLimits, HubSpotState, ObjectType } from './hubspot-objects';
import { DEFAULT_SEARCH_LAG_MS, SearchIndex } from './hubspot-search-index';
import { HubSpotError, fail } from './hubspot-errors';
import { PROFESSIONAL_LIMITS, hubSpotLimiter, rateLimitBody } from './hubspot-limits';
import { propertyChecks, registerPropertyRoutes } from './hubspot-properties';
import { recordHelpers, registerRecordRoutes } from './hubspot-records';
import { registerSearchBodyParser, registerSearchRoute } from './hubspot-search';

export { PROFESSIONAL_LIMITS } from './hubspot-limits';
export { SEARCH_BODY_CHARS } from './hubspot-search';

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
  /** From now on allows `per10Seconds` requests per rolling 10 seconds (a lower tier), counted afresh. */
  setRateLimit(per10Seconds: number): void;
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
/** A Professional private app's documented limits; tests may lower them. */
export type { HubSpotLimits } from './hubspot-objects';
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
  let limiter = hubSpotLimiter(limits, counters);
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
  const s: HubSpotState = {
    store,
    custom,
    unique,
    groups,
    owners,
    index,
    limits,
    newId: () => String(nextId++),
    requireScope,
  };
  const { known, validateProperties } = propertyChecks(s);
  const records = recordHelpers(s);
  const { insert, patch, view, objectType } = records;

  const app = Fastify({ logger: false, bodyLimit: 5 * 1024 * 1024 });
  // JSON bodies keep their length as sent, for search's body limit (hubspot-search.ts).
  registerSearchBodyParser(app);

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
    return limiter(req, reply);
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

  registerRecordRoutes(app, s, records, validateProperties);
  registerSearchRoute(app, s, known, records);
  registerPropertyRoutes(app, s, objectType, known);

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
    setRateLimit: (per10Seconds) => {
      limits.per10Seconds = per10Seconds;
      limiter = hubSpotLimiter(limits, counters);
    },
    close: () => app.close(),
  };
}
