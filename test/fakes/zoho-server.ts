// A Zoho CRM test server (node:http, in-process, port 0) for the requests callsync makes through the
// official SDK: the accounts server's refresh token grant, the API's field metadata, insert, update,
// delete, search by phone and COQL (zoho-records.ts), each rule from Zoho's documentation:
// - Access tokens live one hour (`expires_in` 3600); a grant with a wrong client or refresh token is
//   answered 200 {"error": "invalid_code"} (https://www.zoho.com/crm/developer/docs/api/v8/refresh.html).
// - A request without a live token: 401 {code: INVALID_TOKEN} (.../v8/status-codes.html).
// - Limits per org (https://www.zoho.com/crm/developer/docs/api/v8/api-limits.html): concurrent requests
//   by edition (Free 5 … Ultimate 25) and API credits per rolling 24 hours (1 credit a request here),
//   either exceeded: 429 {code: TOO_MANY_REQUESTS} with X-RATELIMIT-LIMIT/REMAINING/RESET.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { deleteMany, deletedList, searchEmail, updateMany } from './zoho-bulk';
import { createField, moduleFields, relatedLists } from './zoho-fields';
import { ZohoRecords, type Answer } from './zoho-records';

export interface FakeZohoOptions {
  client: { clientId: string; clientSecret: string; refreshToken: string };
  keyField?: string;
  /** How long after a write the search API sees it (Zoho's search index is not instant). */
  searchLagMs?: number;
  /** Concurrent requests the org's edition allows (Free 5). */
  concurrency?: number;
  /** API credits per rolling 24 hours (Free edition: 5000). */
  creditsPerDay?: number;
  /** How long the server takes to answer a request (so concurrent requests overlap as they do). */
  serviceMs?: number;
  /**
   * The token's scopes include ZohoCRM.settings.fields.CREATE (default true); without it Zoho answers
   * a field create 401 OAUTH_SCOPE_MISMATCH (https://www.zoho.com/crm/developer/docs/api/v8/status-codes.html).
   */
  canCreateFields?: boolean;
}

export interface FakeZoho {
  url: string;
  records: ZohoRecords;
  /**
   * `personWrites`: Contacts and Leads records inserted or updated for clients (each record of a
   * request of several counted once), the contact sync's write count.
   */
  counters: { requests: number; limited: number; grants: number; personWrites: number };
  /** Every API request answered (method, path without the query, status), for benches and tests. */
  requests: { method: string; path: string; status: number }[];
  /** An active CRM user with this e-mail; answers its id. */
  seedUser(email: string): string;
  /** Every access token issued so far stops working. */
  expireTokens(): void;
  /** The org's concurrency limit from now on. */
  setConcurrency(max: number): void;
  close(): Promise<void>;
}

