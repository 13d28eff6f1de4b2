// A local Zendesk Support account for tests (node:http, in-process, port 0): the requests callsync's
// Zendesk connector makes through node-zendesk — users (search by phone, search by e-mail, create,
// delete, permanent delete), tickets (create, show, update, delete, permanent delete, list by
// external_id) — and the OAuth refresh grant; for the contact sync (zendesk-contacts.ts) the users
// list, the Incremental User Export, user updates and user fields, bulk user writes as jobs
// (zendesk-jobs.ts).
// Each rule cites its documentation page where it is enforced: zendesk-tickets.ts (validation, closed
// tickets, the per-ticket update limit, page sizes), zendesk-users.ts (users, the phone search syntax),
// zendesk-oauth.ts (token lifetimes and the refresh grant); deleted tickets and users stay until
// deleted permanently (deleted_tickets, deleted_users); and here:
//   - authentication: Basic `{email}/token:{api_token}` or a Bearer OAuth access token, else 401
//     `{"error":"Couldn't authenticate you"}` (https://developer.zendesk.com/api-reference/introduction/security-and-auth/);
//   - the account's request limit per minute by plan (Team 200 by default), 429 with Retry-After
//     beyond it, and the x-rate-limit / ratelimit-* headers on every answer
//     (https://developer.zendesk.com/api-reference/introduction/rate-limits/). The window is a rolling
//     60 seconds: stricter than Zendesk's minute, never kinder.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countLimited, newCounters, type LimitCounters } from './vendor-limits';
import { FakeContacts, type FakeUserField } from './zendesk-contacts';
import { FakeJobs } from './zendesk-jobs';
import { FakeZendeskOAuth, type ZendeskOAuthSettings } from './zendesk-oauth';
import { FakeTickets } from './zendesk-tickets';
import { FakeUsers } from './zendesk-users';
import {
  newState,
  ticketJson,
  userJson,
  ZendeskFakeError,
  notFound,
  type FakeTicket,
  type FakeUser,
  type UserRole,
} from './zendesk-state';

export type { FakeTicket, FakeUser } from './zendesk-state';
export type { FakeUserField } from './zendesk-contacts';

/** Which create's answer to lose: a ticket by its callsync tag, or a user. */
export type LostKind = 'callLog' | 'task' | 'message' | 'contact';

export interface FakeZendeskOptions {
  subdomain?: string;
  /** The account's plan limit, requests per minute (Team: 200). */
  requestsPerMinute?: number;
  oauth?: Partial<ZendeskOAuthSettings>;
  /** How long users created through the API stay out of search (Zendesk: "up to a few minutes"). */
  searchLagMs?: number;
  /** How long a change stays out of the incremental export (Zendesk: a minute; zendesk-contacts.ts). */
  exportExcludesMs?: number;
  /** How long a bulk job (create_many, update_many) stays queued (zendesk-jobs.ts). */
  jobDelayMs?: number;
}

export interface FakeZendesk {
  /** Origin to give the connector as baseUrl. */
  url: string;
  subdomain: string;
  /** The admin the API token belongs to. */
  admin: { id: number; email: string; apiToken: string };
  oauth: FakeZendeskOAuth;
  counters: LimitCounters;
  requests: { method: string; path: string; query: string; status: number }[];
  seedUser(input: {
    name: string;
    email?: string | null;
    phone?: string | null;
    role?: UserRole;
    updatedAt?: string;
    notes?: string | null;
  }): FakeUser;
  /** The user fields the account has (POST /api/v2/user_fields). */
  userFields(): FakeUserField[];
  /** Users created or updated for clients so far, each user of a bulk job once. */
  userWrites(): number;
  /** An agent changed this user in Zendesk's UI (after editing its fields): updated_at moves. */
  userChanged(user: FakeUser): void;
  users(): FakeUser[];
  /** Tickets not deleted, with their comments. */
  tickets(): FakeTicket[];
  /** The next create of this kind is done, then its connection destroyed before the answer. */
  loseNextAnswer(kind: LostKind): void;
  /** Changes the account limit (tests: small, over a short window). */
  setRateLimit(max: number, windowMs?: number): void;
  close(): Promise<void>;
}

const TAG_OF: Record<Exclude<LostKind, 'contact'>, string[]> = {
  callLog: ['callsync_call'],
  task: ['callsync_callback'],
  message: ['callsync_sms', 'callsync_voicemail'],
};

/** The account's window: at most `max` requests in any `windowMs`; Retry-After is when a place frees. */
class AccountWindow {
  private readonly times: number[] = [];

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  private prune(now: number): void {
    while (this.times.length > 0 && this.times[0]! <= now - this.windowMs) this.times.shift();
  }

