// The auth session: password login, two-factor, one re-login after a 401 (shared by concurrent
// requests), lazy keep-alive, logout on close; API keys need none of it.
import { UnauthorizedError } from '../../connectors/platform';
import {
  API_KEY,
  basic,
  EMAIL,
  json,
  PASSWORD,
  passwordCredentials,
  single,
  testClient,
  type SeenRequest,
} from './client-fakes';

const me = { id: '17', balance: 1.5, currency_iso: 'EUR' };
const MINUTE = 60_000;

/** A fake platform that issues tokens tok-1, tok-2, … and accepts only `state.valid`. */
function platform(opts: { twoFactor?: boolean } = {}) {
  const state = { issued: 0, valid: undefined as string | undefined, logins: 0 };
  const issue = () => {
    state.issued++;
    state.logins++;
    state.valid = `tok-${state.issued}`;
    return json(200, { message: 'ok', user_token: state.valid, user_id: 17 });
  };
  const handler = (req: SeenRequest): Response => {
    if (req.path === '/login') {
      if (opts.twoFactor)
        return json(200, { message: 'code sent', two_factor_required: true, nonce: 'nonce-abc' });
      return issue();
    }
    if (req.path === '/login2fa') {
      const b = req.body as { code: string; nonce: string };
      if (b.code !== '246810' || b.nonce !== 'nonce-abc') {
        return json(400, { message: 'Invalid code and/or nonce', errors: [] });
      }
      return issue();
    }
    const token = state.valid;
    if (token === undefined || req.headers.authorization !== basic(17, token)) {
      return json(401, { message: 'Token does not exist', errors: [] });
    }
    if (req.path === '/logout') {
      state.valid = undefined;
      return json(200, { message: 'logged out' });
    }
    if (req.path === '/ping') return json(200, { message: 'pong' });
    return single(me);
  };
  return { handler, state };
}

describe('platform session: login', () => {
  it('uses an API key at once, without logging in', async () => {
    const { client, seen } = testClient(() => single(me));
    await client.customer.me();
    expect(seen.map((s) => s.path)).toEqual(['/me']);
    expect(seen[0]!.headers.authorization).toBe(basic(420042, API_KEY));
  });

  it('logs in with e-mail and password before the first request and sends user_id:token', async () => {
    const { handler } = platform();
    const { client, seen } = testClient(handler, { credentials: passwordCredentials });
    await expect(client.customer.me()).resolves.toMatchObject({ id: '17' });
    expect(seen.map((s) => s.path)).toEqual(['/login', '/me']);
    expect(seen[0]!.body).toEqual({ email: EMAIL, password: PASSWORD });
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[1]!.headers.authorization).toBe(basic(17, 'tok-1'));
    expect(client.session.currentUserId).toBe('17');
  });

  it('completes a two-factor login with the code from the provider', async () => {
    const challenges: unknown[] = [];
    const { handler } = platform({ twoFactor: true });
    const { client, seen } = testClient(handler, {
      credentials: passwordCredentials,
      twoFactorCode: async (c) => {
        challenges.push(c);
        return '246810';
      },
    });
    await client.customer.me();
    expect(challenges).toEqual([{ email: EMAIL, nonce: 'nonce-abc' }]);
    expect(seen.map((s) => s.path)).toEqual(['/login', '/login2fa', '/me']);
    expect(seen[1]!.body).toEqual({ code: '246810', nonce: 'nonce-abc' });
    expect(seen[2]!.headers.authorization).toBe(basic(17, 'tok-1'));
  });

  it('treats a login answer with a nonce and no token as a two-factor challenge', async () => {
    const { client, seen } = testClient(
      (req) =>
        req.path === '/login'
          ? json(200, { message: 'enter the code', nonce: 'n-2' })
          : req.path === '/login2fa'
            ? json(200, { message: 'ok', user_token: 't', user_id: '17' })
            : single(me),
      { credentials: passwordCredentials, twoFactorCode: async () => '1' },
    );
    await client.customer.me();
    expect(seen.map((s) => s.path)).toEqual(['/login', '/login2fa', '/me']);
  });

  it('fails clearly when two-factor is required but no provider is configured', async () => {
    const { handler } = platform({ twoFactor: true });
    const { client, seen } = testClient(handler, { credentials: passwordCredentials });
    const err = (await client.customer.me().catch((e: unknown) => e)) as UnauthorizedError;
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err.message).toMatch(/two-factor/);
    expect(seen.map((s) => s.path)).toEqual(['/login']);
  });
});

