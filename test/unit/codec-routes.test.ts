import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import Fastify, { type FastifyInstance } from 'fastify';
import { parseConfig } from '../../config/load';
import { silentLogger } from '../../lib/logger';
import { lagSeconds, createMetrics, recordApiRequest, statusClass } from '../../lib/metrics';
import { AesGcmPayloadCodec } from '../../lib/payload-codec';
import { isLoopbackHost, serverObservability } from '../../runtime/server-observability';
import { bearerMatches, registerCodecRoutes, toJsonPayload } from '../../server/codec-routes';

const TOKEN = 'a-codec-token-of-some-length';
const codec = new AesGcmPayloadCodec([{ id: 'k1', key: randomBytes(32) }], 'k1');

describe('codec endpoint', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await registerCodecRoutes(app, {
      codec,
      token: TOKEN,
      corsOrigins: ['http://localhost:8233'],
      logger: silentLogger,
    });
  });
  afterAll(() => app.close());

  const call = (op: string, body: unknown, token = TOKEN) =>
    app.inject({
      method: 'POST',
      url: `/codec/${op}`,
      headers: { authorization: `Bearer ${token}` },
      payload: body as object,
    });

  it('encodes and decodes per the remote codec protocol', async () => {
    const plain = toJsonPayload(defaultPayloadConverter.toPayload({ number: '+442079460555' }));
    const enc = await call('encode', { payloads: [plain] });
    expect(enc.statusCode).toBe(200);
    const encrypted = enc.json<{ payloads: { metadata: Record<string, string>; data: string }[] }>()
      .payloads[0]!;
    expect(Buffer.from(encrypted.metadata.encoding!, 'base64').toString()).toBe('binary/encrypted');
    expect(Buffer.from(encrypted.metadata['encryption-key-id']!, 'base64').toString()).toBe('k1');
    expect(Buffer.from(encrypted.data, 'base64').toString()).not.toContain('2079460555');
    const dec = await call('decode', { payloads: [encrypted] });
    expect(dec.json()).toEqual({ payloads: [plain] });
  });

  it('answers 401 without the token, 400 naming the field for a bad body or an unknown key', async () => {
    expect((await call('decode', { payloads: [] }, 'nope')).statusCode).toBe(401);
    const bad = await call('decode', { payloads: [{ data: 'not base64!' }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('Bad request: payloads.0.data: must be base64');
    const other = new AesGcmPayloadCodec([{ id: 'k2', key: randomBytes(32) }], 'k2');
    const [foreign] = await other.encode([defaultPayloadConverter.toPayload(1)]);
    const res = await call('decode', { payloads: [toJsonPayload(foreign!)] });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain(
      'key "k2", which is not in temporal.encryption.keys',
    );
  });

  it('compares the bearer token exactly', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
    expect(bearerMatches(`Basic ${TOKEN}`, TOKEN)).toBe(false);
  });
});

describe('serverObservability', () => {
  const base = {
    accounts: [
      {
        name: 'a',
        platform: { baseUrl: 'http://x', credentials: { type: 'apiKey', userId: 1, apiKey: 'k' } },
      },
    ],
  };
  const encryption = { keys: [{ id: 'k', key: randomBytes(32).toString('base64') }], activeKeyId: 'k' };

  it('serves the codec endpoint only with encryption, and only behind a token off loopback', () => {
    expect(serverObservability(parseConfig(base)).codecOff).toMatch(/temporal.encryption is not set/);
    const loop = serverObservability(parseConfig({ ...base, temporal: { encryption } }));
    expect(loop.codec).toBeDefined();
    const open = serverObservability(
      parseConfig({ ...base, temporal: { encryption }, server: { host: '0.0.0.0' } }),
    );
    expect(open.codec).toBeUndefined();
    expect(open.codecOff).toBe('server.codec.token is not set and server.host is 0.0.0.0');
    const guarded = serverObservability(
      parseConfig({
        ...base,
        temporal: { encryption },
        server: { host: '0.0.0.0', codec: { token: TOKEN } },
      }),
    );
    expect(guarded.codec?.token).toBe(TOKEN);
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('::1')).toBe(true);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
  });
});

describe('metric helpers', () => {
  it('classes statuses and counts 429s and failures per vendor', async () => {
    expect(statusClass(204)).toBe('2xx');
    expect(statusClass(undefined)).toBe('error');
    const m = createMetrics();
    for (const s of [200, 429, 503, undefined]) recordApiRequest('hubspot', s, m);
    const value = async (c: { get(): Promise<{ values: { labels: object; value: number }[] }> }) =>
      (await c.get()).values.reduce((n, v) => n + v.value, 0);
    expect(await value(m.apiRequests)).toBe(4);
    expect(await value(m.apiThrottled)).toBe(1);
    expect(await value(m.apiErrors)).toBe(2);
  });

  it('reads the lag of a platform timestamp', () => {
    const now = Date.parse('2026-11-30T10:00:00Z');
    expect(lagSeconds('2026-11-30 09:59:00', now)).toBe(60);
    expect(lagSeconds('2026-11-30T09:59:30Z', now)).toBe(30);
    expect(lagSeconds(null, now)).toBeUndefined();
    expect(lagSeconds('not a time', now)).toBeUndefined();
  });
});
