// The Salesforce connector through jsforce against the local Salesforce (test/fakes): what only
// Salesforce has (Task fields and subtypes, leads and their conversion, duplicate rules, SOSL, the
// org's picklists, its errors). What every destination does (matching, one call log, task and message
// per key, lost answers, owners, outcomes, erasure, session renewal) is
// test/conformance/salesforce.test.ts.
import { SalesforceConnector, salesforceConfigSchema } from '../../connectors/salesforce';
import { NO_COMPANY } from '../../connectors/salesforce/contact-records';
import { emptyState } from '../../sync/contacts/model';
import { CrmError, CrmRateLimitedError } from '../../connectors/crm/errors';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';
import type { MessageLog } from '../../connectors/crm/crm-connector';
import { callbackTask, callLog, contact } from '../unit/crm-fixtures';

let fake: FakeSalesforce;
let sf: SalesforceConnector;

function connector(extra: Record<string, unknown> = {}) {
  return new SalesforceConnector(
    salesforceConfigSchema.parse({
      type: 'salesforce',
      instanceUrl: fake.url,
      accessToken: fake.token,
      apiVersion: fake.version,
      requestsPerSecond: 50,
      ...extra,
    }),
  );
}

beforeAll(async () => {
  fake = await startFakeSalesforce();
  sf = connector();
});
afterAll(() => fake.close());

