// A local Google for tests of callsync's Google apps destinations: one HTTP server carrying the
// Tasks, Speech-to-Text and Natural Language modules (test/fakes/google/*.ts), authenticating each
// request's bearer token as Google does for a service account's self-signed JWT (signature, expiry),
// answering errors in Google's JSON shape, with injectable faults and a request log.
import Fastify, { type FastifyRequest } from 'fastify';
import { GoogleApiError, googleErrorBody } from './api-error';
import { registerLanguage, type FakeLanguage } from './language';
import { testServiceAccount, type TestServiceAccount } from './service-account';
import { registerSpeech, type FakeSpeech } from './speech';
import { registerTasks, type FakeTasks } from './tasks';

export interface RecordedGoogleRequest {
  method: string;
  path: string;
  user: string;
  body: unknown;
  status: number;
}

export interface FakeGoogleApps {
  /** Origin to use as the clients' rootUrl / apiEndpoint. */
  url: string;
  /** The service account whose tokens the server accepts. */
  serviceAccount: TestServiceAccount;
  requests: RecordedGoogleRequest[];
  tasks: FakeTasks;
  speech: FakeSpeech;
  language: FakeLanguage;
  /** The next `count` requests whose method matches and whose path starts with `pathPrefix` get `status`. */
  failNext(
    method: string,
    pathPrefix: string,
    status: number,
    count?: number,
    retryAfterSeconds?: number,
  ): void;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    googleUser?: string;
  }
}

/** Starts the local Google on a free port of 127.0.0.1. */
export async function startFakeGoogleApps(): Promise<FakeGoogleApps> {
  const serviceAccount = testServiceAccount();
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
  const requests: RecordedGoogleRequest[] = [];
  const faults: { method: string; prefix: string; status: number; left: number; retryAfter?: number }[] = [];

  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0]!;
    const fault = faults.find((f) => f.left > 0 && f.method === req.method && path.startsWith(f.prefix));
    if (fault) {
      fault.left -= 1;
      if (fault.retryAfter !== undefined) void reply.header('retry-after', String(fault.retryAfter));
      return reply.code(fault.status).send(googleErrorBody(fault.status, 'Injected fault'));
    }
    const auth = req.headers.authorization ?? '';
    const claims = auth.startsWith('Bearer ') ? serviceAccount.verify(auth.slice(7)) : null;
    if (!claims) {
      return reply
        .code(401)
        .send(
          googleErrorBody(
            401,
            'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
          ),
        );
    }
    req.googleUser = String(claims.sub ?? claims.iss);
  });
  app.addHook('onResponse', async (req, reply) => {
    requests.push({
      method: req.method,
      path: req.url.split('?')[0]!,
      user: req.googleUser ?? '',
      body: req.body,
      status: reply.statusCode,
    });
  });
  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof GoogleApiError)
      return reply.code(err.code).send(googleErrorBody(err.code, err.message, err.reason));
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    return reply.code(status).send(googleErrorBody(status, err instanceof Error ? err.message : String(err)));
  });

  const userOf = (req: FastifyRequest) => req.googleUser ?? '';
  const tasks = registerTasks(app, userOf);
  const speech = registerSpeech(app);
  const language = registerLanguage(app);

  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    serviceAccount,
    requests,
    tasks,
    speech,
    language,
    failNext(method, pathPrefix, status, count = 1, retryAfterSeconds) {
      faults.push({
        method,
        prefix: pathPrefix,
        status,
        left: count,
        ...(retryAfterSeconds !== undefined ? { retryAfter: retryAfterSeconds } : {}),
      });
    },
    close: () => app.close(),
  };
}
