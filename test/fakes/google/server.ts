// A local Google for tests: the documented Drive v3 and Sheets v4 endpoints callsync calls through
// the official clients (pointed here with `rootUrl`), the OAuth token endpoint at /token (the key's
// token_uri; oauth.ts), Bearer tokens verified as issued access tokens or self-signed service account
// JWTs, errors in Google's shape. Modules add APIs (see router.ts); tests add faults.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import { driveModule, FakeDriveState } from './drive';
import {
  badRequest,
  GoogleApiError,
  googleErrorBody,
  Router,
  type FakeRequest,
  type FakeResponse,
} from './router';
import { FakeGoogleOAuth } from './oauth';
import { FakeSheetsState, sheetsModule } from './sheets';

export interface RecordedGoogleRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  bytes: number;
}

/** Shared state every module may use. */
export interface FakeGoogleContext {
  drive: FakeDriveState;
  sheets: FakeSheetsState;
  /** The server's root URL, with a trailing slash. */
  url: () => string;
}

export interface FakeGoogle extends FakeGoogleContext {
  /** Root URL to give the clients (`rootUrl`), with a trailing slash. */
  rootUrl: string;
  /**
   * A service account key whose public half the server trusts (JSON, as Google issues it), its
   * token_uri this server's token endpoint.
   */
  serviceAccountJson: string;
  /** The token endpoint: lifetimes, delegation, the exchanges made, revocation. */
  oauth: FakeGoogleOAuth;
  router: Router;
  requests: RecordedGoogleRequest[];
  /** The next `count` requests matching method and path (a regex on the path) fail with this status. */
  failNext(method: string, path: RegExp, status: number, count?: number, reason?: string): void;
  close(): Promise<void>;
}

interface Fault {
  method: string;
  path: RegExp;
  status: number;
  count: number;
  reason: string;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, out: FakeResponse): number {
  const headers: Record<string, string> = { ...out.headers };
  let payload: Buffer | undefined;
  if (Buffer.isBuffer(out.body)) payload = out.body;
  else if (out.body !== undefined) {
    payload = Buffer.from(JSON.stringify(out.body));
    headers['Content-Type'] ??= 'application/json; charset=UTF-8';
  }
  headers['Content-Length'] = String(payload?.length ?? 0);
  res.writeHead(out.status, headers);
  res.end(payload);
  return out.status;
}

/** Starts the server on a free local port, with a fresh service account key pair. */
export async function startFakeGoogle(
  options: { clientEmail?: string; modules?: ((router: Router, ctx: FakeGoogleContext) => void)[] } = {},
): Promise<FakeGoogle> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientEmail = options.clientEmail ?? 'reports@callsync-test.iam.gserviceaccount.com';
  let rootUrl = '';
  const oauth = new FakeGoogleOAuth(clientEmail, publicKey, () => `${rootUrl}token`);
  const ctx: FakeGoogleContext = {
    drive: new FakeDriveState(),
    sheets: new FakeSheetsState(),
    url: () => rootUrl,
  };
  const router = new Router();
  driveModule(router, ctx);
  sheetsModule(router, ctx);
  for (const mod of options.modules ?? []) mod(router, ctx);
  const requests: RecordedGoogleRequest[] = [];
  const faults: Fault[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://fake.google');
    const body = await readBody(req);
    const method = req.method ?? 'GET';
    let status: number;
    try {
      if (method === 'POST' && url.pathname === '/token') {
        status = send(res, oauth.exchange(body, req.headers['content-type']));
        requests.push({ method, path: url.pathname, query: {}, status, bytes: body.length });
        return;
      }
      const identity = oauth.authenticate(req.headers.authorization);
      const fault = faults.find((f) => f.method === method && f.path.test(url.pathname) && f.count > 0);
      if (fault) {
        fault.count -= 1;
        throw new GoogleApiError(
          fault.status,
          STATUS_NAMES[fault.status] ?? 'UNKNOWN',
          `Injected ${fault.status}`,
          fault.reason,
        );
      }
      const hit = router.match(method, url.pathname);
      if (!hit) throw new GoogleApiError(404, 'NOT_FOUND', `No route: ${method} ${url.pathname}`, 'notFound');
      const request: FakeRequest = {
        method,
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        identity,
        params: hit.params,
        json<T>() {
          try {
            return JSON.parse(body.toString('utf8') || '{}') as T;
          } catch {
            throw badRequest('Invalid JSON payload received.', 'parseError');
          }
        },
      };
      status = send(res, await hit.route.handler(request));
    } catch (err) {
      if (!(err instanceof GoogleApiError)) {
        status = send(res, {
          status: 500,
          body: { error: { code: 500, message: String(err), status: 'INTERNAL' } },
        });
      } else {
        status = send(res, { status: err.code, headers: err.extraHeaders, body: googleErrorBody(err) });
      }
    }
    requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      status,
      bytes: body.length,
    });
  };

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  rootUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const serviceAccountJson = JSON.stringify({
    type: 'service_account',
    project_id: 'callsync-test',
    private_key_id: 'test-key-1',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
    client_id: '1000000000001',
    token_uri: `${rootUrl}token`,
  });
  return {
    ...ctx,
    rootUrl,
    serviceAccountJson,
    oauth,
    router,
    requests,
    failNext(
      method,
      path,
      status,
      count = 1,
      reason = status === 429 ? 'rateLimitExceeded' : 'backendError',
    ) {
      faults.push({ method, path, status, count, reason });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
