// What the Pipedrive connector writes (pure mapping) and its config's errors.
import { PipedriveConnector } from '../../connectors/pipedrive';
import { pipedriveConfigSchema } from '../../connectors/pipedrive/config';
import { crmDestinationIdOf } from '../../runtime/crm-identity';
import { parseTestConfig } from '../support/test-config';
import {
  callActivity,
  callLogRecord,
  durationOf,
  htmlWithKey,
  keyOf,
  outcomeOf,
  phoneQuery,
  taskActivity,
  textOf,
} from '../../connectors/pipedrive/records';
import { callbackTask, callLog, contact } from './crm-fixtures';

describe('the key marker', () => {
  it('reads back the key written last in a note, HTML in the text escaped', () => {
    const html = htmlWithKey('Summary: <b>price</b> & terms\n\nline two', 'acme:callback:+442079460000:3');
    expect(html).toContain('&lt;b&gt;price&lt;/b&gt; &amp; terms');
    expect(keyOf(html)).toBe('acme:callback:+442079460000:3');
    expect(textOf(html)).toBe(
      'Summary: <b>price</b> & terms\n\nline two\n\ncallsync key: acme:callback:+442079460000:3',
    );
    expect(keyOf('<p>no marker</p>')).toBeNull();
    expect(keyOf(null)).toBeNull();
  });

  it('a key quoted in the text does not hide the real one', () => {
    const html = htmlWithKey('callsync key: acme:1 was mentioned', 'acme:2');
    expect(keyOf(html)).toBe('acme:2');
  });
});

describe('call logs', () => {
  it('an activity of type call, done, on the contact, timed and keyed', () => {
    const log = callLog({ contact: contact('17'), summary: 'Renewal agreed.', durationSeconds: 125 });
    expect(callActivity(log, 5)).toMatchObject({
      subject: log.title,
      type: 'call',
      done: true,
      due_date: '2026-11-20',
      due_time: '10:15',
      duration: '00:03',
      person_id: 17,
      owner_id: 5,
    });
    expect(keyOf(callActivity(log, null).note)).toBe(log.key);
    expect(textOf(callActivity(log, null).note)).toContain('Summary: Renewal agreed.');
    expect(callActivity(log, null)).not.toHaveProperty('owner_id');
  });

  it("the Call Logs API record: Pipedrive's outcome, the number called, UTC times", () => {
    const inbound = callLog({ direction: 'inbound', fromNumber: '+442079460000', toNumber: '+442079460999' });
    expect(callLogRecord(inbound, 9, null)).toMatchObject({
      activity_id: 9,
      outcome: 'connected',
      to_phone_number: '+442079460999',
      from_phone_number: '+442079460000',
      start_time: '2026-11-20 10:15:00',
      end_time: '2026-11-20 10:17:05',
      duration: '125',
    });
    const outbound = callLog({
      direction: 'outbound',
      fromNumber: '+442079460999',
      toNumber: '+442079460000',
    });
    expect(callLogRecord(outbound, 9, 3)).toMatchObject({
      to_phone_number: '+442079460000',
      from_phone_number: '+442079460999',
      user_id: 3,
    });
    expect(callLogRecord(callLog({ toNumber: null }), 9, null).to_phone_number).toBe('unknown');
  });

  it('maps every status to one of the outcomes Pipedrive accepts', () => {
    expect(outcomeOf('completed')).toBe('connected');
    expect(outcomeOf('missed')).toBe('no_answer');
    expect(outcomeOf('voicemail')).toBe('left_voicemail');
    expect(outcomeOf('busy')).toBe('busy');
    expect(outcomeOf('failed')).toBe('no_answer');
    expect(durationOf(0)).toBe('00:00');
    expect(durationOf(3600 + 61)).toBe('01:02');
  });
});

describe('callback tasks', () => {
  it('an open activity of type call; done when closed or expired', () => {
    const task = callbackTask({ contact: contact('4') });
    expect(taskActivity(task, null)).toMatchObject({
      type: 'call',
      done: false,
      person_id: 4,
      due_time: '11:15',
    });
    expect(taskActivity({ ...task, status: 'closed' }, null).done).toBe(true);
    const expired = taskActivity({ ...task, status: 'expired' }, null);
    expect(expired.done).toBe(true);
    expect(expired.subject).toBe(`${task.subject} (expired)`);
    expect(keyOf(expired.note)).toBe(task.key);
  });
});

describe('phone matching', () => {
  it('searches the national number and keeps only phones that hold the whole number', () => {
    const q = phoneQuery('+442079460000');
    expect(q.term).toBe('2079460000');
    for (const typed of ['+44 20 7946 0000', '020 7946 0000', '442079460000', '(020) 7946-0000'])
      expect(q.holds(typed)).toBe(true);
    expect(q.holds('+44 20 7946 0001')).toBe(false);
    expect(q.holds('+1 207 946 0000')).toBe(false);
  });
});

describe('config', () => {
  const base = { type: 'pipedrive', companyDomain: 'acme' };

  it('takes an API token or an OAuth app, one of the two, naming the field', () => {
    expect(pipedriveConfigSchema.parse({ ...base, apiToken: 't' }).requestsPer2Seconds).toBe(20);
    const neither = pipedriveConfigSchema.safeParse(base);
    expect(neither.error?.issues[0]?.path).toEqual(['apiToken']);
    const both = pipedriveConfigSchema.safeParse({
      ...base,
      apiToken: 't',
      oauth: { clientId: 'c', clientSecret: 's', refreshToken: 'r' },
    });
    expect(both.error?.issues[0]?.path).toEqual(['oauth']);
  });

  it('refuses a company domain that is not a subdomain, and a search rate above Pipedrive’s', () => {
    const bad = pipedriveConfigSchema.safeParse({
      ...base,
      companyDomain: 'https://acme.pipedrive.com',
      apiToken: 't',
    });
    expect(bad.error?.issues[0]?.path).toEqual(['companyDomain']);
    const fast = pipedriveConfigSchema.safeParse({ ...base, apiToken: 't', searchRequestsPer2Seconds: 11 });
    expect(fast.error?.issues[0]?.path).toEqual(['searchRequestsPer2Seconds']);
  });
});

describe('identity', () => {
  it('the dashboard keys a Pipedrive account by the same destination id as its connector', () => {
    const destination = { type: 'pipedrive', companyDomain: 'Acme', apiToken: 't' };
    const config = parseTestConfig({
      accounts: [
        {
          name: 'acme',
          platform: {
            baseUrl: 'http://127.0.0.1:1/v1.1/voipstudio',
            credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
          },
        },
      ],
      crm: { destination },
    });
    const connector = new PipedriveConnector(pipedriveConfigSchema.parse(destination));
    expect(crmDestinationIdOf(config, 'acme')).toBe('pipedrive:acme');
    expect(connector.destinationId).toBe('pipedrive:acme');
  });
});
