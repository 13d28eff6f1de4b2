import { parseWebhookBody } from '../../server/webhook-body';

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