const TOKEN_SECONDS = 3600;
const DAY_MS = 86_400_000;
const error = (code: string, message: string, details: Record<string, unknown> = {}) => ({
  code,
  details,
  message,
  status: 'error',
});

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeZoho(opts: FakeZohoOptions): Promise<FakeZoho> {
  const keyField = opts.keyField ?? 'Callsync_Key';
  const records = new ZohoRecords(keyField, opts.searchLagMs ?? 0);
  const fields = moduleFields(keyField);
  const tokens = new Map<string, number>();
  const counters = { requests: 0, limited: 0, grants: 0, personWrites: 0 };
  const requests: FakeZoho['requests'] = [];
  const credits: number[] = [];
  const users: { id: string; email: string; full_name: string; status: string }[] = [];
  let concurrency = opts.concurrency ?? 5;
  const creditsPerDay = opts.creditsPerDay ?? 5000;
  let inFlight = 0;

  const grant = (form: URLSearchParams): Answer => {
    const { clientId, clientSecret, refreshToken } = opts.client;
    if (form.get('grant_type') !== 'refresh_token')
      return { status: 400, body: { error: 'unsupported_grant_type' } };
    if (form.get('client_id') !== clientId) return { status: 200, body: { error: 'invalid_client' } };
    if (form.get('client_secret') !== clientSecret)
      return { status: 200, body: { error: 'invalid_client_secret' } };
    if (form.get('refresh_token') !== refreshToken) return { status: 200, body: { error: 'invalid_code' } };
    const token = `1000.${randomBytes(16).toString('hex')}`;
    tokens.set(token, Date.now() + TOKEN_SECONDS * 1000);
    counters.grants++;
    return {
      status: 200,
      body: { access_token: token, expires_in: TOKEN_SECONDS, api_domain: url, token_type: 'Bearer' },
    };
  };

  // GET /users?type=ActiveUsers (https://www.zoho.com/crm/developer/docs/api/v8/get-users.html): at
  // most 200 a page, `info.more_records` when there are more.
  const usersPage = (query: URLSearchParams): Answer => {
    const page = Number(query.get('page') ?? 1);
    const perPage = Number(query.get('per_page') ?? 200);
    if (!(perPage >= 1 && perPage <= 200) || !(page >= 1))
      return { status: 400, body: error('INVALID_DATA', 'invalid page or per_page') };
    const type = query.get('type') ?? 'AllUsers';
    const all = users.filter((u) => type !== 'ActiveUsers' || u.status === 'active');
    const slice = all.slice((page - 1) * perPage, page * perPage);
    if (slice.length === 0) return { status: 204, body: null };
    const more = page * perPage < all.length;
    return {
      status: 200,
      body: { users: slice, info: { page, per_page: perPage, count: slice.length, more_records: more } },
    };
  };

  const api = (
    method: string,
    path: string,
    query: URLSearchParams,
    text: string,
    ifModifiedSince?: string,
  ): Answer => {
    const json = (): unknown => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return null;
      }
    };
    if (method === 'GET' && path === '/crm/v8/settings/fields') {
      const list = fields[query.get('module') ?? ''];
      return list
        ? { status: 200, body: { fields: list } }
        : { status: 400, body: error('INVALID_MODULE', 'the module name given seems to be invalid') };
    }
    if (method === 'POST' && path === '/crm/v8/settings/fields') {
      if (opts.canCreateFields === false)
        return { status: 401, body: error('OAUTH_SCOPE_MISMATCH', 'invalid oauth scope to access this URL') };
      return createField(fields, query.get('module') ?? '', json());
    }
    if (method === 'GET' && path === '/crm/v8/settings/related_lists') {
      const module = query.get('module') ?? '';
      return module === 'Contacts' || module === 'Leads'
        ? { status: 200, body: { related_lists: relatedLists(module) } }
        : { status: 400, body: error('INVALID_MODULE', 'the module name given seems to be invalid') };
    }
    const notes = /^\/crm\/v8\/(Contacts|Leads)\/(\d+)\/Notes$/.exec(path);
    if (notes && method === 'GET') return records.relatedNotes(notes[1]!, notes[2]!, query);
    if (method === 'POST' && path === '/crm/v8/coql') return records.coql(json());
    if (method === 'GET' && path === '/crm/v8/users') return usersPage(query);
    const deleted = /^\/crm\/v8\/(\w+)\/deleted$/.exec(path);
    if (deleted && method === 'GET' && records.modules.has(deleted[1]!))
      return deletedList(records, deleted[1]!, query, ifModifiedSince);
    const m = /^\/crm\/v8\/(\w+)(?:\/(search|\d+))?$/.exec(path);
    if (!m || !records.modules.has(m[1]!))
      return {
        status: 404,
        body: error('INVALID_URL_PATTERN', 'Please check if the URL trying to access is a correct one'),
      };
    const [, module, rest] = m as unknown as [string, string, string | undefined];
    // Of search's parameters, `email` is taken before `phone` (search-records.html).
    if (rest === 'search' && method === 'GET' && query.has('email'))
      return searchEmail(records, module, query);
    if (rest === 'search' && method === 'GET') return records.searchPhone(module, query);
    if (rest === undefined && method === 'PUT') return updateMany(records, module, json());
    if (rest === undefined && method === 'DELETE') return deleteMany(records, module, query);
    if (rest === undefined && method === 'POST') return records.insert(module, json());
    if (rest !== undefined && rest !== 'search' && method === 'PUT')
      return records.update(module, rest, json());
    if (rest !== undefined && rest !== 'search' && method === 'DELETE') return records.delete(module, rest);
    return {
      status: 405,
      body: error('INVALID_REQUEST_METHOD', 'The http request method type is not a valid one'),
    };
  };

  const limited = (res: ServerResponse, message: string) => {
    counters.limited++;
    const reset = (credits[0] ?? Date.now()) + DAY_MS;
    res.writeHead(429, {
      'content-type': 'application/json',
      'x-ratelimit-limit': String(creditsPerDay),
      'x-ratelimit-remaining': String(Math.max(0, creditsPerDay - credits.length)),
      'x-ratelimit-reset': String(inFlight > concurrency ? Date.now() + 1000 : reset),
    });
    res.end(JSON.stringify(error('TOO_MANY_REQUESTS', message)));
  };

  const server = createServer((req, res) => {
    void (async () => {
      const text = await bodyOf(req);
      const u = new URL(req.url ?? '/', 'http://x');
      res.on('finish', () =>
        requests.push({ method: req.method ?? 'GET', path: u.pathname, status: res.statusCode }),
      );
      const send = (a: Answer) => {
        if (
          (req.method === 'POST' || req.method === 'PUT') &&
          /^\/crm\/v8\/(Contacts|Leads)(\/\d+)?$/.test(u.pathname)
        ) {
          const data = (a.body as { data?: { status?: unknown }[] } | null)?.data ?? [];
          counters.personWrites += data.filter((d) => d.status === 'success').length;
        }
        if (a.status === 204) return void res.writeHead(204).end();
        res.writeHead(a.status, { 'content-type': 'application/json;charset=utf-8' });
        res.end(JSON.stringify(a.body));
      };
      if (u.pathname === '/oauth/v2/token' && req.method === 'POST')
        return send(grant(new URLSearchParams(text)));
      counters.requests++;
      const auth = /^Zoho-oauthtoken (\S+)$/.exec(req.headers.authorization ?? '');
      const expires = auth ? tokens.get(auth[1]!) : undefined;
      if (expires === undefined || expires <= Date.now())
        return send({ status: 401, body: error('INVALID_TOKEN', 'invalid oauth token') });
      const now = Date.now();
      while (credits.length > 0 && credits[0]! <= now - DAY_MS) credits.shift();
      if (credits.length >= creditsPerDay)
        return limited(res, 'API credits for the last 24 hours are used up');
      inFlight++;
      try {
        if (inFlight > concurrency) return limited(res, 'concurrency limit of the org exceeded');
        credits.push(now);
        await new Promise((r) => setTimeout(r, opts.serviceMs ?? 10));
        const since = req.headers['if-modified-since'];
        send(api(req.method ?? 'GET', u.pathname, u.searchParams, text, since));
      } finally {
        inFlight--;
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the Zoho test server did not bind');
  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    records,
    counters,
    requests,
    seedUser: (email) => {
      const id = String(5_725_767_000_000_000_001n + BigInt(users.length));
      users.push({ id, email, full_name: email.split('@')[0]!, status: 'active' });
      return id;
    },
    expireTokens: () => {
      for (const t of tokens.keys()) tokens.set(t, 0);
    },
    setConcurrency: (max) => {
      concurrency = max;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
