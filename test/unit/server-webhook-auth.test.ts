import { basicPassword, createWebhookAuthenticator, secretMatches } from '../../server/webhook-auth';

const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('webhook authentication', () => {
  const secret = 'a-long-webhook-secret-123';
  const auth = createWebhookAuthenticator([{ name: 'acme', webhookSecret: secret }, { name: 'nosecret' }]);

  it('compares secrets of any length without throwing', () => {
    expect(secretMatches(secret, secret)).toBe(true);
    expect(secretMatches(secret, `${secret}x`)).toBe(false);
    expect(secretMatches(secret, '')).toBe(false);
  });

  it('accepts the right secret for the right account only', () => {
    expect(auth('acme', secret)).toBe(true);
    expect(auth('acme', 'wrong')).toBe(false);
    expect(auth('acme', undefined)).toBe(false);
    expect(auth('other', secret)).toBe(false);
    expect(auth('nosecret', '')).toBe(false);
    expect(auth('nosecret', undefined)).toBe(false);
  });

  it('reads the password of Basic credentials for the callsync user', () => {
    expect(basicPassword(basic('callsync', secret))).toBe(secret);
    expect(basicPassword(basic('callsync', 'with:colon'))).toBe('with:colon');
    expect(basicPassword(basic('someone', secret))).toBeUndefined();
    expect(basicPassword('Bearer abc')).toBeUndefined();
    expect(basicPassword(undefined)).toBeUndefined();
  });
});
