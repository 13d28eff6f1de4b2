// Temporal's remote codec server protocol on callsync's HTTP server: POST /codec/encode and
// /codec/decode take `{payloads: [{metadata: {k: base64}, data: base64}]}` and answer the same shape,
// so the Temporal UI and `temporal workflow show --codec-endpoint` can show encrypted histories.
// It decrypts on request, so it is guarded: a bearer token on every request (constant-time compare;
// loopback is no protection: a web page reaches it by DNS rebinding, a reverse proxy on the host
// exposes it), the Host header checked against the names it is served under (a rebound page's
// requests carry the attacker's host name), and CORS for the configured UI origins only.
import { createHmac, timingSafeEqual } from 'node:crypto';
import cors from '@fastify/cors';
import type { Payload, PayloadCodec } from '@temporalio/common';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Logger } from '../lib/logger';
import { errorBody } from './webhook-routes';

export interface CodecRoutesOptions {
  codec: PayloadCodec;
  /** Bearer token every request must carry. */
  token: string;
  /**
   * Host names (without port) requests may be addressed to, besides the loopback names (localhost,
   * 127.0.0.1, ::1): the server's public name behind a reverse proxy.
   */
  allowedHosts?: readonly string[] | undefined;
  /** Origins (e.g. the Temporal UI's http://localhost:8233) allowed to call from a browser. */
  corsOrigins: readonly string[];
  logger: Logger;
}

