import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import Fastify, { type FastifyInstance } from 'fastify';
import { parseTestConfig } from '../support/test-config';
import { silentLogger } from '../../lib/logger';
import { lagSeconds, createMetrics, recordApiRequest, statusClass } from '../../lib/metrics';
import { AesGcmPayloadCodec } from '../../lib/payload-codec';
import { codecToken, isLoopbackHost, serverObservability } from '../../runtime/server-observability';
import { bearerMatches, hostAllowed, registerCodecRoutes, toJsonPayload } from '../../server/codec-routes';

const TOKEN = 'a-codec-token-of-some-length';
const codec = new AesGcmPayloadCodec([{ id: 'k1', key: randomBytes(32) }], 'k1');

describe('codec endpoint', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await registerCodecRoutes(app, {
      codec,
      token: TOKEN,
      allowedHosts: ['codec.internal.example'],
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

  it('answers 401 to a request without a token, loopback or not (nothing is open by default)', async () => {
    const none = await app.inject({ method: 'POST', url: '/codec/decode', payload: { payloads: [] } });
    expect(none.statusCode).toBe(401);
    expect((await call('encode', { payloads: [] }, '')).statusCode).toBe(401);
  });

  it('answers 403 to a request addressed to a foreign Host (DNS rebinding), token or not', async () => {
    const to = (host: string, token = TOKEN) =>
      app.inject({
        method: 'POST',
        url: '/codec/decode',
        headers: { host, authorization: `Bearer ${token}` },
        payload: { payloads: [] },
      });
    expect((await to('attacker.example:8788')).statusCode).toBe(403);
    expect((await to('attacker.example')).statusCode).toBe(403);
    expect((await to('localhost.attacker.example:8788')).statusCode).toBe(403);
    expect((await to('127.0.0.1:8788')).statusCode).toBe(200);
    expect((await to('[::1]:8788')).statusCode).toBe(200);
    expect((await to('localhost')).statusCode).toBe(200);
    expect((await to('codec.internal.example:443')).statusCode).toBe(200);
    expect((await to('CODEC.internal.example')).statusCode).toBe(200);
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/codec/decode',
      headers: {
        host: 'attacker.example',
        origin: 'http://localhost:8233',
        'access-control-request-method': 'POST',
      },
    });
    expect(preflight.statusCode).toBe(403);
    expect(hostAllowed(undefined)).toBe(false);
    expect(hostAllowed('localhost:8788 evil')).toBe(false);
  });

  it('lets a browser signed in at /codec/login decode with its cookie (the Temporal UI), not with a wrong token', async () => {
    const form = (token: string) =>
      app.inject({
        method: 'POST',
        url: '/codec/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token }).toString(),
      });
    const wrong = await form('not-the-token-at-all');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const ok = await form(TOKEN);
    expect(ok.statusCode).toBe(200);
    const cookie = String(ok.headers['set-cookie']);
    expect(cookie).toMatch(/^callsync_codec=[0-9a-f]{64}; Path=\/codec; HttpOnly; SameSite=Strict/);
    expect(cookie).not.toContain(TOKEN);
    const decode = (c: string) =>
      app.inject({ method: 'POST', url: '/codec/decode', headers: { cookie: c }, payload: { payloads: [] } });
    expect((await decode(cookie.split(';')[0]!)).statusCode).toBe(200);
    expect((await decode('callsync_codec=0000')).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/codec/login' })).statusCode).toBe(200);
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

  it('serves the codec endpoint only with encryption and a token, on loopback too', () => {
    expect(() => serverObservability(parseTestConfig(base))).toThrow(/temporal.encryption: is not set/);
    const off = serverObservability(parseTestConfig({ ...base, temporal: { encryption: 'off' } }));
    expect(off.codecOff).toMatch(/temporal.encryption is "off"/);
    const loop = serverObservability(parseTestConfig({ ...base, temporal: { encryption } }));
    expect(loop.codec).toBeUndefined();
    expect(loop.codecOff).toBe(
      'server.codec.token (or tokenFile) is not set (the codec endpoint needs its bearer token)',
    );
    const guarded = serverObservability(
      parseTestConfig({
        ...base,
        temporal: { encryption },
        server: { host: '0.0.0.0', codec: { token: TOKEN, hosts: ['callsync.example.com'] } },
      }),
    );
    expect(guarded.codec?.token).toBe(TOKEN);
    expect(guarded.codec?.allowedHosts).toEqual(['callsync.example.com']);
    const named = serverObservability(
      parseTestConfig({
        ...base,
        temporal: { encryption },
        server: { host: '10.0.0.5', codec: { token: TOKEN } },
      }),
    );
    expect(named.codec?.allowedHosts).toEqual(['10.0.0.5']);
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('::1')).toBe(true);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
  });

  it('serves /metrics on its own port, or on the receiver port behind a token, never open there', () => {
    const withEnc = { ...base, temporal: { encryption } };
    const none = serverObservability(parseTestConfig(withEnc));
    expect(none.metricsEndpoint).toBeUndefined();
    expect(none.metricsOff).toMatch(/neither metrics.serverPort nor metrics.token/);
    const own = serverObservability(
      parseTestConfig({ ...withEnc, metrics: { serverPort: 9466, host: '0.0.0.0' } }),
    );
    expect(own.metricsEndpoint).toEqual({ port: 9466, host: '0.0.0.0', token: undefined });
    const guarded = serverObservability(parseTestConfig({ ...withEnc, metrics: { token: TOKEN } }));
    expect(guarded.metricsEndpoint).toEqual({ token: TOKEN });
    const off = serverObservability(
      parseTestConfig({ ...withEnc, metrics: { enabled: false, token: TOKEN } }),
    );
    expect(off.metricsEndpoint).toBeUndefined();
  });

  it('reads the token from server.codec.tokenFile; errors name the setting', () => {
    const read = ((path: string) => {
      if (path === '/run/secrets/codec') return `${TOKEN}\n`;
      if (path === '/short') return 'short\n';
      throw Object.assign(new Error('nope'), { code: 'ENOENT' });
    }) as never;
    expect(codecToken({ tokenFile: '/run/secrets/codec' }, read)).toBe(TOKEN);
    expect(() => codecToken({ tokenFile: '/missing' }, read)).toThrow(
      'server.codec.tokenFile: cannot read /missing (ENOENT)',
    );
    expect(() => codecToken({ tokenFile: '/short' }, read)).toThrow(
      'server.codec.tokenFile: /short must hold a token of at least 16 characters',
    );
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
