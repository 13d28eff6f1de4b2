// Pure pieces shared by the CRM connectors: call-log body, rows of the built-in destination, error
// mapping, and the rate gate (with an injected clock).
import { callLogRow, syncedContact, taskRow } from '../../connectors/builtin-crm/rows';
import { accountOfKey, callLogBody, splitName, truncate } from '../../connectors/crm/call-log-body';
import { CrmRateLimitedError } from '../../connectors/crm/errors';
import { RateGate } from '../../connectors/crm/rate-gate';
import { hubspotRateLimit, toCrmError as hubspotError } from '../../connectors/hubspot/errors';
import { salesforceRateLimit, toCrmError as salesforceError } from '../../connectors/salesforce/errors';
import { callbackTask, callLog, contact } from './crm-fixtures';

describe('callLogBody', () => {
  it('lists the known parts in order', () => {
    const log = callLog({
      summary: ' Asked for a refund. ',
      sentiment: 'negative',
      transcriptExcerpt: 'Agent: hello',
      recordingUrl: 'https://r/1.mp3',
    });
    expect(callLogBody(log)).toBe(
      'Summary: Asked for a refund.\n\nSentiment: negative\n\nTranscript (excerpt):\nAgent: hello\n\nRecording: https://r/1.mp3',
    );
    expect(callLogBody(callLog())).toBe('');
  });

  it('puts the IVR keys pressed first, one by one in order', () => {
    expect(callLogBody(callLog({ ivrDigits: '21' }))).toBe('IVR keys pressed: 2 1');
    expect(callLogBody(callLog({ ivrDigits: '3*', summary: 'Billing' }))).toBe(
      'IVR keys pressed: 3 *\n\nSummary: Billing',
    );
    expect(callLogBody(callLog({ ivrDigits: null }))).not.toContain('IVR');
  });

  it('caps the transcript excerpt', () => {
    expect(callLogBody(callLog({ transcriptExcerpt: 'abcdef' }), 4)).toBe('Transcript (excerpt):\nabc…');
    expect(truncate('abc', 3)).toBe('abc');
  });

  it('reads the account of a key and splits names', () => {
    expect(accountOfKey('acme:callback:+44:1')).toBe('acme');
    expect(() => accountOfKey('nokey')).toThrow(RangeError);
    expect(splitName('  Ada  ')).toEqual({ first: null, last: 'Ada' });
    expect(splitName(null)).toEqual({ first: null, last: null });
  });
});