/** One payload as the codec protocol carries it (proto3 JSON: bytes as base64). */
const jsonPayload = z.object({
  metadata: z.record(z.string(), z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64')).nullish(),
  data: z
    .string()
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64')
    .nullish(),
});

/** The request and response body of both endpoints. */
export const codecBodySchema = z.object({ payloads: z.array(jsonPayload) });
type JsonPayload = z.infer<typeof jsonPayload>;

/** Protocol JSON to a Payload. */
export function fromJsonPayload(p: JsonPayload): Payload {
  return {
    metadata: Object.fromEntries(
      Object.entries(p.metadata ?? {}).map(([k, v]) => [k, new Uint8Array(Buffer.from(v, 'base64'))]),
    ),
    data: new Uint8Array(Buffer.from(p.data ?? '', 'base64')),
  };
}

/** A Payload to protocol JSON. */
export function toJsonPayload(p: Payload): { metadata: Record<string, string>; data: string } {
  return {
    metadata: Object.fromEntries(
      Object.entries(p.metadata ?? {}).map(([k, v]) => [
        k,
        Buffer.from(v ?? new Uint8Array()).toString('base64'),
      ]),
    ),
    data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
  };
}

/** True when `header` is `Bearer <token>` (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!.trim());
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/** Name of the cookie a browser signed in at /codec/login carries (the Temporal UI's credentials). */
export const CODEC_COOKIE = 'callsync_codec';

/** The cookie's value: derived from the token (the token itself never goes into a cookie). */
export function codecCookieValue(token: string): string {
  return createHmac('sha256', token).update('callsync codec session').digest('hex');
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** True when the Cookie header carries the codec cookie of `token`. */
export function cookieMatches(header: string | undefined, token: string): boolean {
  for (const part of (header ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === CODEC_COOKIE && constantTimeEqual(rest.join('='), codecCookieValue(token))) return true;
  }
  return false;
}

const LOGIN_PAGE = (note: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>callsync codec sign-in</title></head>
<body><h1>callsync codec endpoint</h1><p>${note}</p>
<form method="post" action="/codec/login"><label>Codec token <input type="password" name="token" autocomplete="off" required></label>
<button type="submit">Sign in</button></form></body></html>`;

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** The host name of a Host header (`name:port`, `[v6]:port`), lower-cased, or undefined. */
export function hostName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const h = header.trim().toLowerCase();
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(h);
  if (v6) return v6[1];
  const m = /^([^:\s/]+)(?::\d+)?$/.exec(h);
  return m?.[1];
}

/** True when a Host header names loopback or one of `allowed` (any port). */
export function hostAllowed(header: string | undefined, allowed: readonly string[] = []): boolean {
  const name = hostName(header);
  if (name === undefined) return false;
  return (
    LOOPBACK_NAMES.includes(name) ||
    /^127\.\d+\.\d+\.\d+$/.test(name) ||
    allowed.some((a) => a.toLowerCase() === name)
  );
}

/** Registers /codec/encode and /codec/decode in their own scope (CORS applies to them only). */
export async function registerCodecRoutes(app: FastifyInstance, opts: CodecRoutesOptions): Promise<void> {
  await app.register(async (scope) => {
    // Before CORS, so that a preflight to a foreign Host is refused too.
    scope.addHook('onRequest', async (req, reply) => {
      if (!hostAllowed(req.headers.host, opts.allowedHosts)) {
        opts.logger.warn({ ip: req.ip, path: req.url }, 'codec request for a foreign Host refused');
        return reply
          .code(403)
          .send(
            errorBody('Forbidden: Host is not one the codec endpoint is served under (server.codec.hosts)'),
          );
      }
    });
    await scope.register(cors, {
      origin: [...opts.corsOrigins],
      methods: ['POST', 'OPTIONS'],
      // The UI sends the namespace, and the user's token when "pass access token" is on.
      allowedHeaders: ['content-type', 'x-namespace', 'authorization'],
      credentials: true,
      maxAge: 600,
    });
    scope.addHook('onRequest', async (req, reply) => {
      if (req.method === 'OPTIONS' || req.url.split('?')[0] === '/codec/login') return;
      // The CLI sends the token; the Temporal UI sends the cookie set at /codec/login
      // ("Include cross-origin credentials").
      if (
        !bearerMatches(req.headers.authorization, opts.token) &&
        !cookieMatches(req.headers.cookie, opts.token)
      ) {
        opts.logger.warn({ ip: req.ip, path: req.url }, 'codec request without the right bearer token');
        await reply.code(401).send(errorBody('Unauthorized: the codec endpoint needs its bearer token'));
      }
    });
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    const page = (reply: FastifyReply, status: number, note: string) =>
      reply
        .code(status)
        .header('content-security-policy', "default-src 'none'; form-action 'self'")
        .header('x-frame-options', 'DENY')
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(LOGIN_PAGE(note));
    // A browser signs in once with the token; the cookie then lets the Temporal UI decode.
    scope.get('/codec/login', async (_req, reply) =>
      page(reply, 200, 'Sign in with the codec token, then give the Temporal UI this endpoint.'),
    );
    scope.post('/codec/login', async (req, reply) => {
      const given = (req.body as { token?: unknown } | undefined)?.token;
      if (typeof given !== 'string' || !constantTimeEqual(given.trim(), opts.token)) {
        opts.logger.warn({ ip: req.ip }, 'codec sign-in with a wrong token');
        return page(reply, 401, 'That is not the codec token.');
      }
      void reply.header(
        'set-cookie',
        `${CODEC_COOKIE}=${codecCookieValue(opts.token)}; Path=/codec; HttpOnly; SameSite=Strict; Max-Age=${12 * 3600}`,
      );
      return page(reply, 200, 'Signed in: the Temporal UI on this machine can now decode (for 12 hours).');
    });
    for (const op of ['encode', 'decode'] as const) {
      scope.post(`/codec/${op}`, { bodyLimit: 16 * 1024 * 1024 }, async (req, reply) => {
        const parsed = codecBodySchema.safeParse(req.body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          return reply
            .code(400)
            .send(errorBody(`Bad request: ${issue.path.join('.') || 'body'}: ${issue.message}`));
        }
        try {
          const payloads = parsed.data.payloads.map(fromJsonPayload);
          const out = op === 'encode' ? await opts.codec.encode(payloads) : await opts.codec.decode(payloads);
          return { payloads: out.map(toJsonPayload) };
        } catch (err) {
          // The codec's errors name a key id at most, never content.
          return reply.code(400).send(errorBody(`Cannot ${op}: ${(err as Error).message}`));
        }
      });
    }
  });
}
