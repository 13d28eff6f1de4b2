// Authentication states of the emulator: Basic token and API key, X-Auth-Token, idle timeout on the
// emulator clock, ping keep-alive, logout, two-factor login, password reset, the v1.2 alias.
import { basic, login, startHarness, type Harness } from './emulator-server-harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(500);
});
afterAll(async () => {
  await h.close();
});
afterEach(async () => {
  await h.control('DELETE', '/faults');
});

const asToken = (token: string) => ({ authorization: basic(h.emu.admin.user_id, token) });

describe('credentials', () => {
  it('accepts Basic user_id:token from /login', async () => {
    const token = await login(h);
    const res = await h.api('/users', { headers: asToken(token) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.total).toBeGreaterThan(0);
    expect(body.data[0]).toHaveProperty('email');
  });

  it('answers /login with the token and user id', async () => {
    const res = await h.api('/login', {
      method: 'POST',
      headers: {},
      json: { email: h.emu.admin.email, password: h.emu.admin.password },
    });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body).toEqual({
      message: expect.any(String),
      user_token: expect.any(String),
      user_id: h.emu.admin.user_id,
    });
  });

  it('accepts Basic user_id:api_key', async () => {
    expect((await h.api('/me')).status).toBe(200);
  });

  it('accepts a bare token in X-Auth-Token', async () => {
    const token = await login(h);
    const res = await h.api('/me', { headers: { 'x-auth-token': token } });
    expect(res.status).toBe(200);
    expect((await res.json()).data.id).toBe(String(h.emu.admin.user_id));
  });

  it('answers 401 with a message when credentials are missing', async () => {
    const res = await h.api('/cdrs', { headers: {} });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.message).toEqual(expect.any(String));
    expect(Array.isArray(body.errors)).toBe(true);
  });

  it('answers 401 naming an unknown token', async () => {
    const res = await h.api('/cdrs', { headers: asToken('nosuchtoken123') });
    expect(res.status).toBe(401);
    expect((await res.json()).message).toBe('Token "nosuchtoken123" does not exist');
  });

  it('rejects a token presented with another user id', async () => {
    const token = await login(h);
    const res = await h.api('/cdrs', {
      headers: { authorization: basic(h.emu.admin.user_id + 99999, token) },
    });
    expect(res.status).toBe(401);
  });

  it('rejects a malformed Basic header', async () => {
    const res = await h.api('/cdrs', { headers: { authorization: 'Basic bm9jb2xvbg==' } });
    expect(res.status).toBe(401);
  });

  it('answers 400 for a wrong password', async () => {
    const res = await h.api('/login', {
      method: 'POST',
      headers: {},
      json: { email: h.emu.admin.email, password: 'wrong' },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('Invalid e-mail and/or password');
  });

  it('answers 400 naming the field for an invalid login body', async () => {
    const res = await h.api('/login', { method: 'POST', headers: {}, json: { email: 'not-an-email' } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.message).toBe('Validation failed');
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { field: 'email', message: expect.any(String) },
        { field: 'password', message: expect.any(String) },
      ]),
    );
  });
});

describe('token lifetime on the emulator clock', () => {
  it('expires a token idle for more than 15 minutes', async () => {
    const token = await login(h);
    expect((await h.api('/me', { headers: asToken(token) })).status).toBe(200);
    await h.control('POST', '/clock/advance', { seconds: 16 * 60 });
    const res = await h.api('/me', { headers: asToken(token) });
    expect(res.status).toBe(401);
    expect((await res.json()).message).toContain('does not exist');
  });

  it('keeps a token alive with /ping across 10 + 10 minutes', async () => {
    const token = await login(h);
    await h.control('POST', '/clock/advance', { seconds: 10 * 60 });
    const ping = await h.api('/ping', { headers: asToken(token) });
    expect(ping.status).toBe(200);
    expect((await ping.json()).message).toEqual(expect.any(String));
    await h.control('POST', '/clock/advance', { seconds: 10 * 60 });
    expect((await h.api('/me', { headers: asToken(token) })).status).toBe(200);
  });

  it('keeps a token alive through any authenticated request', async () => {
    const token = await login(h);
    await h.control('POST', '/clock/advance', { seconds: 14 * 60 });
    expect((await h.api('/users', { headers: asToken(token) })).status).toBe(200);
    await h.control('POST', '/clock/advance', { seconds: 14 * 60 });
    expect((await h.api('/users', { headers: asToken(token) })).status).toBe(200);
  });

  it('answers /ping without credentials with 200 and with an invalid token with 401', async () => {
    expect((await h.api('/ping', { headers: {} })).status).toBe(200);
    expect((await h.api('/ping', { headers: asToken('bogus') })).status).toBe(401);
  });

  it('destroys the token on logout', async () => {
    const token = await login(h);
    const out = await h.api('/logout', { method: 'POST', headers: asToken(token) });
    expect(out.status).toBe(200);
    expect((await h.api('/me', { headers: asToken(token) })).status).toBe(401);
    expect((await h.api('/logout', { method: 'POST', headers: asToken(token) })).status).toBe(401);
  });

  it('expires sessions through the control endpoint', async () => {
    const token = await login(h);
    const res = await h.control('POST', '/tokens/expire', { token });
    expect(res.body).toEqual({ expired: 1 });
    expect((await h.api('/me', { headers: asToken(token) })).status).toBe(401);
    // API keys are not sessions: they keep working.
    expect((await h.api('/me')).status).toBe(200);
  });
});