describe('SalesforceConnector', () => {
  it('logs a call as a Task of subtype Call on the contact, finds it by CallObject, updates it', async () => {
    const who = fake.seed('Contact', { FirstName: 'Ada', LastName: 'Lovelace', Phone: '+44 20 7946 0000' });
    const owner = fake.seed('User', { LastName: 'Agent', Email: 'agent@example.com' });
    const log = callLog({ contact: contact(who), userEmail: 'agent@example.com', direction: 'outbound' });
    const id = await sf.createCallLog(log);

    const task = fake.records('Task').find((r) => r.Id === id)!;
    expect(task.fields).toMatchObject({
      TaskSubtype: 'Call',
      CallType: 'Outbound',
      CallDurationInSeconds: 125,
      CallDisposition: 'Connected',
      CallObject: log.key,
      Status: 'Completed',
      ActivityDate: '2026-11-20',
      WhoId: who,
      OwnerId: owner,
    });
    expect(fake.requests.some((r) => r.method === 'POST' && r.path.endsWith('/sobjects/Task'))).toBe(true);

    expect(await sf.findCallLog(log.key)).toBe(id);
    expect(await sf.findCallLog(`${log.key}x`)).toBeNull();
    expect(await sf.findTask(log.key)).toBeNull();

    await sf.updateCallLog(id, {
      ...log,
      summary: 'Renewal agreed.',
      recordingUrl: 'https://rec.example/2.mp3',
    });
    expect(task.fields.Description).toBe('Summary: Renewal agreed.\n\nRecording: https://rec.example/2.mp3');
    const patch = fake.requests.find((r) => r.method === 'PATCH' && r.path.endsWith(`/sobjects/Task/${id}`))!;
    expect(patch.body).not.toHaveProperty('TaskSubtype');
    // The outcome is the agent's once the Task exists: an update leaves it alone.
    expect(patch.body).not.toHaveProperty('CallDisposition');
    expect(fake.records('Task')).toHaveLength(1);
  });

  it('updates several call logs with one sObject Collections request', async () => {
    const a = callLog();
    const b = callLog({ status: 'voicemail' });
    const ids = [await sf.createCallLog(a), await sf.createCallLog(b)];
    const before = fake.requests.length;
    await sf.updateCallLogs([
      { crmId: ids[0]!, log: { ...a, summary: 'one' } },
      { crmId: ids[1]!, log: { ...b, summary: 'two' } },
    ]);
    expect(
      fake.requests.slice(before).map((r) => `${r.method} ${r.path.replace(/^.*\/v[\d.]+/, '')}`),
    ).toEqual(['PATCH /composite/sobjects']);
    const byId = new Map(fake.records('Task').map((r) => [r.Id, r]));
    expect(byId.get(ids[1]!)!.fields).toMatchObject({
      Description: 'Summary: two',
      CallDisposition: 'Voicemail',
    });
  });

  it('writes a callback task as an open Task on the lead; an expired one is Deferred', async () => {
    const lead = fake.seed('Lead', { LastName: 'Hopper', Company: 'Navy', MobilePhone: '+33612345678' });
    const task = callbackTask({ contact: contact(lead, { kind: 'lead' }) });
    const id = await sf.createTask(task);
    const stored = fake.records('Task').find((r) => r.Id === id)!;
    expect(stored.fields).toMatchObject({
      TaskSubtype: 'Task',
      Status: 'Not Started',
      Priority: 'High',
      ActivityDate: '2026-11-20',
      WhoId: lead,
      CallObject: task.key,
    });
    // An expired callback (nobody reached the caller) is Deferred, a value of the standard picklist.
    await sf.updateTask(id, { ...task, status: 'expired' });
    expect(stored.fields.Status).toBe('Deferred');
  });

  it('an org that renamed its Task Status and Priority values gets them, read once from the describe and TaskStatus', async () => {
    const org = await startFakeSalesforce({
      taskStatuses: [
        { value: 'Offen', defaultValue: true },
        { value: 'In Arbeit' },
        { value: 'Erledigt', closed: true },
        { value: 'Completed', active: false },
      ],
      taskPriorities: [{ value: 'Hoch' }, { value: 'Mittel', defaultValue: true }, { value: 'Niedrig' }],
    });
    try {
      // The org refuses the standard values, as Salesforce refuses a value outside a restricted picklist.
      const raw = await fetch(`${org.url}/services/data/v${org.version}/sobjects/Task`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ Subject: 'x', Status: 'Not Started' }),
      });
      expect(raw.status).toBe(400);
      expect(await raw.json()).toEqual([
        expect.objectContaining({ errorCode: 'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST', fields: ['Status'] }),
      ]);

      const crm = new SalesforceConnector(
        salesforceConfigSchema.parse({
          type: 'salesforce',
          instanceUrl: org.url,
          accessToken: org.token,
          apiVersion: org.version,
          requestsPerSecond: 50,
        }),
      );
      const who = org.seed('Contact', { LastName: 'Weber', Phone: '+49 30 1234567' });
      const task = callbackTask({ contact: contact(who) });
      const id = await crm.createTask(task);
      const stored = org.records('Task').find((r) => r.Id === id)!;
      // The configured priority (High) is not the org's: its default is written instead.
      expect(stored.fields).toMatchObject({ Status: 'Offen', Priority: 'Mittel' });
      await crm.updateTask(id, { ...task, status: 'closed' });
      expect(stored.fields.Status).toBe('Erledigt');
      // No Deferred in this org: an expired callback stays open.
      await crm.updateTask(id, { ...task, status: 'expired' });
      expect(stored.fields.Status).toBe('Offen');

      const logId = await crm.createCallLog(callLog({ contact: contact(who) }));
      expect(org.records('Task').find((r) => r.Id === logId)!.fields).toMatchObject({
        Status: 'Erledigt',
        Priority: 'Mittel',
      });
      const [batchTask] = [...(await crm.batch.createTasks([callbackTask()])).values()];
      expect(org.records('Task').find((r) => r.Id === batchTask)!.fields.Status).toBe('Offen');

      const reads = (path: string) => org.requests.filter((r) => r.path.endsWith(path)).length;
      expect(reads('/sobjects/Task/describe')).toBe(1);
      expect(
        org.requests.filter((r) => r.path.endsWith('/query') && (r.query ?? '').includes('TaskStatus')),
      ).toHaveLength(1);
    } finally {
      await org.close();
    }
  });

  it('finds contacts and unconverted leads by phone with SOSL, and creates a contact', async () => {
    const c = fake.seed(
      'Contact',
      { LastName: 'Turing', Phone: '+44 1632 960001', OwnerId: null },
      '2026-01-01T00:00:00.000Z',
    );
    const l = fake.seed('Lead', { LastName: 'Kay', Company: 'X', MobilePhone: '01632 960001' });
    fake.seed('Lead', { LastName: 'Old', Company: 'X', Phone: '+441632960001', IsConverted: true });
    fake.seed('Contact', { LastName: 'Other', Phone: '+441632960002' });
    // SOSL finds this one by the token 0001 (its last group); it is another number, so it is not kept.
    fake.seed('Contact', { LastName: 'Same tail', Phone: '+44 20 7946 0001' });
    const found = await sf.findContactsByPhone('+441632960001');
    expect(found).toEqual([
      { crmId: c, kind: 'contact', name: 'Turing', ownerId: null, updatedAt: '2026-01-01T00:00:00.000Z' },
      expect.objectContaining({ crmId: l, kind: 'lead', name: 'Kay' }),
    ]);
    const sosl = fake.requests.filter((r) => r.path.endsWith('/search')).pop()!;
    // The search index holds "+44 1632 960001" as the tokens 44, 1632 and 960001: the international and
    // national digits alone miss it, so every tail of the number is searched too.
    const find = decodeURIComponent(sosl.query!.replace(/\+/g, ' '));
    expect(find).toContain('FIND {441632960001 OR 1632960001 OR 01632960001 OR ');
    expect(find).toContain(' OR 960001 OR ');

    const created = await sf.createContact({ phone: '+441632960009', name: null });
    expect(fake.records('Contact').find((r) => r.Id === created.crmId)!.fields).toMatchObject({
      LastName: '+441632960009',
      Phone: '+441632960009',
    });
  });

  it("an unknown caller the org's duplicate rule knows is that record: found, not duplicated", async () => {
    const known = fake.seed('Contact', { FirstName: 'Grace', LastName: 'Known', Phone: '+441632960055' });
    const before = fake.records('Contact').length;
    const found = await sf.createContact({ phone: '+441632960055', name: null });
    expect(found).toMatchObject({ crmId: known, kind: 'contact', name: 'Grace Known' });
    expect(fake.records('Contact')).toHaveLength(before);
    const refused = fake.requests.filter((r) => r.path.endsWith('/sobjects/Contact')).pop()!;
    expect(refused.status).toBe(400);

    // A Lead with the e-mail of an existing Contact matches it too (leads are checked against contacts).
    const lead = fake.seed('Lead', { LastName: 'Lee', Company: 'X', Phone: '+441632960056' });
    const post = (body: object, headers: Record<string, string> = {}) =>
      fetch(`${fake.url}/services/data/v${fake.version}/sobjects/Contact`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const dup = await post({ LastName: 'Again', Phone: '(44) 1632 960055' });
    expect(dup.status).toBe(400);
    const [error] = (await dup.json()) as { errorCode: string; duplicateResult: unknown }[];
    expect(error).toMatchObject({
      errorCode: 'DUPLICATES_DETECTED',
      duplicateResult: {
        matchResults: [{ entityType: 'Contact', matchRecords: [{ record: { Id: known } }] }],
      },
    });
    // Contacts are not checked against Leads (the standard Contact rule compares Contacts).
    expect((await post({ LastName: 'Lee', Phone: '+441632960056' })).status).toBe(201);
    expect(lead).toMatch(/^00Q/);
    // Deliberately: the header saves the duplicate.
    const allowed = await post(
      { LastName: 'Again', Phone: '+441632960055' },
      { 'Sforce-Duplicate-Rule-Header': 'allowSave=true; includeRecordDetails=false' },
    );
    expect(allowed.status).toBe(201);
  });

  it('a Lead converted since it was matched: its call log and callback go on the Contact it became', async () => {
    const lead = fake.seed('Lead', { LastName: 'Conv', Company: 'C', Phone: '+441632960077' });
    const who = contact(lead, { kind: 'lead' });
    const contactId = fake.convertLead(lead);

    // Salesforce refuses a converted Lead as WhoId.
    const raw = await fetch(`${fake.url}/services/data/v${fake.version}/sobjects/Task`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ Subject: 'x', WhoId: lead }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual([
      expect.objectContaining({ errorCode: 'CANNOT_UPDATE_CONVERTED_LEAD', fields: ['WhoId'] }),
    ]);

    // The phone search finds the Contact, not the converted Lead; SOQL sees the conversion.
    expect((await sf.findContactsByPhone('+441632960077')).map((c) => c.crmId)).toEqual([contactId]);
    expect(await sf.convertedContacts([lead])).toEqual(new Map([[lead, contactId]]));

    const task = (id: string) => fake.records('Task').find((r) => r.Id === id)!.fields;
    const logId = await sf.createCallLog(callLog({ contact: who }));
    expect(task(logId).WhoId).toBe(contactId);
    await sf.updateCallLog(logId, callLog({ contact: who }));
    await sf.updateCallLogs([{ crmId: logId, log: callLog({ contact: who }) }]);
    expect(task(logId).WhoId).toBe(contactId);
    const cbId = await sf.createTask(callbackTask({ contact: who }));
    expect(task(cbId).WhoId).toBe(contactId);

    const created = await sf.batch.createCallLogs([callLog({ contact: who }), callLog()]);
    const ids = [...created.values()];
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(task(ids[0] as string).WhoId).toBe(contactId);
  });

  it('SOSL lags behind a create: a second call from a new number finds the first Contact through the duplicate rule', async () => {
    fake.setSearchIndexDelay(60_000);
    try {
      const first = await sf.createContact({ phone: '+14155550199', name: null });
      // Not in the search index yet: the phone search misses the Contact just created…
      expect(await sf.findContactsByPhone('+14155550199')).toEqual([]);
      // …so the caller looks unknown again, and the duplicate rule names the Contact: no second one.
      const again = await sf.createContact({ phone: '+14155550199', name: null });
      expect(again.crmId).toBe(first.crmId);
      expect(fake.records('Contact').filter((r) => r.fields.Phone === '+14155550199')).toHaveLength(1);
    } finally {
      fake.setSearchIndexDelay(0);
    }
    expect((await sf.findContactsByPhone('+14155550199')).map((c) => c.crmId)).toHaveLength(1);
  });

  it('finds a North American number however it was typed', async () => {
    const ids = ['(415) 555-0100', '+1 415 555 0100', '4155550100'].map((Phone, i) =>
      fake.seed('Contact', { LastName: `Format${i}`, Phone }),
    );
    const found = await sf.findContactsByPhone('+14155550100');
    expect(found.map((c) => c.crmId).sort()).toEqual([...ids].sort());
    const batch = await sf.batch.findContactsByPhones(['+14155550100']);
    expect((batch.get('+14155550100') ?? []).map((c) => c.crmId).sort()).toEqual([...ids].sort());
  });

  it('maps Salesforce errors: validation is permanent, the API limit is a rate limit', async () => {
    const invalid = await sf
      .createCallLog(callLog({ contact: contact('003000000000999AAA') }))
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(CrmError);
    expect(invalid).toMatchObject({ code: 'FIELD_INTEGRITY_EXCEPTION', retryable: false, status: 400 });

    const missing = await sf.updateTask('00T000000009999AAA', callbackTask()).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404, retryable: false });

    fake.limitExceededNext(1);
    const limited = await sf.findCallLog('acme:1').catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(CrmRateLimitedError);
    expect(limited).toMatchObject({ retryable: true, retryAfterMs: 3_600_000 });
  });

  it('prepare() passes when every Task field callsync writes is writable', async () => {
    await expect(sf.prepare()).resolves.toBeUndefined();
  });

  it("logs an SMS and a voicemail as completed Tasks on the contact and lead, cut to Salesforce's field lengths", async () => {
    const who = fake.seed('Contact', { LastName: 'Lovelace', Phone: '+44 20 7946 0300' });
    const lead = fake.seed('Lead', { LastName: 'Kay', Company: 'X', Phone: '+44 20 7946 0301' });
    const owner = fake.seed('User', { LastName: 'Texter', Email: 'texter@example.com' });
    const sms: MessageLog = {
      key: 'acme:sms:901',
      channel: 'sms',
      direction: 'outbound',
      at: '2026-11-24T10:00:00.000Z',
      fromNumber: '+442071838750',
      toNumber: '+442079460300',
      title: 'SMS to +442079460300',
      body: 'x'.repeat(40_000),
      userEmail: 'texter@example.com',
      contact: contact(who),
    };
    const voicemail: MessageLog = {
      ...sms,
      key: 'acme:voicemail:77',
      channel: 'voicemail',
      direction: 'inbound',
      title: `Voicemail from +442079460301 (42 s)${'!'.repeat(300)}`,
      body: 'Recording: https://rec.example/vm.mp3\nTranscript: call me back',
      userEmail: null,
      contact: contact(lead, { kind: 'lead' }),
    };
    const smsId = await sf.createMessageLog(sms);
    const vmId = await sf.createMessageLog(voicemail);
    const task = (id: string) => fake.records('Task').find((r) => r.Id === id)!.fields;
    expect(task(smsId)).toMatchObject({
      TaskSubtype: 'Task',
      Status: 'Completed',
      Subject: 'SMS to +442079460300',
      ActivityDate: '2026-11-24',
      CallObject: 'acme:sms:901',
      WhoId: who,
      OwnerId: owner,
    });
    expect(String(task(smsId).Description)).toHaveLength(32_000);
    expect(task(vmId)).toMatchObject({ WhoId: lead, CallObject: 'acme:voicemail:77', TaskSubtype: 'Task' });
    expect(String(task(vmId).Subject)).toHaveLength(255);
    expect(String(task(vmId).Subject)).toMatch(/^Voicemail from \+442079460301 \(42 s\)/);
    expect(task(vmId).Description).toContain('Transcript: call me back');

    // A call log's key is not a message's.
    expect(await sf.findCallLog(sms.key)).toBeNull();

    await sf.updateMessageLog(vmId, { ...voicemail, body: 'Transcript: call me back today' });
    expect(task(vmId).Description).toBe('Transcript: call me back today');
    const patch = fake.requests.find(
      (r) => r.method === 'PATCH' && r.path.endsWith(`/sobjects/Task/${vmId}`),
    )!;
    expect(patch.body).not.toHaveProperty('TaskSubtype');
  });
});

