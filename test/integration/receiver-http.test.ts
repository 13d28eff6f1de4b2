// The webhook receiver over real HTTP and a real PostgreSQL: authentication, bad bodies, unknown,
// DTMF and test events, redelivery, the body limit, and group commit under concurrency.
import { randomBytes } from 'node:crypto';
import { connect, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../../lib/logger';
import { buildServerApp } from '../../server/app';
import { InboxRowRejected, InboxWriter } from '../../server/inbox-writer';
import { recordRejected } from '../../server/rejected-store';
import { createWebhookAuthenticator } from '../../server/webhook-auth';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

const SECRET = 'receiver-test-secret-0123456789';
const basic = (password: string): string => `Basic ${Buffer.from(`callsync:${password}`).toString('base64')}`;

let seq = 0;
function callEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  seq++;
  return {
    id: `ev-${process.pid}-${seq}`,
    event_time: '2026-11-30 10:00:00',
    event_name: 'call.ringing',
    call_id: 5000 + seq,
    state: 'RINGING',
    connected_at: null,
    start_time: '2026-11-30 10:00:00',
    context: 'LOCAL_USER',
    destination: 'in',
    src: '+442071234567',
    dst: '101',
    ...overrides,
  };
}

describe('webhook receiver (HTTP + PostgreSQL)', () => {
  let w: MigratedWarehouse;
  let app: FastifyInstance;
  let inbox: InboxWriter;
  let base: string;

  beforeAll(async () => {
    w = await createMigratedWarehouse('receiver_http', 12);
    inbox = new InboxWriter(w.pool, { maxBatch: 500 });
    app = await buildServerApp({
      logger: silentLogger,
      webhooks: {
        authenticate: createWebhookAuthenticator([{ name: 'acme', webhookSecret: SECRET }, { name: 'bare' }]),
        inbox,
        recordRejected: (d) => recordRejected(w.db, d),
        bodyLimit: 64 * 1024,
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await w?.dispose();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const count = async (table: 'webhook_inbox' | 'webhook_rejected'): Promise<number> =>
    Number((await w.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
  const inboxRow = (eventId: string) =>
    w.db.selectFrom('webhook_inbox').selectAll().where('event_id', '=', eventId).executeTakeFirst();

  describe('authentication', () => {
    it('accepts the secret as a path token', async () => {
      const ev = callEvent();
      const res = await post(`/webhooks/acme/${SECRET}`, ev);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'stored' });
      expect(await inboxRow(ev.id as string)).toMatchObject({
        account: 'acme',
        event_name: 'call.ringing',
        call_id: ev.call_id,
        status: 'pending',
        attempts: 0,
        body: ev,
      });
    });

    it('accepts the secret as Basic credentials (credentials in the URL)', async () => {
      const ev = callEvent();
      const res = await post('/webhooks/acme', ev, { authorization: basic(SECRET) });
      expect(res.status).toBe(200);
      expect(await inboxRow(ev.id as string)).toBeDefined();
    });

    it.each([
      ['a wrong path token', '/webhooks/acme/wrong-secret-0000000000', {}],
      ['a wrong Basic password', '/webhooks/acme', { authorization: basic('wrong') }],
      ['no secret', '/webhooks/acme', {}],
      ['an unknown account', `/webhooks/nobody/${SECRET}`, {}],
      ['an account without a secret', '/webhooks/bare/anything-at-all-123', {}],
    ])('answers 401 to %s and stores nothing, bad body or not', async (_what, path, headers) => {
      const inboxBefore = await count('webhook_inbox');
      const rejectedBefore = await count('webhook_rejected');
      for (const body of [callEvent(), '{not json']) {
        const res = await post(path, body, headers);
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({ message: expect.stringContaining('Unauthorized') });
      }
      expect(await count('webhook_inbox')).toBe(inboxBefore);
      expect(await count('webhook_rejected')).toBe(rejectedBefore);
    });
  });

  describe('bodies', () => {
    it.each([
      ['not JSON', '{"id": "x", ', 'body: is not valid JSON', 'body'],
      ['without id', JSON.stringify({ event_name: 'call.ringing', call_id: 1 }), 'id: required', 'id'],
      ['without event_name', JSON.stringify({ id: 'no-name-1' }), 'event_name: required', 'event_name'],
      [
        'a call.hangup without call_id',
        JSON.stringify({ id: 'hangup-no-call', event_name: 'call.hangup', state: 'HANGUP' }),
        'call_id: required',
        'call_id',
      ],
      [
        'an event of a call whose call_id is not a positive integer',
        JSON.stringify({ id: 'xfer-zero', event_name: 'call.transfer', call_id: 0 }),
        'call_id: must be a positive integer',
        'call_id',
      ],
    ])('answers 400 to a body %s, naming the field, and keeps it', async (_what, text, reason, field) => {
      const res = await post('/webhooks/acme', text, { authorization: basic(SECRET), 'x-request-tag': 'r1' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { message: string; errors: Array<{ field: string }> };
      expect(body.message).toContain(reason);
      expect(body.errors.map((e) => e.field)).toContain(field);
      const kept = await w.db
        .selectFrom('webhook_rejected')
        .selectAll()
        .where('body', '=', text)
        .executeTakeFirstOrThrow();
      expect(kept).toMatchObject({ account: 'acme', reason: expect.stringContaining(reason) });
      const headers = kept.headers as Record<string, string>;
      expect(headers['x-request-tag']).toBe('r1');
      expect(Object.keys(headers).map((k) => k.toLowerCase())).not.toContain('authorization');
      expect(JSON.stringify(kept)).not.toContain(SECRET);
    });

    it('stores and acknowledges an event name it does not know', async () => {
      const ev = { id: 'unknown-1', event_name: 'call.sentiment', event_time: '2026-11-30 10:00:00', x: 1 };
      const res = await post(`/webhooks/acme/${SECRET}`, ev);
      expect(res.status).toBe(200);
      expect(await inboxRow('unknown-1')).toMatchObject({
        event_name: 'call.sentiment',
        call_id: null,
        body: ev,
      });
    });

    it('stores a DTMF key press with its call id, and one without a call id as unknown', async () => {
      const ev = callEvent({ event_name: 'call.dtmf', state: 'INITIAL', context: 'IVR', digit: '2' });
      const res = await post(`/webhooks/acme/${SECRET}`, ev);
      expect(res.status).toBe(200);
      expect(await inboxRow(ev.id as string)).toMatchObject({
        event_name: 'call.dtmf',
        call_id: ev.call_id,
        status: 'pending',
        body: ev,
      });
      const orphan = { id: 'dtmf-no-call', event_name: 'call.dtmf', digit: '3' };
      expect((await post(`/webhooks/acme/${SECRET}`, orphan)).status).toBe(200);
      expect(await inboxRow('dtmf-no-call')).toMatchObject({ call_id: null, body: orphan });
    });

    it('acknowledges the test event without storing it', async () => {
      const before = await count('webhook_inbox');
      const res = await post(`/webhooks/acme/${SECRET}`, {
        id: 'f1b0c9de-0000-4000-8000-000000000001',
        event_name: 'webhook.test',
        event_time: '2026-11-30 10:00:00',
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok', test: true });
      expect(await count('webhook_inbox')).toBe(before);
    });

    it('answers a redelivery 2xx and keeps one row', async () => {
      const ev = callEvent();
      const first = await post(`/webhooks/acme/${SECRET}`, ev);
      const again = await post(`/webhooks/acme/${SECRET}`, { ...ev, state: 'CHANGED' });
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(await again.json()).toEqual({ status: 'duplicate' });
      const rows = await w.db
        .selectFrom('webhook_inbox')
        .selectAll()
        .where('event_id', '=', ev.id as string)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.body).toMatchObject({ state: 'RINGING' });
    });

    it('answers 413 to a body over the limit and stores nothing', async () => {
      const before = await count('webhook_inbox');
      const res = await post(`/webhooks/acme/${SECRET}`, callEvent({ info: 'x'.repeat(70 * 1024) }));
      expect(res.status).toBe(413);
      expect(await count('webhook_inbox')).toBe(before);
    });
  });

  describe('group commit', () => {
    it('lets concurrent deliveries share commits and acknowledges only committed events', async () => {
      const events = Array.from({ length: 200 }, () => callEvent());
      const flushesBefore = inbox.stats.flushes;
      // The first commit is held up (a lock on the inbox, as a slow disk would), so the deliveries
      // meet in the queue behind it however slowly a loaded machine sends them. The lock's own
      // transaction is rolled back: it does not count among the commits.
      const blocker = await w.pool.connect();
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE webhook_inbox IN SHARE MODE');
      const sent = Promise.all(events.map((ev) => post(`/webhooks/acme/${SECRET}`, ev)));
      for (let waited = 0; inbox.stats.flushes === flushesBefore && waited < 30_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await blocker.query('ROLLBACK');
      blocker.release();
      const responses = await sent;
      expect(responses.map((r) => r.status)).toEqual(events.map(() => 200));
      const flushes = inbox.stats.flushes - flushesBefore;
      expect(flushes).toBeGreaterThan(0);
      expect(flushes).toBeLessThan(100);
      // PostgreSQL's own view agrees: the rows were written by no more transactions than there were
      // flushes (each row keeps the id of the transaction that inserted it, its xmin; nothing updates
      // them here, no relay runs); a commit per delivery would be 200.
      const { rows } = await w.pool.query<{ event_id: string; xmin: string }>(
        'SELECT event_id, xmin::text AS xmin FROM webhook_inbox WHERE event_id = ANY($1)',
        [events.map((e) => e.id)],
      );
      expect(new Set(rows.map((r) => r.xmin)).size).toBeLessThanOrEqual(flushes);
      expect(rows).toHaveLength(200);
    });

    it('refuses only the body PostgreSQL cannot store, not the deliveries sharing its commit', async () => {
      // JSON.parse accepts a lone surrogate escape; jsonb does not. Sent among good deliveries,
      // it fails their shared commit, which is then retried row by row.
      const good = Array.from({ length: 30 }, () => callEvent());
      const bad = callEvent({ src_name: 'broken \ud800 name' });
      expect(JSON.stringify(bad)).toContain('\\ud800');
      const failedBefore = inbox.stats.failedFlushes;
      const all = [...good.slice(0, 15), bad, ...good.slice(15)];
      const responses = await Promise.all(all.map((ev) => post(`/webhooks/acme/${SECRET}`, ev)));
      const statuses = responses.map((r) => r.status);
      expect(statuses[15]).toBe(400);
      expect(statuses.filter((s) => s === 200)).toHaveLength(30);
      expect(inbox.stats.failedFlushes).toBeGreaterThan(failedBefore);
      const body = (await responses[15]!.json()) as { message: string; errors: Array<{ field: string }> };
      expect(body.message).toContain('cannot be stored');
      expect(body.errors.map((e) => e.field)).toEqual(['body']);
      expect(await inboxRow(bad.id as string)).toBeUndefined();
      const kept = await w.db
        .selectFrom('webhook_rejected')
        .select('reason')
        .where('body', '=', JSON.stringify(bad))
        .executeTakeFirstOrThrow();
      expect(kept.reason).toContain('cannot be stored');
      const { rows } = await w.pool.query<{ event_id: string; src: string }>(
        "SELECT event_id, body->>'src' AS src FROM webhook_inbox WHERE event_id = ANY($1)",
        [good.map((e) => e.id)],
      );
      expect(rows).toHaveLength(30);
      expect(rows.every((r) => r.src === '+442071234567')).toBe(true);
    });

    it('answers 503 to every request of a commit that failed, so the platform delivers again', async () => {
      const events = Array.from({ length: 5 }, () => callEvent());
      // PostgreSQL itself refuses the commit: the table is briefly renamed away.
      await w.pool.query('ALTER TABLE webhook_inbox RENAME TO webhook_inbox_away');
      let responses: Response[];
      try {
        responses = await Promise.all(events.map((ev) => post(`/webhooks/acme/${SECRET}`, ev)));
      } finally {
        await w.pool.query('ALTER TABLE webhook_inbox_away RENAME TO webhook_inbox');
      }
      expect(responses.map((r) => r.status)).toEqual(events.map(() => 503));
      expect(responses[0]!.headers.get('retry-after')).toBe('1');
      const again = await Promise.all(events.map((ev) => post(`/webhooks/acme/${SECRET}`, ev)));
      expect(again.map((r) => r.status)).toEqual(events.map(() => 200));
    });
  });

  describe('poison bodies', () => {
    it('refuses a very long id (400 naming id) and a body nested too deep, keeps them, and fails no neighbour', async () => {
      const good = Array.from({ length: 40 }, () => callEvent());
      const longId = callEvent({ id: `long-${'x'.repeat(10_000)}` });
      const deepText = JSON.stringify(callEvent()).replace(
        /}$/,
        `,"n":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      );
      const responses = await Promise.all([
        ...good.slice(0, 20).map((ev) => post(`/webhooks/acme/${SECRET}`, ev)),
        post(`/webhooks/acme/${SECRET}`, longId),
        post(`/webhooks/acme/${SECRET}`, deepText),
        ...good.slice(20).map((ev) => post(`/webhooks/acme/${SECRET}`, ev)),
      ]);
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(40);
      expect([statuses[20], statuses[21]]).toEqual([400, 400]);
      const longBody = (await responses[20]!.json()) as { message: string; errors: Array<{ field: string }> };
      expect(longBody.errors.map((e) => e.field)).toEqual(['id']);
      expect(longBody.message).toContain('id: is longer than 255 characters');
      const deepBody = (await responses[21]!.json()) as { message: string };
      expect(deepBody.message).toContain('nested deeper');
      const kept = await w.db
        .selectFrom('webhook_rejected')
        .select(['reason', 'body'])
        .where('body', 'like', '%long-xxxx%')
        .executeTakeFirstOrThrow();
      expect(kept.reason).toContain('id:');
      const { rows } = await w.pool.query('SELECT 1 FROM webhook_inbox WHERE event_id = ANY($1)', [
        good.map((e) => e.id),
      ]);
      expect(rows).toHaveLength(40);
    });

    it('stores a string holding the escaped text \\u0000 (not a NUL character)', async () => {
      const ev = callEvent({ info: 'C:\\u0000\\dir' });
      const res = await post(`/webhooks/acme/${SECRET}`, ev);
      expect(res.status).toBe(200);
      expect(await inboxRow(ev.id as string)).toMatchObject({ body: { info: 'C:\\u0000\\dir' } });
    });

    it('isolates rows PostgreSQL refuses (index row too large, JSON too deep) inside the writer itself', async () => {
      const writer = new InboxWriter(w.pool, { maxBatch: 100 });
      const entry = (eventId: string, body: string) => ({
        account: 'acme',
        eventId,
        eventName: 'call.hold',
        callId: 1,
        body,
      });
      const good = Array.from({ length: 30 }, (_, i) => entry(`iso-${process.pid}-${i}`, '{"a":1}'));
      const tooLongKey = entry(`iso-long-${randomBytes(4000).toString('hex')}`, '{"a":1}'); // incompressible;
      const tooDeep = entry(`iso-deep-${process.pid}`, `${'['.repeat(30_000)}${']'.repeat(30_000)}`);
      const results = await Promise.allSettled(
        [...good.slice(0, 15), tooLongKey, tooDeep, ...good.slice(15)].map((e) => writer.write(e)),
      );
      const rejected = results.filter((r) => r.status === 'rejected');
      expect(rejected).toHaveLength(2);
      for (const r of rejected) expect(r.reason).toBeInstanceOf(InboxRowRejected);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(30);
      // The bad rows were isolated by halving, not by storing everything one by one.
      expect(writer.stats.flushes).toBeLessThan(32);
    });
  });

  describe('secrets', () => {
    it('keeps no trace of the secret in a refused delivery: path headers redacted, secret blanked', async () => {
      const res = await post(`/webhooks/acme/${SECRET}`, '{"id":"redact-1"', {
        'x-forwarded-uri': `/webhooks/acme/${SECRET}`,
        'x-original-uri': `/webhooks/acme/${SECRET}`,
        'x-envoy-original-path': `/webhooks/acme/${SECRET}?a=1`,
        referer: `https://hooks.example.com/webhooks/acme/${SECRET}`,
        'x-debug-url': `https://proxy/webhooks/acme/${SECRET}`,
        'x-note': `token ${SECRET} here`,
        'x-request-tag': 'kept',
      });
      expect(res.status).toBe(400);
      expect(await res.text()).not.toContain(SECRET);
      const kept = await w.db
        .selectFrom('webhook_rejected')
        .selectAll()
        .where('body', '=', '{"id":"redact-1"')
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(kept)).not.toContain(SECRET);
      const headers = kept.headers as Record<string, string>;
      expect(headers['x-forwarded-uri']).toBe('[redacted]');
      expect(headers['x-envoy-original-path']).toBe('[redacted]');
      expect(headers['referer']).toBe('[redacted]');
      expect(headers['x-request-tag']).toBe('kept');
    });

    it('blanks the secret of Basic credentials wherever a header quotes it', async () => {
      const res = await post('/webhooks/acme', '{"id":"redact-2"', {
        authorization: basic(SECRET),
        'x-debug': `password was ${SECRET}`,
      });
      expect(res.status).toBe(400);
      const kept = await w.db
        .selectFrom('webhook_rejected')
        .selectAll()
        .where('body', '=', '{"id":"redact-2"')
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(kept)).not.toContain(SECRET);
      expect((kept.headers as Record<string, string>)['x-debug']).toBe('password was [redacted]');
    });

    it.each([
      ['an unknown route under the secret', `/webhooks/acme/${SECRET}/extra`],
      ['a malformed URL holding the secret', `/webhooks/acme/${SECRET}%E0%A4%A`],
    ])('does not echo the path in the error body of %s', async (_what, path) => {
      const res = await post(path, callEvent());
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      const text = await res.text();
      expect(text).not.toContain(SECRET);
      expect(JSON.parse(text)).toMatchObject({ message: expect.any(String), errors: [] });
    });
  });
});

describe('webhook receiver timeouts', () => {
  let app: FastifyInstance;
  let port: number;
  let w: MigratedWarehouse;

  beforeAll(async () => {
    w = await createMigratedWarehouse('receiver_timeouts', 2);
    app = await buildServerApp({
      logger: silentLogger,
      requestTimeoutMs: 1500,
      webhooks: {
        authenticate: createWebhookAuthenticator([{ name: 'acme', webhookSecret: SECRET }]),
        inbox: new InboxWriter(w.pool),
        recordRejected: (d) => recordRejected(w.db, d),
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
    await w?.dispose();
  });

  /** Opens a raw connection, sends `head`, then one byte every 100 ms; resolves with ms until the server closed it. */
  function trickle(head: string, opts: { trickle: boolean }): Promise<{ ms: number; answer: string }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      let answer = '';
      const socket = connect(port, '127.0.0.1', () => socket.write(head));
      const timer = opts.trickle ? setInterval(() => socket.write('x'), 100) : undefined;
      const giveUp = setTimeout(() => {
        socket.destroy();
        reject(new Error('the server did not cut the client off within 10 s'));
      }, 10_000);
      socket.on('data', (d) => (answer += d.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        clearTimeout(giveUp);
        resolve({ ms: Date.now() - started, answer });
      });
    });
  }

  const head = (path: string) =>
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000\r\n\r\n{"id":`;

  it('cuts off a client that sends its body too slowly', async () => {
    const { ms } = await trickle(head(`/webhooks/acme/${SECRET}`), { trickle: true });
    expect(ms).toBeLessThan(5000);
  }, 15_000);

  it('cuts off a client whose headers stall', async () => {
    const { ms } = await trickle(`POST /webhooks/acme/${SECRET} HTTP/1.1\r\nHost: x\r\n`, { trickle: false });
    expect(ms).toBeLessThan(5000);
  }, 15_000);

  it('answers 401 and cuts off a client still sending after it', async () => {
    const { ms, answer } = await trickle(head('/webhooks/acme/wrong-secret-0000000000'), { trickle: true });
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(ms).toBeLessThan(1500);
  }, 15_000);
});
