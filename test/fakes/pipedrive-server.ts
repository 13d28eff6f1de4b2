// A local Pipedrive for tests: the endpoints callsync's Pipedrive connector calls (pipedrive-routes.ts),
// its authentication, limits and OAuth token endpoint, on node:http at an ephemeral port.
//
// Authentication (https://pipedrive.readme.io/docs/core-api-concepts-authentication): a personal API
// token in the x-api-token header (or the api_token query parameter), or an OAuth access token as a
// Bearer. A missing or unknown token is a 401 `{ success: false, error: "unauthorized access" }`.
// OAuth (https://pipedrive.readme.io/docs/marketplace-oauth-authorization): POST /oauth/token with
// the app's client id and secret as Basic auth and grant_type=refresh_token issues an access token
// that expires after expires_in = 3599 seconds, with the same refresh token; an unknown refresh token
// or client is a 401 `{ success: false, message, error: "invalid_grant" | "invalid_client" }`.
// Limits: pipedrive-limits.ts.
//
// The tests' handle: seed persons and users, read what the fake holds, lose the next answer of a
// create (the object is committed, the socket destroyed before the answer), expire every access
// token, count 429s, tighten the burst limit.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PipedriveLimits } from './pipedrive-limits';
import { countLimited, newCounters, type LimitCounters } from './vendor-limits';
import { newState, PipedriveFakeError, type FakePerson, type PipedriveState } from './pipedrive-records';
import { route } from './pipedrive-routes';

/** Access tokens' lifetime, seconds (the token answer's expires_in). */
export const ACCESS_TOKEN_SECONDS = 3599;

export interface FakePipedrive {
  /** Origin for the connector's apiUrl (and oauthUrl). */
  url: string;
  apiToken: string;
  oauthClient: { clientId: string; clientSecret: string; refreshToken: string };
  state: PipedriveState;
  limits: PipedriveLimits;
  /** Refresh grants answered. */
  refreshes: number;
  /** Every API request (not the token endpoint's) with the status answered (0: answer lost). */
  requests: { method: string; path: string; status: number }[];
  /** Requests answered, and those refused with a 429 by policy (burst, search, daily). */
  counters: LimitCounters;
  seedPerson(p: { name: string; phones: string[]; ownerId?: number; updatedAt?: string }): number;
  seedUser(email: string, name?: string): number;
  /** The next request matching `method path` (and `when`, on its JSON body) is carried out and its answer lost. */
  loseNextAnswer(method: string, path: string, when?: (body: Record<string, unknown>) => boolean): void;
  /** Every access token issued so far stops working. */
  expireTokens(): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export interface FakePipedriveOptions {
  /** The company's daily token budget (default a one-seat Lite company's 30,000). */
  dailyTokens?: number;
}

export async function startFakePipedrive(opts: FakePipedriveOptions = {}): Promise<FakePipedrive> {
  const apiToken = 'pd-api-token-0001';
  const oauthClient = { clientId: 'pd-client', clientSecret: 'pd-secret', refreshToken: 'pd-refresh-0001' };
  const accessTokens = new Map<string, number>();
  const lose: { method: string; path: string; when: (b: Record<string, unknown>) => boolean }[] = [];
  let issued = 0;

  const fake: FakePipedrive = {
    url: '',
    apiToken,
    oauthClient,
    state: newState(),
    limits: new PipedriveLimits(opts.dailyTokens),
    refreshes: 0,
    requests: [],
    counters: newCounters(),
    seedPerson(p) {
      const id = fake.state.nextId++;
      const at = p.updatedAt ?? new Date().toISOString();
      const person: FakePerson = {
        id,
        name: p.name,
        phones: p.phones.map((value, i) => ({ value, primary: i === 0, label: 'work' })),
        emails: [],
        custom_fields: {},
        owner_id: p.ownerId ?? fake.state.apiUserId,
        add_time: at,
        update_time: at,
      };
      fake.state.persons.set(id, person);
      return id;
    },
    seedUser(email, name = email) {
      const id = fake.state.nextId++;
      fake.state.users.set(id, { id, email, name, active_flag: true });
      return id;
    },
    loseNextAnswer(method, path, when = () => true) {
      lose.push({ method, path, when });
    },
    expireTokens() {
      for (const t of accessTokens.keys()) accessTokens.set(t, 0);
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  async function oauthToken(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const [id, secret] = basic ? Buffer.from(basic[1]!, 'base64').toString().split(':') : [];
    if (id !== oauthClient.clientId || secret !== oauthClient.clientSecret)
      return send(res, 401, { success: false, message: 'Invalid client', error: 'invalid_client' });
    const form = new URLSearchParams(raw);
    if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== oauthClient.refreshToken)
      return send(res, 401, { success: false, message: 'Invalid grant', error: 'invalid_grant' });
    fake.refreshes++;
    const token = `pd-access-${++issued}`;
    accessTokens.set(token, Date.now() + ACCESS_TOKEN_SECONDS * 1000);
    await Promise.resolve();
    send(res, 200, {
      access_token: token,
      token_type: 'Bearer',
      refresh_token: oauthClient.refreshToken,
      scope: 'base,contacts:full,activities:full,users:read,search:read',
      expires_in: ACCESS_TOKEN_SECONDS,
      api_domain: fake.url,
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const raw = await readBody(req);
    if (method === 'POST' && path === '/oauth/token') return oauthToken(req, res, raw);
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      fake.requests.push({ method, path, status });
      fake.counters.requests++;
      send(res, status, body, headers);
    };
    const refuse = (err: PipedriveFakeError, headers: Record<string, string> = {}) =>
      reply(err.status, err.body(), headers);
    // Authentication: the API token, or an OAuth access token that has not expired.
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const key = req.headers['x-api-token'] ?? url.searchParams.get('api_token');
    const oauth = bearer !== undefined;
    const token = oauth ? bearer : typeof key === 'string' ? key : undefined;
    const valid = oauth ? (accessTokens.get(bearer) ?? 0) > Date.now() : token === apiToken;
    if (!token || !valid) return refuse(new PipedriveFakeError(401, 'unauthorized access'));
    const verdict = fake.limits.take(token, oauth, method, path);
    if (!verdict.ok) {
      countLimited(fake.counters, verdict.policy);
      return refuse(new PipedriveFakeError(429, 'Request over limit'), verdict.headers);
    }
    const handler = route(method, path);
    if (!handler) return refuse(new PipedriveFakeError(404, 'Unknown method'), verdict.headers);
    let body: Record<string, unknown> = {};
    if (raw !== '') {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return refuse(new PipedriveFakeError(400, 'Invalid JSON'), verdict.headers);
      }
    }
    try {
      const answer = handler(fake.state, { method, path, query: url.searchParams, body });
      const lost = lose.findIndex((l) => l.method === method && l.path === path && l.when(body));
      if (lost >= 0) {
        lose.splice(lost, 1);
        // Carried out, never answered: status 0.
        fake.requests.push({ method, path, status: 0 });
        req.socket.destroy();
        return;
      }
      reply(method === 'POST' ? 201 : 200, answer, verdict.headers);
    } catch (err) {
      if (!(err instanceof PipedriveFakeError)) throw err;
      refuse(err, verdict.headers);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      send(res, 500, { success: false, error: err instanceof Error ? err.message : String(err) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