  take(now = Date.now()): boolean {
    this.prune(now);
    if (this.times.length >= this.max) return false;
    this.times.push(now);
    return true;
  }

  remaining(now = Date.now()): number {
    this.prune(now);
    return Math.max(0, this.max - this.times.length);
  }

  /** Whole seconds until the oldest request leaves the window (Zendesk's Retry-After is in seconds). */
  retryAfterSeconds(now = Date.now()): number {
    this.prune(now);
    const oldest = this.times[0];
    return oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  if (chunks.length === 0) return null;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ZendeskFakeError(400, {
      error: 'InvalidJSON',
      description: 'The request body is not valid JSON',
    });
  }
}

export async function startFakeZendesk(opts: FakeZendeskOptions = {}): Promise<FakeZendesk> {
  const subdomain = opts.subdomain ?? 'acme';
  const state = newState();
  const users = new FakeUsers(state, opts.searchLagMs ?? 0);
  const tickets = new FakeTickets(state);
  const contacts = new FakeContacts(state, opts.exportExcludesMs);
  let userWrites = 0;
  const jobs = new FakeJobs(opts.jobDelayMs ?? 100, () => void userWrites++);
  const oauth = new FakeZendeskOAuth(opts.oauth);
  const counters = newCounters();
  const requests: FakeZendesk['requests'] = [];
  const lose = new Set<LostKind>();
  let limit = new AccountWindow(opts.requestsPerMinute ?? 200, 60_000);
  // "You can make up to 10 requests per minute to these endpoints", besides the account's limit
  // (https://developer.zendesk.com/api-reference/ticketing/ticket-management/incremental_exports/#rate-limits).
  const exportLimit = new AccountWindow(10, 60_000);
  const adminUser = users.add({ name: 'Callsync Admin', email: 'admin@acme.example', role: 'admin' });
  const admin = { id: adminUser.id, email: adminUser.email!, apiToken: 'zd-api-token-1' };
  let origin = '';

  const authenticate = (req: IncomingMessage): boolean => {
    const header = req.headers.authorization ?? '';
    if (header.startsWith('Bearer ')) return oauth.valid(header.slice(7));
    if (header.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      return decoded === `${admin.email}/token:${admin.apiToken}`;
    }
    return false;
  };

  const rateHeaders = (): Record<string, string> => {
    const now = Date.now();
    const remaining = String(limit.remaining(now));
    const reset = String(limit.retryAfterSeconds(now));
    return {
      'x-rate-limit': String(limit.max),
      'ratelimit-limit': String(limit.max),
      'x-rate-limit-remaining': remaining,
      'ratelimit-remaining': remaining,
      'ratelimit-reset': reset,
    };
  };

  /** The lost kind a create answers for, if its answer is to be lost. */
  const lostKindOf = (created: { tags?: string[] } | 'user'): LostKind | null => {
    if (created === 'user') return lose.has('contact') ? 'contact' : null;
    for (const [kind, tags] of Object.entries(TAG_OF) as [LostKind, string[]][])
      if (lose.has(kind) && tags.some((t) => created.tags?.includes(t))) return kind;
    return null;
  };

  const route = async (
    req: IncomingMessage,
    url: URL,
  ): Promise<{ status: number; body: unknown; lost?: LostKind | null }> => {
    const method = req.method ?? 'GET';
    const path = url.pathname.replace(/\.json$/, '');
    const q = url.searchParams;
    if (method === 'POST' && path === '/oauth/tokens')
      return { status: 200, body: oauth.grant(await readJson(req)) };
    if (!path.startsWith('/api/v2/'))
      throw new ZendeskFakeError(404, { error: 'InvalidEndpoint', description: 'Not found' });
    if (!authenticate(req)) throw new ZendeskFakeError(401, { error: "Couldn't authenticate you" });
    if (!limit.take()) {
      countLimited(counters, 'ACCOUNT_MINUTE');
      throw new ZendeskFakeError(
        429,
        { error: 'APIRateLimitExceeded', description: 'Number of allowed API requests per minute exceeded' },
        { 'Retry-After': String(limit.retryAfterSeconds()) },
      );
    }
    if (path.startsWith('/api/v2/incremental/') && !exportLimit.take()) {
      countLimited(counters, 'INCREMENTAL_EXPORT_MINUTE');
      throw new ZendeskFakeError(
        429,
        {
          error: 'APIRateLimitExceeded',
          description: 'Number of allowed incremental export API requests per minute exceeded',
        },
        { 'Retry-After': String(exportLimit.retryAfterSeconds()) },
      );
    }
    const parts = path.split('/').slice(3);
    if (method === 'GET' && parts[0] === 'job_statuses' && parts.length === 2)
      return { status: 200, body: jobs.show(parts[1]!) };
    const id = parts[1] !== undefined && /^\d+$/.test(parts[1]) ? Number(parts[1]) : null;
    const key = `${method} ${parts[0]}${parts.length > 1 ? (id !== null ? '/:id' : `/${parts[1]}`) : ''}`;
    switch (key) {
      case 'GET search':
        return { status: 200, body: users.search(q) };
      case 'GET users/search':
        return { status: 200, body: users.searchUsers(q) };
      case 'GET users/show_many':
        return { status: 200, body: users.showMany(q) };
      case 'GET users':
        return { status: 200, body: contacts.list(q, origin) };
      case 'PUT users/:id': {
        const u = contacts.update(id!, await readJson(req));
        userWrites++;
        return { status: 200, body: { user: userJson(u) } };
      }
      case 'POST users/create_many': {
        const writes = FakeJobs.users(await readJson(req)).map((user) => () => {
          const u = users.create({ user });
          contacts.setUserFields(u, { user });
          contacts.changed(u);
          return u;
        });
        return { status: 200, body: jobs.queue('Created', writes), lost: lostKindOf('user') };
      }
      case 'PUT users/update_many': {
        const writes = FakeJobs.users(await readJson(req)).map(({ id: userId, ...user }) => () => {
          if (typeof userId !== 'number') throw notFound();
          return contacts.update(userId, { user });
        });
        return { status: 200, body: jobs.queue('Updated', writes) };
      }
      case 'GET incremental/users':
        if (parts[2] !== 'cursor' || parts.length !== 3)
          throw new ZendeskFakeError(404, { error: 'InvalidEndpoint', description: 'Not found' });
        return { status: 200, body: contacts.exportCursor(q, origin) };
      case 'GET user_fields':
        return { status: 200, body: contacts.listFields() };
      case 'POST user_fields':
        return { status: 201, body: { user_field: contacts.createField(await readJson(req)) } };
      case 'GET users/me':
        return { status: 200, body: { user: userJson(adminUser) } };
      case 'POST users': {
        const body = await readJson(req);
        const u = users.create(body);
        contacts.setUserFields(u, body);
        contacts.changed(u);
        userWrites++;
        return { status: 201, body: { user: userJson(u) }, lost: lostKindOf('user') };
      }
      case 'GET users/:id':
        return { status: 200, body: { user: userJson(users.show(id!)) } };
      case 'DELETE users/:id':
        return { status: 200, body: users.delete(id!) };
      case 'GET tickets':
        return { status: 200, body: tickets.list(q, origin) };
      case 'POST tickets': {
        const t = tickets.create(await readJson(req), admin.id);
        return { status: 201, body: { ticket: ticketJson(t) }, lost: lostKindOf(t) };
      }
      case 'GET tickets/:id':
        return { status: 200, body: tickets.show(id!) };
      case 'PUT tickets/:id': {
        const t = tickets.update(id!, await readJson(req), admin.id);
        return { status: 200, body: { ticket: ticketJson(t) } };
      }
      case 'DELETE deleted_users/:id':
        return { status: 200, body: users.deletePermanently(id!) };
      case 'DELETE deleted_tickets/:id':
        return { status: 200, body: tickets.deletePermanently(id!) };
      case 'DELETE tickets/:id':
        tickets.delete(id!);
        return { status: 204, body: null };
      default:
        throw new ZendeskFakeError(404, { error: 'InvalidEndpoint', description: 'Not found' });
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    counters.requests++;
    let status: number;
    let body: unknown;
    let headers: Record<string, string> = {};
    try {
      const out = await route(req, url);
      if (out.lost) {
        // The object is committed; the client never hears so.
        lose.delete(out.lost);
        requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.search, status: 0 });
        req.socket.destroy();
        return;
      }
      ({ status, body } = out);
    } catch (err) {
      if (!(err instanceof ZendeskFakeError)) throw err;
      ({ status, body, headers } = err);
    }
    requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.search, status });
    if (url.pathname.startsWith('/api/v2/')) headers = { ...rateHeaders(), ...headers };
    if (body === null) {
      res.writeHead(status, headers).end();
      return;
    }
    res
      .writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8' })
      .end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: String(err) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    subdomain,
    admin,
    oauth,
    counters,
    requests,
    seedUser: (input) => users.add(input),
    users: () => [...state.users.values()],
    userFields: () => contacts.userFields,
    userWrites: () => userWrites,
    userChanged: (user) => contacts.changed(user),
    tickets: () => [...state.tickets.values()].filter((t) => !t.deleted),
    loseNextAnswer: (kind) => void lose.add(kind),
    setRateLimit: (max, windowMs = 60_000) => {
      limit = new AccountWindow(max, windowMs);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