describe('two-factor login', () => {
  async function twoFactorAccount(): Promise<{ email: string; password: string; user_id: number }> {
    const existing = [...h.emu.store.accounts.values()].find((a) => a.two_factor === 'E');
    if (existing) return existing;
    const admin = h.emu.store.accounts.get(h.emu.admin.email)!;
    const email = 'second.factor@example.com';
    h.emu.store.accounts.set(email, { ...admin, email, two_factor: 'E' });
    return { ...admin, email };
  }

  it('issues a code and nonce, readable through the control endpoint, and exchanges them for a token', async () => {
    const account = await twoFactorAccount();
    const res = await h.api('/login', {
      method: 'POST',
      headers: {},
      json: { email: account.email, password: account.password },
    });
    expect(res.status).toBe(200);
    const challenge = await res.json();
    expect(challenge).toEqual({
      message: expect.any(String),
      two_factor_required: true,
      nonce: expect.any(String),
    });
    expect(challenge).not.toHaveProperty('user_token');

    const code = await h.control('GET', `/2fa?email=${encodeURIComponent(account.email)}`);
    expect(code.status).toBe(200);
    expect(code.body.code).toMatch(/^\d{6}$/);
    expect(code.body.nonce).toBe(challenge.nonce);

    const wrong = await h.api('/login2fa', {
      method: 'POST',
      headers: {},
      json: { code: '000000x', nonce: challenge.nonce },
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).message).toBe('Invalid code and/or nonce');

    const ok = await h.api('/login2fa', {
      method: 'POST',
      headers: {},
      json: { code: code.body.code, nonce: challenge.nonce },
    });
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body.user_id).toBe(account.user_id);
    expect(
      (await h.api('/me', { headers: { authorization: basic(account.user_id, body.user_token) } })).status,
    ).toBe(200);

    // A code is single-use.
    const again = await h.api('/login2fa', {
      method: 'POST',
      headers: {},
      json: { code: code.body.code, nonce: challenge.nonce },
    });
    expect(again.status).toBe(400);
  });

  it('refuses a code older than 10 minutes of the emulator clock', async () => {
    const account = await twoFactorAccount();
    const res = await h.api('/login', {
      method: 'POST',
      headers: {},
      json: { email: account.email, password: account.password },
    });
    const { nonce } = await res.json();
    const { body } = await h.control('GET', `/2fa?email=${encodeURIComponent(account.email)}`);
    await h.control('POST', '/clock/advance', { seconds: 11 * 60 });
    const late = await h.api('/login2fa', { method: 'POST', headers: {}, json: { code: body.code, nonce } });
    expect(late.status).toBe(400);
  });
});

describe('confirmation and password reset', () => {
  it('answers /confirmation for a known e-mail and 400 otherwise', async () => {
    const ok = await h.api('/confirmation', {
      method: 'POST',
      headers: {},
      json: { email: h.emu.admin.email },
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).message).toEqual(expect.any(String));
    const unknown = await h.api('/confirmation', {
      method: 'POST',
      headers: {},
      json: { email: 'nobody@example.org' },
    });
    expect(unknown.status).toBe(400);
  });

  it('resets a password with the token issued by /password', async () => {
    const admin = h.emu.store.accounts.get(h.emu.admin.email)!;
    const email = 'reset.me@example.com';
    h.emu.store.accounts.set(email, { ...admin, email, two_factor: 'D' });
    expect((await h.api('/password', { method: 'POST', headers: {}, json: { email } })).status).toBe(200);
    const { body } = await h.control('GET', `/password-reset?email=${encodeURIComponent(email)}`);
    expect(body.token).toEqual(expect.any(String));
    const bad = await h.api('/reset', {
      method: 'POST',
      headers: {},
      json: { token: 'nope', password: 'x' },
    });
    expect(bad.status).toBe(400);
    const reset = await h.api('/reset', {
      method: 'POST',
      headers: {},
      json: { token: body.token, password: 'n3w-Secret' },
    });
    expect(reset.status).toBe(200);
    await expect(login(h, email, 'n3w-Secret')).resolves.toEqual(expect.any(String));
    await expect(login(h, email, admin.password)).rejects.toThrow('login failed');
  });

  it('answers /password with 400 for an unknown e-mail', async () => {
    expect(
      (await h.api('/password', { method: 'POST', headers: {}, json: { email: 'nobody@example.org' } }))
        .status,
    ).toBe(400);
  });
});

describe('version alias', () => {
  it('serves the same API under v1.2', async () => {
    const url = h.emu.baseUrl.replace('/v1.1/', '/v1.2/');
    const res = await fetch(`${url}/cdrs?limit=3`, { headers: { authorization: h.adminKey } });
    expect(res.status).toBe(200);
    const v12 = await res.json();
    const v11 = await (await h.api('/cdrs?limit=3')).json();
    expect(v12).toEqual(v11);
  });

  it('links single resources under the version the request used', async () => {
    const url = h.emu.baseUrl.replace('/v1.1/', '/v1.2/');
    const res = await fetch(`${url}/users/${h.emu.admin.user_id}`, {
      headers: { authorization: h.adminKey },
    });
    const body = (await res.json()) as { links: { self: string } };
    expect(body.links.self).toBe(`${url}/users/${h.emu.admin.user_id}`);
  });
});
