// Temporal's remote codec server protocol on callsync's HTTP server: POST /codec/encode and
// /codec/decode take `{payloads: [{metadata: {k: base64}, data: base64}]}` and answer the same shape,
// so the Temporal UI and `temporal workflow show --codec-endpoint` can show encrypted histories.
// It decrypts on request, so it is guarded: a bearer token (constant-time compare) and CORS for the
// configured UI origins only.
import { timingSafeEqual } from 'node:crypto';
import cors from '@fastify/cors';
import type { Payload, PayloadCodec } from '@temporalio/common';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Logger } from '../lib/logger';
import { errorBody } from './webhook-routes';

export interface CodecRoutesOptions {
  codec: PayloadCodec;
  /** Bearer token every request must carry; none: no check (allowed on a loopback interface only). */
  token?: string | undefined;
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

/** Registers /codec/encode and /codec/decode in their own scope (CORS applies to them only). */
export async function registerCodecRoutes(app: FastifyInstance, opts: CodecRoutesOptions): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(cors, {
      origin: [...opts.corsOrigins],
      methods: ['POST', 'OPTIONS'],
      // The UI sends the namespace, and the user's token when "pass access token" is on.
      allowedHeaders: ['content-type', 'x-namespace', 'authorization'],
      credentials: true,
      maxAge: 600,
    });
    scope.addHook('onRequest', async (req, reply) => {
      if (req.method === 'OPTIONS' || opts.token === undefined) return;
      if (!bearerMatches(req.headers.authorization, opts.token)) {
        opts.logger.warn({ ip: req.ip, path: req.url }, 'codec request without the right bearer token');
        await reply.code(401).send(errorBody('Unauthorized: the codec endpoint needs its bearer token'));
      }
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
