// The emulator's HTTP server: the platform API under /v1.1/voipstudio and /v1.2/voipstudio, control
// endpoints under /_emulator/, CORS, fault injection, authentication and the platform's error bodies.
import cors from '@fastify/cors';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticate, missingToken, readCredential } from './auth/credentials';
import type { EmulatorContext } from './context';
import { registerControlRoutes, type EmulatorControls } from './control';
import './fastify-types';
import { errorEntries, HttpError } from './http-error';
import { API_PREFIXES, templateRegExp, toRouterPath } from './paths';
import type { ApiCall, ApiResponse, RouteDef } from './route-def';
import { emulatorRoutes } from './routes';
import { bodyJson } from './row-json';

/** Largest accepted request body (voicemail announcements carry Base64 audio). */
const BODY_LIMIT = 32 * 1024 * 1024;

/** The emulator's server and the stateful parts behind its control endpoints. */
export interface EmulatorServer extends EmulatorControls {
  app: FastifyInstance;
}

/** Builds (but does not start) the emulator's fastify server over a context. */
export async function buildEmulatorServer(ctx: EmulatorContext): Promise<EmulatorServer> {
  // Request logging is off (info level is dropped): pages of 5000 rows are served often, and headers
  // carry credentials.
  const logger: FastifyBaseLogger = ctx.logger.child({ module: 'emulator-server' }, { level: 'warn' });
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: BODY_LIMIT,
    routerOptions: { maxParamLength: 10_000 },
  });
  app.decorateRequest('identity', undefined);
  acceptAnyBodyAsJson(app);
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'X-Auth-Token', 'Content-Type'],
    exposedHeaders: ['Retry-After', 'Content-Length', 'Content-Type'],
    maxAge: 600,
  });
  app.addHook('onRequest', (req, reply) => apiGate(ctx, req, reply));
  // drop_response faults: the handler has run; the connection closes instead of the answer.
  app.addHook('onSend', async (req, _reply, payload) => {
    if (droppedResponses.has(req)) req.raw.socket.destroy();
    return payload;
  });
  app.setErrorHandler((err, _req, reply) => sendError(ctx, reply, err));
  const routes = emulatorRoutes();
  const patterns = routes.map((def) => ({ method: def.method, pattern: templateRegExp(def.template) }));
  app.setNotFoundHandler((req, reply) => notFoundOrNotAllowed(patterns, req, reply));
  for (const def of routes) {
    for (const prefix of API_PREFIXES) mountRoute(app, ctx, def, prefix);
  }
  const controls = registerControlRoutes(app, ctx);
  return { app, ...controls };
}

/** Every body is parsed as JSON whatever its content type; a body that is not JSON is a 400. */
function acceptAnyBodyAsJson(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new HttpError(400, 'Validation failed', ['body: is not valid JSON']), undefined);
    }
  });
}

/** Requests whose response a drop_response fault swallows. */
const droppedResponses = new WeakSet<FastifyRequest>();

/** onRequest for API routes: count it, apply injected faults, then authenticate. */
async function apiGate(ctx: EmulatorContext, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { routeKey, auth } = req.routeOptions.config;
  if (routeKey === undefined) return;
  ctx.stats.record(routeKey);
  const effect = ctx.faults.decide(routeKey);
  if (effect) {
    if (effect.latencyMs > 0) await sleep(effect.latencyMs);
    if (effect.reset) {
      reply.hijack();
      req.raw.socket.destroy();
      return;
    }
    if (effect.dropResponse) droppedResponses.add(req);
    if (effect.expireToken) {
      const cred = readCredential(req.headers);
      if (cred) ctx.sessions.destroy(cred.secret);
    }
    if (effect.status) {
      const { code, retryAfterS } = effect.status;
      const headers: Record<string, string> =
        retryAfterS === undefined ? {} : { 'retry-after': String(retryAfterS) };
      throw new HttpError(code, STATUS_CODES[code] ?? 'Error', ['fault injected by the emulator'], headers);
    }
  }
  if (auth === 'none') return;
  const cred = readCredential(req.headers);
  if (!cred) {
    if (auth === 'optional') return;
    throw missingToken();
  }
  req.identity = authenticate(cred, ctx.sessions, ctx.store.accounts, (secret, userId) =>
    ctx.apiTokens.identify(secret, userId),
  );
}

