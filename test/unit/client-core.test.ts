// The request core: URL and headers, retries with backoff, Retry-After, error mapping, timeouts,
// envelopes, binary streams, deletes and the 301 of PATCH /calls/{id}; all on a fake fetch.
import { text } from 'node:stream/consumers';
import {
  BadRequestError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  PlatformError,
  RateLimitedError,
  SchemaError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../../connectors/platform';
import { API_KEY, basic, json, single, testClient } from './client-fakes';
import { eventually } from '../support/eventually';

const cdr = { id: 7, calldate: '2026-10-01 10:00:00', type: 'O', billsec: 30 };

describe('platform core: requests', () => {
  it('sends the Basic credentials of user id and API key to base URL + path', async () => {
    const { client, seen } = testClient(() => single(cdr));
    const got = await client.history.cdrs.get(7);
    expect(got.id).toBe(7);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.path).toBe('/cdrs/7');
    expect(seen[0]!.headers.authorization).toBe(basic(420042, API_KEY));
    expect(seen[0]!.headers['content-type']).toBeUndefined();
  });

  it('sends JSON bodies with their content type', async () => {
    const { client, seen } = testClient(() => single({ id: 5, to: '+441234567890' }, 201));
    await client.calls.create({ to: '+441234567890' });
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.body).toEqual({ to: '+441234567890' });
  });

  it('reports every attempt to onRequest with the spec template', async () => {
    let n = 0;
    const { client, events } = testClient(() =>
      ++n === 1 ? json(503, { message: 'busy', errors: [] }) : single(cdr),
    );
    await client.history.cdrs.get(7);
    expect(events.map((e) => [e.method, e.template, e.path, e.status, e.attempt])).toEqual([
      ['GET', '/cdrs/{id}', '/cdrs/7', 503, 1],
      ['GET', '/cdrs/{id}', '/cdrs/7', 200, 2],
    ]);
  });

  it('waits on an injected limiter before every attempt, retries included (a worker shares one)', async () => {
    let n = 0;
    const order: string[] = [];
    const limiter = {
      acquire: async () => {
        order.push('acquire');
        return 0;
      },
    };
    const { client } = testClient(
      () => {
        order.push('send');
        return ++n === 1 ? json(503, { message: 'busy', errors: [] }) : single(cdr);
      },
      { limiter },
    );
    await client.history.cdrs.get(7);
    expect(order).toEqual(['acquire', 'send', 'acquire', 'send']);
  });

  it('treats the 301 of PATCH /calls/{id} as success and does not follow redirects', async () => {
    const { client, seen } = testClient(() => json(301, { data: { id: 9, state: 2 }, links: {} }));
    const call = await client.calls.update(9, { dst: '+441234567890' });
    expect(call.id).toBe(9);
    expect(seen[0]!.redirect).toBe('manual');
  });

  it('does not treat 301 as success elsewhere', async () => {
    const { client } = testClient(() => json(301, { data: cdr, links: {} }));
    await expect(client.history.cdrs.get(7)).rejects.toBeInstanceOf(PlatformError);
  });

  it('returns 202 and 204 deletes as results that say whether they are asynchronous', async () => {
    const { client, seen } = testClient((req) =>
      req.path === '/sms' ? new Response(null, { status: 202 }) : new Response(null, { status: 204 }),
    );
    await expect(client.storage.sms.deleteAll()).resolves.toEqual({ status: 202, accepted: true });
    await expect(client.history.monitors.delete([3, 4, 5])).resolves.toEqual({
      status: 204,
      accepted: false,
    });
    expect(seen[1]!.path).toBe('/monitors/3,4,5');
    expect(seen[1]!.method).toBe('DELETE');
  });

  it('streams binary endpoints with their content type and length', async () => {
    const { client, seen } = testClient(
      () =>
        new Response('ID3-fake-mp3', {
          status: 200,
          headers: { 'content-type': 'audio/mpeg', 'content-length': '12' },
        }),
    );
    const file = await client.history.monitors.mp3(11);
    expect(file.contentType).toBe('audio/mpeg');
    expect(file.contentLength).toBe(12);
    expect(await text(file.body)).toBe('ID3-fake-mp3');
    expect(seen[0]!.path).toBe('/monitors/11.mp3');
  });

  it('keeps a download that fails before anyone reads it as errored, never an unhandled error event', async () => {
    // Found by the call-centre simulation: a worker shutting down cancels the audio download of an
    // activity still looking up the archive, and the body's 'error' event, with nobody listening yet,
    // was an uncaught exception.
    let fail: (e: Error) => void = () => {};
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void (fail = (e) => c.error(e)) });
    const { client } = testClient(() => new Response(stream, { status: 200 }));
    const file = await client.history.monitors.mp3(12);
    fail(new Error('WORKER_SHUTDOWN'));
    await eventually(async () => (file.body.destroyed ? true : undefined), 'the body destroyed', 5_000);
    expect(file.body.errored?.message).toBe('WORKER_SHUTDOWN');
    // Whoever reads it later gets the failure.
    await expect(text(file.body)).rejects.toThrow('WORKER_SHUTDOWN');
  });

  it('unwraps the single envelope and throws a SchemaError with the raw body when the record is wrong', async () => {
    const { client } = testClient(() => single({ id: 'not-a-number' }));
    const err = await client.history.cdrs.get(7).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaError);
    const s = err as SchemaError;
    expect(s.raw).toEqual({ data: { id: 'not-a-number' }, links: {} });
    expect(s.issues.length).toBeGreaterThan(0);
    expect(s.message).toContain('data.id');
    expect(s.retryable).toBe(false);
  });

  it('throws a SchemaError for a body that is not JSON', async () => {
    const { client } = testClient(() => new Response('<html>oops</html>', { status: 200 }));
    await expect(client.history.cdrs.get(7)).rejects.toBeInstanceOf(SchemaError);
  });

  it('accepts dictionaries with or without the single envelope', async () => {
    let n = 0;
    const { client } = testClient(() =>
      ++n === 1 ? single({ type: { O: 'Outbound' } }) : json(200, { a: 1 }),
    );
    await expect(client.history.cdrs.dictionaries()).resolves.toEqual({ type: { O: 'Outbound' } });
    await expect(client.history.cdrs.dictionaries()).resolves.toEqual({ a: 1 });
  });
});