describe('contact sync creating Leads (contacts.salesforceCreateAs: Lead)', () => {
  it('creates Leads with the link key, a placeholder company where the person has none, and reads them back', async () => {
    const book = sf.contactBook({ country: 'GB', createAs: 'lead' });
    expect(book.createKind).toBe('lead');
    await book.prepare();
    const state = {
      ...emptyState(),
      firstName: 'Lia',
      lastName: 'Lead',
      email: 'lia@example.com',
      phone: '+442079460909',
    };
    const out = await book.create([
      { linkKey: 'acme:9001', state },
      {
        linkKey: 'acme:9002',
        state: { ...state, firstName: 'Cal', company: 'Cal Ltd', phone: '+442079460910' },
      },
    ]);
    expect(out.rejected.size).toBe(0);
    const lia = fake.records('Lead').find((r) => r.Id === out.ids.get('acme:9001'))!;
    const cal = fake.records('Lead').find((r) => r.Id === out.ids.get('acme:9002'))!;
    // Salesforce requires a Lead's Company: a person without one gets the placeholder.
    expect(lia.fields).toMatchObject({
      LastName: 'Lead',
      Company: NO_COMPANY,
      Callsync_Contact__c: 'acme:9001',
    });
    expect(cal.fields).toMatchObject({ Company: 'Cal Ltd', Callsync_Contact__c: 'acme:9002' });
    expect(fake.records('Contact').some((r) => r.fields.Callsync_Contact__c === 'acme:9001')).toBe(false);

    // Read back as a lead, the placeholder read as no company (no change to write back).
    const [found] = await book.findByNumbersOrEmails(['+442079460909'], []);
    expect(found).toMatchObject({ id: lia.Id, kind: 'lead', linkKey: 'acme:9001' });
    expect(found!.state).toMatchObject({ firstName: 'Lia', company: null, phone: '+442079460909' });
  });
});