function mountRoute(app: FastifyInstance, ctx: EmulatorContext, def: RouteDef, prefix: string): void {
  app.route({
    method: def.method,
    url: prefix + toRouterPath(def.template),
    config: { routeKey: `${def.method} ${def.template}`, auth: def.auth },
    handler: async (req, reply) => {
      const call: ApiCall = {
        ctx,
        identity: req.identity,
        params: req.params as Record<string, string>,
        query: req.query as Record<string, unknown>,
        body: req.body,
        baseUrl: `${req.protocol}://${req.host}${prefix}`,
      };
      let res: ApiResponse;
      if (def.auth === 'required') {
        const identity = call.identity;
        if (!identity) throw missingToken();
        res = await def.handle({ ...call, identity });
      } else {
        res = await def.handle(call);
      }
      return sendResponse(reply, res);
    },
  });
}

/** Collection bodies larger than this are streamed from the row texts' slabs rather than copied. */
const STREAM_ABOVE_BYTES = 256 * 1024;

/** Writes a handler's response; a collection's rows are written from their kept text. */
function sendResponse(reply: FastifyReply, res: ApiResponse): FastifyReply {
  switch (res.kind) {
    case 'json': {
      if (res.headers) reply.headers(res.headers);
      reply.code(res.status).type('application/json; charset=utf-8');
      const json = bodyJson(res.body);
      if (typeof json === 'string') return reply.send(json);
      // A collection's bytes, from the kept row texts. A small one (a lookup, a live page) is sent as
      // one buffer, as a string was; a large one is streamed from the slabs as it is.
      const length = json.reduce((n, part) => n + part.length, 0);
      if (length <= STREAM_ABOVE_BYTES) return reply.send(Buffer.concat(json, length));
      return reply.header('content-length', length).send(Readable.from(json, { objectMode: false }));
    }
    case 'bytes':
      return reply
        .code(res.status)
        .type(res.contentType)
        .header('content-length', res.bytes.length)
        .send(res.bytes);
    case 'stream':
      return reply
        .code(res.status)
        .type(res.contentType)
        .header('content-length', res.length)
        .send(res.open());
    case 'empty':
      return reply.code(res.status).send();
  }
}

/** Every error is `{message, errors}` JSON. */
function sendError(ctx: EmulatorContext, reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof HttpError) {
    reply.headers(err.headers);
    return reply.code(err.status).send({ message: err.message, errors: errorEntries(err.errors) });
  }
  const status = (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Framework errors (body too large, malformed URL…): client errors, reported in the platform's shape.
    const code = (err as { code?: unknown }).code;
    return reply.code(status === 415 ? 400 : status).send({
      message: (err as Error).message,
      errors: typeof code === 'string' ? errorEntries([code]) : [],
    });
  }
  ctx.logger.error({ err }, 'emulator request failed');
  return reply.code(500).send({ message: 'Internal server error', errors: [] });
}

/** 405 (with Allow) when the path exists for other methods, 404 otherwise; both as JSON error bodies. */
function notFoundOrNotAllowed(
  patterns: readonly { method: string; pattern: RegExp }[],
  req: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const path = req.url.split('?')[0] ?? '';
  const prefix = API_PREFIXES.find((p) => path.startsWith(`${p}/`));
  if (prefix) {
    const rel = path.slice(prefix.length);
    const allowed = [...new Set(patterns.filter((r) => r.pattern.test(rel)).map((r) => r.method))];
    if (allowed.length > 0) {
      return reply
        .code(405)
        .header('allow', [...allowed, 'OPTIONS'].join(', '))
        .send({
          message: 'Method not allowed',
          errors: [{ field: 'method', message: `${req.method} ${rel}: allowed ${allowed.join(', ')}` }],
        });
    }
  }
  return reply.code(404).send({
    message: 'Not found',
    errors: [{ field: 'path', message: `${req.method} ${path}: no such endpoint` }],
  });
}
