import { dtmfKeys } from '../../connectors/platform/schemas/events';
import { parseWebhookBody, storedCallSignal } from '../../connectors/platform/webhook-body';

const call = {
  id: 'ev-1',
  event_time: '2026-11-30 10:00:00',
  event_name: 'call.ringing',
  call_id: 1234,
  state: 'RINGING',
  context: 'LOCAL_USER',
  destination: 'in',
  src: '+442071234567',
  dst: '101',
};

describe('webhook body', () => {
  it('classifies call, SMS, test and unknown events', () => {
    const c = parseWebhookBody(JSON.stringify(call));
    expect(c).toMatchObject({ ok: true, test: false, event: { kind: 'call', event: { call_id: 1234 } } });
    const sms = parseWebhookBody(
      JSON.stringify({ id: 's1', event_name: 'sms.received', from_no: '+4477', to_no: '+4420', text: 'hi' }),
    );
    expect(sms).toMatchObject({ ok: true, event: { kind: 'sms' } });
    const test = parseWebhookBody(JSON.stringify({ id: 't', event_name: 'webhook.test' }));
    expect(test).toMatchObject({ ok: true, test: true });
    const unknown = parseWebhookBody(JSON.stringify({ id: 9, event_name: 'call.transcribed', extra: [1] }));
    expect(unknown).toMatchObject({ ok: true, test: false, event: { kind: 'unknown', event: { id: '9' } } });
  });

  it('accepts a call id sent as a numeric string', () => {
    expect(parseWebhookBody(JSON.stringify({ ...call, call_id: '77' }))).toMatchObject({
      ok: true,
      event: { event: { call_id: 77 } },
    });
  });

  it.each([
    ['not JSON', '{nope', 'body: is not valid JSON'],
    ['empty', '', 'body: is not valid JSON'],
    ['an array', '[1]', 'body: must be a JSON object'],
    ['without id', JSON.stringify({ event_name: 'call.ringing' }), 'id: required'],
    ['without event_name', JSON.stringify({ id: 'x' }), 'event_name: required'],
    ['a call event without call_id', JSON.stringify({ ...call, call_id: undefined }), 'call_id: required'],
    ['a call event with a bad call_id', JSON.stringify({ ...call, call_id: 'abc' }), 'call_id:'],
    ['a NUL character', JSON.stringify({ id: 'x', event_name: 'y', t: 'a\u0000b' }), 'body: contains'],
  ])('refuses %s, naming the field', (_what, text, reason) => {
    const parsed = parseWebhookBody(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain(reason);
  });
});

describe('DTMF key press (event name and body undocumented)', () => {
  const dtmf = { ...call, id: 'ev-d', event_name: 'call.dtmf', state: 'INITIAL', context: 'IVR', digit: '2' };

  it('classifies call.dtmf with a call id as a DTMF event of that call, with its keys', () => {
    expect(parseWebhookBody(JSON.stringify(dtmf))).toEqual({
      ok: true,
      test: false,
      event: { kind: 'dtmf', event: expect.objectContaining({ id: 'ev-d', call_id: 1234, digits: '2' }) },
    });
  });

  it.each(['call.dtmf', 'call.DTMF_key_press', 'dtmf', 'ivr.dtmf.received'])(
    'recognises the name %s',
    (name) => {
      expect(parseWebhookBody(JSON.stringify({ ...dtmf, event_name: name }))).toMatchObject({
        ok: true,
        event: { kind: 'dtmf', event: { event_name: name, call_id: 1234 } },
      });
    },
  );

  it('needs only id, event_name and call_id (a numeric string will do)', () => {
    const bare = parseWebhookBody(JSON.stringify({ id: 'd1', event_name: 'dtmf', call_id: '88', key: 5 }));
    expect(bare).toMatchObject({ ok: true, event: { kind: 'dtmf', event: { call_id: 88, digits: '5' } } });
  });

  it.each([
    ['no call_id', { ...dtmf, call_id: undefined }],
    ['a null call_id', { ...dtmf, call_id: null }],
  ])('keeps a DTMF event with %s as unknown, never refusing it', (_what, body) => {
    expect(parseWebhookBody(JSON.stringify(body))).toMatchObject({
      ok: true,
      test: false,
      event: { kind: 'unknown', event: { id: 'ev-d', event_name: 'call.dtmf' } },
    });
  });

  it.each([
    [{ digit: '2' }, '2'],
    [{ digits: '12#' }, '12#'],
    [{ dtmf: '*0' }, '*0'],
    [{ key: 7 }, '7'],
    [{ digit: 'b' }, 'B'],
    [{ digits: '1, 2 x 3' }, '123'],
    [{ digit: '', digits: '4' }, '4'],
    [{ digit: null, key: '9' }, '9'],
    [{ digit: '5', key: '9' }, '5'],
    [{ digit: { k: 1 }, dtmf: 'D' }, 'D'],
    [{ digit: -1 }, null],
    [{ digit: 'xyz' }, null],
    [{}, null],
  ])('reads the keys of %o as %p', (fields, keys) => {
    expect(dtmfKeys(fields)).toBe(keys);
    const parsed = parseWebhookBody(
      JSON.stringify({ id: 'k', event_name: 'call.dtmf', call_id: 1, ...fields }),
    );
    expect(parsed).toMatchObject({ ok: true, event: { kind: 'dtmf', event: { digits: keys } } });
  });

  it('leaves call events and unknown events without keys', () => {
    expect(parseWebhookBody(JSON.stringify({ ...call, digit: '1' }))).toMatchObject({
      event: { kind: 'call' },
    });
    expect(parseWebhookBody(JSON.stringify({ id: 'u', event_name: 'call.keypad', x: 1 }))).toMatchObject({
      event: { kind: 'unknown' },
    });
  });
});

describe('stored call bodies (relay)', () => {
  it('turns a stored DTMF body into a call signal with its keys', () => {
    const body = {
      ...call,
      id: 'ev-d',
      event_name: 'call.dtmf',
      call_id: '1234',
      context: 'IVR',
      digit: '3',
    };
    expect(storedCallSignal(body)).toEqual({
      ok: true,
      callId: 1234,
      signal: expect.objectContaining({
        eventId: 'ev-d',
        name: 'call.dtmf',
        context: 'IVR',
        src: '+442071234567',
        digits: '3',
      }),
    });
  });

  it('turns a stored call event into a call signal without keys', () => {
    expect(storedCallSignal(call)).toMatchObject({
      ok: true,
      callId: 1234,
      signal: { eventId: 'ev-1', name: 'call.ringing', state: 'RINGING', digits: null },
    });
  });

  it.each([
    ['a DTMF body without call_id', { id: 'd', event_name: 'call.dtmf', digit: '1' }],
    ['a call body with a bad call_id', { ...call, call_id: 'abc' }],
    ['a call id of 0', { ...call, call_id: 0 }],
    ['an event of no call', { id: 'x', event_name: 'call.keypad' }],
    ['not an object', 'text'],
  ])('reports %s as no longer valid', (_what, body) => {
    const stored = storedCallSignal(body);
    expect(stored.ok).toBe(false);
    if (!stored.ok) expect(stored.error).not.toBe('');
  });
});

describe('events of a call beyond the spec (live deployments)', () => {
  it.each([
    ['call.transfer', 1234],
    ['call.transferred', '1234'],
    ['recording.ready', 1234],
    ['call.hold.started', '1234'],
    ['queue.agent.assigned', 1234],
  ])('classifies %s with call id %p as an event of that call', (name, callId) => {
    expect(parseWebhookBody(JSON.stringify({ ...call, event_name: name, call_id: callId }))).toMatchObject({
      ok: true,
      test: false,
      event: { kind: 'call', event: { event_name: name, call_id: 1234, src: '+442071234567' } },
    });
  });

  it('reads an unlisted event leniently: fields it cannot read are left to the body, not refused', () => {
    const odd = { id: 'o1', event_name: 'call.transfer', call_id: 7, duration: 'long', src: { n: 1 } };
    expect(parseWebhookBody(JSON.stringify(odd))).toMatchObject({
      ok: true,
      event: { kind: 'call', event: { call_id: 7, duration: undefined } },
    });
    const stored = storedCallSignal(odd);
    expect(stored).toMatchObject({ ok: true, callId: 7, signal: { name: 'call.transfer', body: odd } });
  });

  it.each([
    ['call.ringing', 0],
    ['call.ringing', -5],
    ['call.hangup', 1.5],
    ['call.transfer', 0],
    ['call.transfer', '-1'],
    ['call.transfer', 'abc'],
    ['call.transfer', '12a'],
    ['call.dtmf', 'abc'],
    ['call.dtmf', 12.5],
    ['recording.ready', 2 ** 60],
    ['recording.ready', true],
    ['recording.ready', { id: 1 }],
  ])('refuses %s with call id %p (400 naming call_id)', (name, callId) => {
    const parsed = parseWebhookBody(JSON.stringify({ id: 'bad-call', event_name: name, call_id: callId }));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problems.map((p) => p.field)).toEqual(['call_id']);
      expect(parsed.reason).toContain('call_id: must be a positive integer');
    }
  });

  it('keeps every field of the body in the signal', () => {
    const body = { ...call, clid: '"Jo" <+4420>', src_hash: 'abc', info: 'x', custom: { tags: ['vip'] } };
    const stored = storedCallSignal(body);
    expect(stored).toMatchObject({ ok: true, signal: { eventId: 'ev-1', body } });
  });

  it.each([
    [{ dtmf_digits: '12' }, '12'],
    [{ dtmfDigit: '#' }, '#'],
    [{ DTMF: '9' }, '9'],
    [{ digit_pressed: 4 }, '4'],
    [{ digitsEntered: '3 1' }, '31'],
    [{ keys: '*5' }, '*5'],
    [{ key_pressed: 'a' }, 'A'],
    [{ keypad: '', keys_pressed: '0' }, '0'],
  ])('finds the keys of a DTMF event in %o', (fields, keys) => {
    expect(dtmfKeys(fields)).toBe(keys);
    expect(
      parseWebhookBody(JSON.stringify({ id: 'k', event_name: 'ivr.dtmf', call_id: '5', ...fields })),
    ).toMatchObject({ ok: true, event: { kind: 'dtmf', event: { call_id: 5, digits: keys } } });
  });
});

