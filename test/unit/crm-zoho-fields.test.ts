// What callsync writes into Zoho CRM records (connectors/zoho/fields.ts), and the config's errors.
import { zohoConfigSchema } from '../../connectors/zoho/config';
import {
  callDuration,
  callFields,
  callType,
  keyOfNote,
  noteFields,
  personFields,
  searchDigits,
  taskFields,
  taskStatus,
} from '../../connectors/zoho/fields';
import type { CallLog } from '../../connectors/crm/crm-connector';

const log: CallLog = {
  key: 'acme:42',
  title: 'Inbound call from +442079460000',
  direction: 'inbound',
  status: 'completed',
  startedAt: '2026-11-20T10:15:00.000Z',
  durationSeconds: 125,
  fromNumber: '+442079460000',
  toNumber: null,
  userEmail: null,
  contact: { crmId: '5725767000000000001', kind: 'contact', name: null, ownerId: null, updatedAt: null },
  recordingUrl: 'https://r.example/42.mp3',
  summary: 'Asked about invoice 42.',
  transcriptExcerpt: null,
  sentiment: null,
  ivrDigits: null,
};

describe('Zoho CRM fields', () => {
  it('writes a call as a Calls record on the contact, with the key and the body', () => {
    const f = callFields(log, 'Callsync_Key');
    expect(f).toMatchObject({
      Subject: log.title,
      Call_Type: { choice: 'Inbound' },
      Call_Duration: '02:05',
      Callsync_Key: 'acme:42',
      Who_Id: { id: log.contact!.crmId },
    });
    expect(f.Call_Start_Time).toEqual(new Date(log.startedAt));
    expect(f.Description).toEqual(expect.stringContaining('Asked about invoice 42.'));
  });

  it('puts a lead in What_Id with $se_module, and a missed inbound call is Missed', () => {
    expect(personFields({ ...log.contact!, kind: 'lead' })).toEqual({
      What_Id: { id: log.contact!.crmId },
      $se_module: 'Leads',
    });
    expect(callType({ direction: 'inbound', status: 'missed' })).toBe('Missed');
    expect(callType({ direction: 'outbound', status: 'busy' })).toBe('Outbound');
    expect(callDuration(3725)).toBe('62:05');
  });

  it("maps a callback's state to Zoho's task Status", () => {
    expect([taskStatus('open'), taskStatus('closed'), taskStatus('expired')]).toEqual([
      'Not Started',
      'Completed',
      'Deferred',
    ]);
    const t = taskFields(
      {
        key: 'acme:callback:+442079460000:1',
        subject: 'Call back',
        body: 'b',
        status: 'open',
        dueAt: '2026-11-20T11:00:00Z',
        callerNumber: '+442079460000',
        assigneeEmail: null,
        contact: null,
      },
      'Callsync_Key',
      'High',
    );
    expect(t).toMatchObject({
      Status: { choice: 'Not Started' },
      Priority: { choice: 'High' },
      Callsync_Key: 'acme:callback:+442079460000:1',
    });
  });

  it('searches by digits: a "+" would reach Zoho as a space', () => {
    expect(searchDigits('+442079460000')).toBe('442079460000');
  });

  it('refuses a config without its data centre or with half a test override, naming the field', () => {
    const base = { type: 'zoho', clientId: 'c', clientSecret: 's', refreshToken: 'r' };
    const noDc = zohoConfigSchema.safeParse(base);
    expect(noDc.error?.issues[0]?.path).toEqual(['dataCentre']);
    const half = zohoConfigSchema.safeParse({ ...base, dataCentre: 'eu', apiUrl: 'http://127.0.0.1:1' });
    expect(half.error?.issues[0]?.path).toEqual(['accountsUrl']);
    expect(zohoConfigSchema.parse({ ...base, dataCentre: 'eu' })).toMatchObject({
      maxConcurrentRequests: 5,
      keyField: 'Callsync_Key',
    });
  });
});

describe('Zoho CRM notes', () => {
  it("ends an SMS note with callsync's key line, read back by keyOfNote, on the lead's module", () => {
    const f = noteFields({
      key: 'acme:sms:7',
      channel: 'sms',
      direction: 'inbound',
      at: '2026-11-24T10:00:00.000Z',
      fromNumber: '+442079460000',
      toNumber: null,
      title: 'SMS from +442079460000',
      body: 'Running late',
      userEmail: null,
      contact: { crmId: '5725767000000000009', kind: 'lead', name: null, ownerId: null, updatedAt: null },
    });
    expect(f.Parent_Id).toEqual({ id: '5725767000000000009', module: 'Leads' });
    expect(keyOfNote(f.Note_Content)).toBe('acme:sms:7');
    expect(keyOfNote('callsync key: acme:sms:7 and more')).toBeNull();
  });
});
