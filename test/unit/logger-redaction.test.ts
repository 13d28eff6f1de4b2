// What reaches a log line: OAuth and service-account credentials are censored by key, and phone
// numbers in logged errors (a CRM's message quoting the caller) are masked.
import pino from 'pino';
import { loggerOptions, type Logger } from '../../lib/logger';
import { maskPhoneNumbers } from '../../lib/redact-pii';

/** What a logger with callsync's options writes (the process and file loggers share them). */
async function logged(write: (log: Logger) => void): Promise<string> {
  let text = '';
  write(pino(loggerOptions('t', 'info'), { write: (line: string) => void (text += line) }));
  return text;
}

describe('log redaction', () => {
  it('censors OAuth tokens, client secrets and private keys wherever they sit', async () => {
    const text = await logged((log) => {
      log.info({ accessToken: 'at-SECRET-1', refreshToken: 'rt-SECRET-2' }, 'token renewed');
      log.info({ oauth: { clientSecret: 'cs-SECRET-3', access_token: 'at-SECRET-4' } }, 'oauth');
      log.info(
        { google: { credentials: { private_key: 'pk-SECRET-5', client_secret: 'cs-SECRET-6' } } },
        'g',
      );
      log.info({ body: { refresh_token: 'rt-SECRET-7' } }, 'response');
    });
    expect(text).not.toMatch(/SECRET/);
    expect(text.match(/\[redacted\]/g)).toHaveLength(7);
  });

  it('masks phone numbers in logged error messages, stacks and causes', async () => {
    const err = new Error('HubSpot 400: no contact with phone +44 20 7946 0958', {
      cause: new Error('search for 441632960123 failed'),
    });
    const text = await logged((log) => {
      log.error({ err }, 'call log failed');
      log.warn(new Error('callback to 0044 7700 900123 refused'));
      log.warn('retrying: contact +1 415 555 2671 is locked');
      log.info({ err: 'hubspot: no contact with phone 020 7946 0958' }, 'described error');
    });
    for (const digits of ['7946', '0958', '441632960123', '7700', '900123', '2671'])
      expect(text).not.toContain(digits);
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { err: { message: string; stack: string } });
    expect(lines[0]!.err.message).toContain('HubSpot 400: no contact with phone [number …58]');
    expect(lines[0]!.err.message).toContain('search for [number …23] failed');
    expect(lines[0]!.err.stack).toContain('[number …58]');
    expect(lines[1]!.err.message).toBe('callback to [number …23] refused');
  });
});

describe('maskPhoneNumbers', () => {
  it('masks numbers in their usual written forms', () => {
    expect(maskPhoneNumbers('dst 441632960123 failed')).toBe('dst [number …23] failed');
    expect(maskPhoneNumbers('(020) 7946-0958 and +1 (415) 555-2671')).toBe('[number …58] and [number …71]');
    expect(maskPhoneNumbers('GET /contacts?phone=%2B441632960123')).not.toContain('1632960123');
  });

  it('leaves dates, times, addresses, short ids and file positions alone', () => {
    for (const s of [
      'at 2026-11-27T03:26:25.123Z from 127.0.0.1:8788',
      'call 12345 took 250ms',
      'id 1f2e3d4c-5b6a-7980-1234-56789abcdef0',
      'at Object.<anonymous> (/work/x.ts:12:34)',
      'on 27/11/2026',
    ])
      expect(maskPhoneNumbers(s)).toBe(s);
  });
});