describe('bodies PostgreSQL could not store', () => {
  it('refuses an event id longer than 255 characters, naming id', () => {
    const parsed = parseWebhookBody(JSON.stringify({ ...call, id: 'x'.repeat(256) }));
    expect(parsed).toMatchObject({ ok: false, problems: [{ field: 'id' }] });
    expect(parseWebhookBody(JSON.stringify({ ...call, id: 'x'.repeat(255) })).ok).toBe(true);
  });

  it('refuses a body nested too deep', () => {
    const deep = `{"id":"d","event_name":"x","n":${'['.repeat(40)}${']'.repeat(40)}}`;
    const parsed = parseWebhookBody(deep);
    expect(parsed).toMatchObject({ ok: false, problems: [{ field: 'body' }] });
    if (!parsed.ok) expect(parsed.reason).toContain('nested deeper');
    const flat = `{"id":"d","event_name":"x","n":${'['.repeat(20)}${']'.repeat(20)}}`;
    expect(parseWebhookBody(flat).ok).toBe(true);
  });

  it('accepts the escaped text \\u0000 and refuses a real NUL, in values and keys', () => {
    const escaped = JSON.stringify({ ...call, info: 'C:\\u0000\\path' });
    expect(escaped).toContain('\\\\u0000');
    expect(parseWebhookBody(escaped).ok).toBe(true);
    expect(parseWebhookBody(JSON.stringify({ ...call, ['k\u0000']: 1 })).ok).toBe(false);
    expect(parseWebhookBody(JSON.stringify({ ...call, info: ['a\u0000'] })).ok).toBe(false);
  });
});