describe('platform core: retries', () => {
  it('retries 500 and 503 with exponential backoff and jitter, then succeeds', async () => {
    const statuses = [500, 503];
    const { client, sleeps, seen } = testClient(() => {
      const s = statuses.shift();
      return s ? json(s, { message: 'down', errors: [] }) : single(cdr);
    });
    await expect(client.history.cdrs.get(7)).resolves.toMatchObject({ id: 7 });
    expect(seen).toHaveLength(3);
    // random() = 0.5: half of 250 ms, then half of 500 ms.
    expect(sleeps).toEqual([125, 250]);
  });

  it('gives up after maxRetries with a ServerError', async () => {
    const { client, seen, sleeps } = testClient(() => json(502, { message: 'bad gateway', errors: [] }));
    const err = await client.history.cdrs.get(7).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect((err as ServerError).status).toBe(502);
    expect((err as ServerError).retryable).toBe(true);
    expect(seen).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it('honours maxRetries: 0', async () => {
    const { client, seen } = testClient(() => json(500, { message: 'x', errors: [] }), { maxRetries: 0 });
    await expect(client.history.cdrs.get(7)).rejects.toBeInstanceOf(ServerError);
    expect(seen).toHaveLength(1);
  });

  it('waits the Retry-After seconds of a 429', async () => {
    let n = 0;
    const { client, sleeps } = testClient(() =>
      ++n === 1 ? json(429, { message: 'slow down', errors: [] }, { 'retry-after': '3' }) : single(cdr),
    );
    await client.history.cdrs.get(7);
    expect(sleeps).toEqual([3000]);
  });

  it('waits until the HTTP date of a Retry-After', async () => {
    let n = 0;
    const { client, sleeps, clock } = testClient(() =>
      ++n === 1
        ? json(
            429,
            { message: 'slow down', errors: [] },
            { 'retry-after': new Date(clock.t + 7000).toUTCString() },
          )
        : single(cdr),
    );
    await client.history.cdrs.get(7);
    expect(sleeps).toEqual([7000]);
  });

  it('throws a RateLimitedError carrying the delay when Retry-After is beyond what the core waits for', async () => {
    const { client, sleeps, seen } = testClient(() =>
      json(429, { message: 'slow down', errors: [] }, { 'retry-after': '600' }),
    );
    const err = await client.history.cdrs.get(7).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(600_000);
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('backs off on a 429 without Retry-After', async () => {
    let n = 0;
    const { client, sleeps } = testClient(() =>
      ++n === 1 ? json(429, { message: 'x', errors: [] }) : single(cdr),
    );
    await client.history.cdrs.get(7);
    expect(sleeps).toEqual([125]);
  });

  it.each([
    [400, BadRequestError],
    [403, ForbiddenError],
    [404, NotFoundError],
    [401, UnauthorizedError],
  ])('does not retry %i', async (status, type) => {
    const { client, seen, sleeps } = testClient(() => json(status, { message: 'no', errors: ['x'] }));
    const err = await client.history.cdrs.get(7).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(type);
    expect((err as PlatformError).retryable).toBe(false);
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries POST too on a 503 (the platform has no idempotency keys; documented)', async () => {
    let n = 0;
    const { client, seen } = testClient(() =>
      ++n === 1 ? json(503, { message: 'x', errors: [] }) : single({ id: 1, to: '+441234567890' }, 201),
    );
    await client.calls.create({ to: '+441234567890' });
    expect(seen.map((s) => s.method)).toEqual(['POST', 'POST']);
  });

  it('sends a request once when its caller asks for no quick retries (placing a call)', async () => {
    const { client, seen } = testClient(() => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      });
    });
    await expect(client.calls.create({ to: '+441234567890' }, { maxRetries: 0 })).rejects.toMatchObject({
      name: 'NetworkError',
      retryable: true,
    });
    expect(seen.map((s) => s.method)).toEqual(['POST']);
  });
});

describe('platform core: error mapping', () => {
  it('maps 400 to BadRequestError with the errors array, method, path and status', async () => {
    const { client } = testClient(() =>
      json(400, { message: 'Validation failed', errors: [{ field: 'to', message: 'required' }] }),
    );
    const err = (await client.calls
      .create({ to: '+441234567890' })
      .catch((e: unknown) => e)) as BadRequestError;
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.status).toBe(400);
    expect(err.method).toBe('POST');
    expect(err.path).toBe('/calls');
    expect(err.errors).toEqual([{ field: 'to', message: 'required' }]);
    expect(err.message).toBe('POST /calls: 400 Validation failed (to: required)');
  });

  it('maps 404 with the expanded path and the request id', async () => {
    const { client } = testClient(() =>
      json(404, { message: 'Not found', errors: [] }, { 'x-request-id': 'req-123' }),
    );
    const err = (await client.settings.ddis.get('+44 20').catch((e: unknown) => e)) as NotFoundError;
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.path).toBe('/ddis/%2B44%2020');
    expect(err.requestId).toBe('req-123');
  });

  it('keeps a non-JSON error body as the message', async () => {
    const { client } = testClient(() => new Response('Bad Gateway', { status: 502 }), { maxRetries: 0 });
    const err = (await client.history.cdrs.get(7).catch((e: unknown) => e)) as ServerError;
    expect(err.message).toBe('GET /cdrs/7: 502 Bad Gateway');
  });

  it('maps connection failures to a retryable NetworkError with the system code', async () => {
    const { client, seen, sleeps } = testClient(() => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      });
    });
    const err = (await client.history.cdrs.get(7).catch((e: unknown) => e)) as NetworkError;
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('ECONNREFUSED');
    expect(err.status).toBeUndefined();
    expect(err.method).toBe('GET');
    expect(err.path).toBe('/cdrs/7');
    expect(err.retryable).toBe(true);
    expect(seen).toHaveLength(3);
    expect(sleeps).toEqual([125, 250]);
  });

  it('recovers from a connection reset on retry', async () => {
    let n = 0;
    const { client } = testClient(() => {
      if (++n === 1)
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
        });
      return single(cdr);
    });
    await expect(client.history.cdrs.get(7)).resolves.toMatchObject({ id: 7 });
  });

  it('times out an attempt that takes too long, with a TimeoutError', async () => {
    const hang = (signal: AbortSignal | undefined) =>
      new Promise<Response>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const { client, seen } = testClient((req) => hang(req.signal), { timeoutMs: 20, maxRetries: 1 });
    const err = (await client.history.cdrs.get(7).catch((e: unknown) => e)) as TimeoutError;
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.message).toBe('GET /cdrs/7: timed out after 20 ms');
    expect(err.retryable).toBe(true);
    expect(seen).toHaveLength(2);
  });

  it('lets a caller cancellation through without retrying', async () => {
    const controller = new AbortController();
    const { client, seen } = testClient(
      (req) =>
        new Promise<Response>((_resolve, reject) => {
          req.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          controller.abort();
        }),
    );
    const err = await client.history.cdrs.get(7, { signal: controller.signal }).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(PlatformError);
    expect((err as Error).name).toBe('AbortError');
    expect(seen).toHaveLength(1);
  });
});

describe('platform core: reasons of an errors array', () => {
  it('reads string entries (the spec) and {field, message} objects (the live platform) alike', async () => {
    for (const errors of [
      ['to: required', 'from: unknown user'],
      [
        { field: 'to', message: 'required' },
        { field: 'from', message: 'unknown user' },
      ],
    ]) {
      const { client } = testClient(() => json(400, { message: 'Validation failed', errors }));
      const err = (await client.calls
        .create({ to: '+441234567890' })
        .catch((e: unknown) => e)) as BadRequestError;
      expect(err.message).toBe('POST /calls: 400 Validation failed (to: required; from: unknown user)');
      expect(err.errors).toEqual(errors);
    }
  });
});