describe('built-in destination rows', () => {
  it('maps a call log', () => {
    const row = callLogRow(
      'acme',
      callLog({ key: 'acme:1', contact: contact('contact:5'), durationSeconds: 9.6 }),
    );
    expect(row).toMatchObject({
      account: 'acme',
      key: 'acme:1',
      started_at: '2026-11-20T10:15:00.000Z',
      duration_seconds: 10,
      contact_id: 'contact:5',
      contact_kind: 'contact',
      contact_name: 'Ada Lovelace',
      body: '',
    });
  });

  it('keeps the IVR keys pressed in the call log body (no column of their own)', () => {
    expect(callLogRow('acme', callLog({ key: 'acme:2', ivrDigits: '9' })).body).toBe('IVR keys pressed: 9');
  });

  it('maps a callback task', () => {
    expect(taskRow('acme', callbackTask({ key: 'acme:cb:1' }))).toEqual({
      account: 'acme',
      key: 'acme:cb:1',
      subject: 'Call back +44 20 7946 0000',
      body: 'Missed call at 10:15 (1 attempt).',
      status: 'open',
      due_at: '2026-11-20T11:15:00.000Z',
      caller_number: '+442079460000',
      assignee_email: null,
      contact_id: null,
      contact_kind: null,
      contact_name: null,
    });
  });

  it('maps a synced contact', () => {
    expect(
      syncedContact({
        id: 3,
        first_name: null,
        last_name: 'Kay',
        user_id: 12,
        synced_at: new Date('2026-01-01Z'),
      }),
    ).toEqual({
      crmId: 'contact:3',
      kind: 'contact',
      name: 'Kay',
      ownerId: '12',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
  });
});

describe('vendor errors', () => {
  const apiException = (code: number, body: unknown, headers: Record<string, string> = {}) =>
    Object.assign(new Error('HTTP-Code'), { code, body, headers });

  it('HubSpot: 429 waits Retry-After, or the policy window', () => {
    expect(hubspotRateLimit(apiException(429, { message: 'x' }, { 'retry-after': '3' }))?.retryAfterMs).toBe(
      3000,
    );
    expect(
      hubspotRateLimit(apiException(429, { message: 'You have reached your ten_secondly_rolling limit.' }))
        ?.retryAfterMs,
    ).toBe(10_000);
    // The daily limit: until the next quarter hour of UTC (a local midnight somewhere), at least a minute.
    const now = Date.UTC(2026, 10, 27, 15, 50, 5);
    expect(
      hubspotRateLimit(apiException(429, { message: 'You have reached your daily limit.' }), now)
        ?.retryAfterMs,
    ).toBe(9 * 60_000 + 55_000);
    const late = Date.UTC(2026, 10, 27, 15, 59, 30);
    expect(
      hubspotRateLimit(apiException(429, { policyName: 'DAILY', message: 'x' }, { 'retry-after': '3' }), late)
        ?.retryAfterMs,
    ).toBe(60_000);
    expect(hubspotRateLimit(apiException(400, {}))).toBeNull();
  });

  it('HubSpot: status decides retryability', () => {
    expect(hubspotError(apiException(400, { category: 'VALIDATION_ERROR', message: 'bad' }))).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      retryable: false,
      message: 'hubspot: bad',
    });
    expect(hubspotError(apiException(502, 'gateway'))).toMatchObject({ status: 502, retryable: true });
    expect(hubspotError(new Error('socket hang up'))).toMatchObject({ retryable: true });
  });

  it('Salesforce: error codes decide status and retryability', () => {
    const sf = (errorCode: string) => Object.assign(new Error(errorCode), { errorCode });
    expect(salesforceError(sf('INVALID_FIELD'))).toMatchObject({ status: 400, retryable: false });
    expect(salesforceError(sf('NOT_FOUND'))).toMatchObject({ status: 404, retryable: false });
    expect(salesforceError(sf('ERROR_HTTP_503'))).toMatchObject({ status: 503, retryable: true });
    expect(salesforceError(sf('UNABLE_TO_LOCK_ROW'))).toMatchObject({ retryable: true });
    expect(salesforceError(new Error('ECONNRESET'))).toMatchObject({ retryable: true });
    expect(salesforceRateLimit(sf('REQUEST_LIMIT_EXCEEDED'))?.retryAfterMs).toBe(3_600_000);
    expect(salesforceRateLimit(sf('INVALID_FIELD'))).toBeNull();
  });
});

describe('RateGate', () => {
  function clock() {
    let now = 0;
    const slept: number[] = [];
    return {
      slept,
      time: {
        now: () => now,
        sleep: async (ms: number) => {
          slept.push(ms);
          now += ms;
        },
      },
    };
  }
  class SlowDown extends Error {}
  const limited = (err: unknown) =>
    err instanceof SlowDown ? { retryAfterMs: 2000, message: 'slow down', status: 429 } : null;

  it('spaces requests beyond the burst at the sustained rate', async () => {
    const c = clock();
    const gate = new RateGate({ destination: 't', requestsPerSecond: 2, burst: 2, time: c.time });
    for (let i = 0; i < 4; i++) await gate.run(async () => i, limited);
    expect(c.slept).toEqual([500, 500]);
  });

  it('waits Retry-After and sends again, up to maxRetries', async () => {
    const c = clock();
    const gate = new RateGate({ destination: 't', requestsPerSecond: 100, burst: 100, time: c.time });
    let calls = 0;
    const result = await gate.run(async () => {
      calls++;
      if (calls < 3) throw new SlowDown('slow down');
      return 'ok';
    }, limited);
    expect(result).toBe('ok');
    expect(c.slept).toEqual([2000, 2000]);
    expect(gate.throttled).toBe(2);

    const always = gate.run(async () => {
      throw new SlowDown('slow down');
    }, limited);
    await expect(always).rejects.toBeInstanceOf(CrmRateLimitedError);
  });

  it('throws at once when Retry-After exceeds what it may wait, and passes other errors through', async () => {
    const c = clock();
    const gate = new RateGate({
      destination: 't',
      requestsPerSecond: 100,
      burst: 100,
      maxRetryAfterMs: 1000,
      time: c.time,
    });
    await expect(
      gate.run(async () => {
        throw new SlowDown('slow down');
      }, limited),
    ).rejects.toMatchObject({ retryAfterMs: 2000, retryable: true });
    expect(c.slept).toEqual([]);
    await expect(
      gate.run(async () => {
        throw new Error('boom');
      }, limited),
    ).rejects.toThrow('boom');
  });
});