describe('platform session: re-login after 401', () => {
  it('logs in again once after a 401 and retries the request', async () => {
    const { handler, state } = platform();
    const { client, seen } = testClient(handler, { credentials: passwordCredentials });
    await client.customer.me();
    state.valid = undefined; // the platform dropped the token
    await expect(client.customer.me()).resolves.toMatchObject({ id: '17' });
    expect(seen.map((s) => s.path)).toEqual(['/login', '/me', '/me', '/login', '/me']);
    expect(seen[4]!.headers.authorization).toBe(basic(17, 'tok-2'));
  });

  it('throws UnauthorizedError when the request is refused again after the re-login', async () => {
    const { handler, state } = platform();
    const refuseMe = (req: SeenRequest) =>
      req.path === '/me' ? json(401, { message: 'no', errors: [] }) : handler(req);
    const { client, seen } = testClient(refuseMe, { credentials: passwordCredentials });
    const refused = client.customer.me();
    await expect(refused).rejects.toBeInstanceOf(UnauthorizedError);
    // The credentials worked a moment ago, so a later retry (Temporal's) may succeed.
    await expect(refused).rejects.toMatchObject({ retryable: true, status: 401 });
    expect(seen.map((s) => s.path)).toEqual(['/login', '/me', '/login', '/me']);
    expect(state.logins).toBe(2);
  });

  it('does not re-login with an API key', async () => {
    const { client, seen } = testClient(() => json(401, { message: 'unknown key', errors: [] }));
    const refused = client.customer.me();
    await expect(refused).rejects.toBeInstanceOf(UnauthorizedError);
    // An unknown API key stays unknown: not worth retrying.
    await expect(refused).rejects.toMatchObject({ retryable: false });
    expect(seen).toHaveLength(1);
  });

  it('reports a failed re-login once, however many requests waited on it (token refresh failures)', async () => {
    const { handler, state } = platform();
    let loginsRefused = false;
    const refusing = (req: SeenRequest) =>
      loginsRefused && req.path === '/login'
        ? json(401, { message: 'Invalid credentials', errors: [] })
        : handler(req);
    const failed: unknown[] = [];
    const { client } = testClient(refusing, {
      credentials: passwordCredentials,
      onLoginFailed: (err) => failed.push(err),
    });
    await client.customer.me();
    expect(failed).toHaveLength(0);
    state.valid = undefined; // the token expired, and the password was changed meanwhile
    loginsRefused = true;
    const results = await Promise.allSettled([client.customer.me(), client.customer.me()]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toBeInstanceOf(UnauthorizedError);
  });

  it('shares one re-login among concurrent requests that got 401', async () => {
    const { handler, state } = platform();
    const { client, seen } = testClient(handler, { credentials: passwordCredentials });
    await client.customer.me();
    state.valid = undefined;
    const results = await Promise.all([client.customer.me(), client.customer.me(), client.customer.me()]);
    expect(results.map((r) => r.id)).toEqual(['17', '17', '17']);
    expect(state.logins).toBe(2);
    expect(seen.filter((s) => s.path === '/login')).toHaveLength(2);
  });
});

describe('platform session: keep-alive and close', () => {
  it('pings before a request once the token has idled for the keep-alive time', async () => {
    const { handler } = platform();
    const { client, seen, clock } = testClient(handler, { credentials: passwordCredentials });
    await client.customer.me();
    clock.t += 4 * MINUTE;
    await client.customer.me();
    expect(seen.map((s) => s.path)).toEqual(['/login', '/me', '/me']);
    clock.t += 5 * MINUTE;
    await client.customer.me();
    expect(seen.map((s) => s.path)).toEqual(['/login', '/me', '/me', '/ping', '/me']);
    expect(seen[3]!.headers.authorization).toBe(basic(17, 'tok-1'));
  });

  it('logs in again instead of pinging once the token must have expired (15 minutes)', async () => {
    const { handler, state } = platform();
    const { client, seen, clock } = testClient(handler, { credentials: passwordCredentials });
    await client.customer.me();
    clock.t += 16 * MINUTE;
    state.valid = undefined;
    await client.customer.me();
    expect(seen.map((s) => s.path)).toEqual(['/login', '/me', '/login', '/me']);
  });

  it('logs in again when the keep-alive ping is refused', async () => {
    const { handler, state } = platform();
    const { client, seen, clock } = testClient(handler, { credentials: passwordCredentials });
    await client.customer.me();
    clock.t += 6 * MINUTE;
    state.valid = undefined;
    await client.customer.me();
    expect(seen.map((s) => s.path)).toEqual(['/login', '/me', '/ping', '/login', '/me']);
  });

  it('offers an explicit keepAlive() through GET /ping', async () => {
    const { handler } = platform();
    const { client, seen } = testClient(handler, { credentials: passwordCredentials });
    await expect(client.session.keepAlive()).resolves.toEqual({ message: 'pong' });
    expect(seen.map((s) => s.path)).toEqual(['/login', '/ping']);
  });

  it('logs out on close, once', async () => {
    const { handler, state } = platform();
    const { client, seen } = testClient(handler, { credentials: passwordCredentials });
    await client.customer.me();
    await Promise.all([client.close(), client.close()]);
    await client.close();
    expect(seen.map((s) => s.path)).toEqual(['/login', '/me', '/logout']);
    expect(seen[2]!.headers.authorization).toBe(basic(17, 'tok-1'));
    expect(state.valid).toBeUndefined();
    await expect(client.customer.me()).rejects.toThrow(/closed/);
  });

  it('does not call logout when it never logged in, or with an API key', async () => {
    const { handler } = platform();
    const pw = testClient(handler, { credentials: passwordCredentials });
    await pw.client.close();
    const key = testClient(() => single(me));
    await key.client.customer.me();
    await key.client.close();
    expect(pw.seen).toEqual([]);
    expect(key.seen.map((s) => s.path)).toEqual(['/me']);
  });

  it('closes quietly when the logout fails', async () => {
    const { handler } = platform();
    const { client } = testClient(
      (req) => (req.path === '/logout' ? json(500, { message: 'x', errors: [] }) : handler(req)),
      { credentials: passwordCredentials, maxRetries: 0 },
    );
    await client.customer.me();
    await expect(client.close()).resolves.toBeUndefined();
  });
});
