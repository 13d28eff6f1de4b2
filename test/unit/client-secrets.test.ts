// No credential (password, token, API key, the Base64 Basic value) ever reaches an error or a log line,
// even though the platform's 401 message names the unknown token.
import { inspect } from 'node:util';
import {
  BadRequestError,
  NetworkError,
  redact,
  SchemaError,
  UnauthorizedError,
} from '../../connectors/platform';
import { redactDeep } from '../../connectors/platform/core/redact';
import {
  API_KEY,
  captureLogger,
  json,
  PASSWORD,
  passwordCredentials,
  single,
  testClient,
} from './client-fakes';

const TOKEN_1 = 'tok-5ecr3t-aaaa1111';
const TOKEN_2 = 'tok-5ecr3t-bbbb2222';
const b64 = (s: string) => Buffer.from(s).toString('base64');

function secretsOf(...tokens: string[]): string[] {
  return [
    PASSWORD,
    API_KEY,
    b64(`420042:${API_KEY}`),
    ...tokens.flatMap((t) => [t, b64(`17:${t}`)]),
    encodeURIComponent(PASSWORD),
  ];
}

function expectClean(text: string, secrets: string[]): void {
  for (const s of secrets) expect(text).not.toContain(s);
}

describe('redact', () => {
  it('replaces every occurrence and the URL- and JSON-escaped forms', () => {
    const secret = 'p@ss "word"/x';
    const text = `a ${secret} b ${encodeURIComponent(secret)} c ${JSON.stringify(secret)} d ${secret}`;
    const out = redact(text, [secret]);
    expect(out).not.toContain(secret);
    expect(out).not.toContain(encodeURIComponent(secret));
    expect(out).not.toContain('p@ss \\"word\\"/x');
    expect(out.match(/\[redacted\]/g)).toHaveLength(4);
  });

  it('ignores empty secrets and prefers the longest match', () => {
    expect(redact('abc', [''])).toBe('abc');
    expect(redact('key=ab-cd', ['ab', 'ab-cd'])).toBe('key=[redacted]');
  });

  it('censors credential-named keys and secret strings deep in a value', () => {
    expect(
      redactDeep({ user_token: 'x', nested: [{ password: 'y', note: 'has s3cret inside' }], n: 1 }, [
        's3cret',
      ]),
    ).toEqual({
      user_token: '[redacted]',
      nested: [{ password: '[redacted]', note: 'has [redacted] inside' }],
      n: 1,
    });
  });
});

describe('no secrets in errors or logs', () => {
  it('redacts the token named by the 401 message of a password session, and logs nothing secret', async () => {
    const { logger, text } = captureLogger();
    let logins = 0;
    const { client } = testClient(
      (req) => {
        if (req.path === '/login') {
          logins++;
          return json(200, { message: 'ok', user_token: logins === 1 ? TOKEN_1 : TOKEN_2, user_id: 17 });
        }
        const token = logins === 1 ? TOKEN_1 : TOKEN_2;
        if (req.path === '/cdrs/1') return json(503, { message: `overloaded for ${token}`, errors: [] });
        return json(401, { message: `Token ${token} does not exist`, errors: [`unknown ${token}`] });
      },
      { credentials: passwordCredentials, logger },
    );
    const err = await client.customer.me().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as Error).message).toBe('GET /me: 401 Token [redacted] does not exist (unknown [redacted])');
    const retried = await client.history.cdrs.get(1).catch((e: unknown) => e);
    expect((retried as Error).message).toContain('overloaded for [redacted]');
    await client.close();

    const secrets = secretsOf(TOKEN_1, TOKEN_2);
    expectClean(inspect(err, { depth: 10 }), secrets);
    expectClean(JSON.stringify(err), secrets);
    expectClean(inspect(retried, { depth: 10 }), secrets);
    const logged = text();
    expect(logged).toContain('platform: retrying request');
    expect(logged).toContain('platform: logged in');
    expectClean(logged, secrets);
  });

  it('redacts the API key and the Basic value wherever the platform echoes them', async () => {
    const { logger, text } = captureLogger();
    const basicValue = b64(`420042:${API_KEY}`);
    const { client } = testClient(
      (req) =>
        req.path === '/calls'
          ? json(400, {
              message: `bad request from ${API_KEY}`,
              errors: [{ field: 'auth', value: `Basic ${basicValue}` }],
            })
          : json(401, { message: `Unknown token ${API_KEY}`, errors: [] }),
      { logger },
    );
    const e401 = await client.customer.me().catch((e: unknown) => e);
    const e400 = (await client.calls
      .create({ to: '+441234567890' })
      .catch((e: unknown) => e)) as BadRequestError;
    expect(e400).toBeInstanceOf(BadRequestError);
    expect(e400.errors).toEqual([{ field: 'auth', value: 'Basic [redacted]' }]);
    expectClean(inspect(e401, { depth: 10 }) + inspect(e400, { depth: 10 }) + text(), secretsOf());
  });

  it('redacts credentials from network error messages', async () => {
    const { client } = testClient(
      () => {
        throw new TypeError('fetch failed', { cause: new Error(`proxy rejected key ${API_KEY}`) });
      },
      { maxRetries: 0 },
    );
    const err = await client.customer.me().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expectClean(inspect(err, { depth: 10 }), secretsOf());
  });

  it('keeps the token out of a SchemaError on a malformed login answer', async () => {
    const { client } = testClient(
      (req) =>
        req.path === '/login' ? json(200, { user_token: TOKEN_1, user_id: 'not-an-id' }) : single({}),
      { credentials: passwordCredentials },
    );
    const err = await client.customer.me().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaError);
    expectClean(inspect(err, { depth: 10 }) + JSON.stringify((err as SchemaError).raw), secretsOf(TOKEN_1));
  });

  it('keeps the password out of a 400 from /login that echoes it', async () => {
    const { logger, text } = captureLogger();
    const { client } = testClient(
      (req) =>
        req.path === '/login'
          ? json(400, {
              message: `Invalid e-mail and/or password ${PASSWORD}`,
              errors: [{ password: PASSWORD }],
            })
          : single({}),
      { credentials: passwordCredentials, logger },
    );
    const err = await client.customer.me().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).errors).toEqual([{ password: '[redacted]' }]);
    expectClean(inspect(err, { depth: 10 }) + text(), secretsOf());
  });
});
