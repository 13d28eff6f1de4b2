// The local Google's token endpoint and token checks (test/fakes/google/oauth.ts), one test per rule
// of Google's "Using OAuth 2.0 for Server to Server Applications": a signed assertion is exchanged for
// an opaque token the APIs accept until it expires, a `sub` makes the token act as that user, and
// what Google refuses (bad signature, long-lived or expired assertion, delegation not authorised,
// expired token, a self-signed JWT claiming another user) is refused in Google's shape.
import { createSign } from 'node:crypto';
import { GOOGLE_TOKEN_URL } from '../fakes/google/oauth';
import { startFakeGoogleApps, type FakeGoogleApps } from '../fakes/google/apps-server';

let google: FakeGoogleApps;
let privateKey: string;
const SCOPE = 'https://www.googleapis.com/auth/tasks';

beforeAll(async () => {
  google = await startFakeGoogleApps();
  privateKey = (JSON.parse(google.serviceAccount.json) as { private_key: string }).private_key;
});
afterAll(() => google.close());
afterEach(() => {
  google.google.oauth.tokenLifetimeSeconds = 3600;
  google.google.oauth.delegationAllowed = true;
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function jwt(claims: Record<string, unknown>, key = privateKey): string {
  const body = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${body}.${createSign('RSA-SHA256').update(body).sign(key, 'base64url')}`;
}

function assertion(overrides: Record<string, unknown> = {}): string {
  const iat = Math.floor(Date.now() / 1000);
  return jwt({
    iss: google.serviceAccount.clientEmail,
    scope: SCOPE,
    aud: GOOGLE_TOKEN_URL,
    iat,
    exp: iat + 3600,
    ...overrides,
  });
}

async function exchange(signed: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${google.url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: signed,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function listTasklists(token: string) {
  const res = await fetch(`${google.url}/tasks/v1/users/@me/lists`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function insertTasklist(token: string, title: string): Promise<number> {
  const res = await fetch(`${google.url}/tasks/v1/users/@me/lists`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title }),
  });
  return res.status;
}

it('exchanges a signed assertion for an opaque access token the APIs accept', async () => {
  google.google.oauth.tokenLifetimeSeconds = 120;
  const { status, body } = await exchange(assertion());
  expect(status).toBe(200);
  expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 120, scope: SCOPE });
  expect(String(body.access_token)).toMatch(/^ya29\./);
  expect((await listTasklists(String(body.access_token))).status).toBe(200);
});

it('accepts its own token endpoint as the audience, and nothing else', async () => {
  expect((await exchange(assertion({ aud: `${google.url}/token` }))).status).toBe(200);
  expect(await exchange(assertion({ aud: 'https://example.com/token' }))).toEqual({
    status: 400,
    body: { error: 'invalid_grant', error_description: 'Invalid JWT: aud must be the token endpoint.' },
  });
});

it('refuses an assertion not signed by the service account key', async () => {
  const { privateKey: other } = await import('node:crypto').then((c) =>
    c.generateKeyPairSync('rsa', { modulusLength: 2048 }),
  );
  const forged = jwt(
    { iss: google.serviceAccount.clientEmail, scope: SCOPE, aud: GOOGLE_TOKEN_URL, iat: 1, exp: 2 },
    other.export({ type: 'pkcs8', format: 'pem' }).toString(),
  );
  expect(await exchange(forged)).toEqual({
    status: 400,
    body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' },
  });
});

it('refuses an assertion that lives longer than an hour, or has expired', async () => {
  const iat = Math.floor(Date.now() / 1000);
  for (const claims of [{ exp: iat + 3601 }, { iat: iat - 7200, exp: iat - 3600 }, { iat: iat + 600 }]) {
    const { status, body } = await exchange(assertion(claims));
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_grant');
    expect(body.error_description).toMatch(/short-lived token \(60 minutes\)/);
  }
});

it('refuses an assertion without scopes', async () => {
  expect(await exchange(assertion({ scope: undefined }))).toEqual({
    status: 400,
    body: { error: 'invalid_scope', error_description: 'Empty or missing scope not allowed.' },
  });
});

it('makes a token with `sub` act as that user, only when delegation is authorised', async () => {
  const { body } = await exchange(assertion({ sub: 'ann@example.com' }));
  expect(await insertTasklist(String(body.access_token), 'Ann’s')).toBe(200);
  expect(google.tasks.lists('ann@example.com').map((l) => l.title)).toEqual(['Ann’s']);
  expect(google.tasks.lists(google.serviceAccount.clientEmail).map((l) => l.title)).not.toContain('Ann’s');

  google.google.oauth.delegationAllowed = false;
  const refused = await exchange(assertion({ sub: 'bob@example.com' }));
  expect(refused.status).toBe(401);
  expect(refused.body.error).toBe('unauthorized_client');
});

it('refuses an expired access token with 401 UNAUTHENTICATED', async () => {
  google.google.oauth.tokenLifetimeSeconds = 1;
  const { body } = await exchange(assertion());
  const token = String(body.access_token);
  jest.useFakeTimers({
    doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'],
  });
  try {
    jest.setSystemTime(Date.now() + 1000);
    const res = await listTasklists(token);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  } finally {
    jest.useRealTimers();
  }
});

it('refuses a self-signed JWT that claims another user', async () => {
  const iat = Math.floor(Date.now() / 1000);
  const selfSigned = jwt({
    iss: google.serviceAccount.clientEmail,
    sub: 'ann@example.com',
    scope: SCOPE,
    iat,
    exp: iat + 3600,
  });
  expect((await listTasklists(selfSigned)).status).toBe(401);
  const own = jwt({
    ...JSON.parse(Buffer.from(selfSigned.split('.')[1]!, 'base64url').toString()),
    sub: undefined,
  });
  expect((await listTasklists(own)).status).toBe(200);
});
