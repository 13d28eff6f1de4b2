// The Salesforce connector through jsforce against the local Salesforce (test/fakes).
import { SalesforceConnector, salesforceConfigSchema } from '../../connectors/salesforce';
import { resolveCallOwner } from '../../connectors/crm/call-owner';
import { CrmError, CrmRateLimitedError } from '../../connectors/crm/errors';
import { chooseContact } from '../../connectors/crm/match';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';
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

  it('creates a callback task and closes it', async () => {
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
    expect(await sf.findTask(task.key)).toBe(id);
    await sf.updateTask(id, { ...task, status: 'closed' });
    expect(stored.fields.Status).toBe('Completed');
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
    const found = await sf.findContactsByPhone('+441632960001');
    expect(found).toEqual([
      { crmId: c, kind: 'contact', name: 'Turing', ownerId: null, updatedAt: '2026-01-01T00:00:00.000Z' },
      expect.objectContaining({ crmId: l, kind: 'lead', name: 'Kay' }),
    ]);
    const sosl = fake.requests.filter((r) => r.path.endsWith('/search')).pop()!;
    expect(decodeURIComponent(sosl.query!.replace(/\+/g, ' '))).toContain(
      'FIND {441632960001 OR 1632960001} IN PHONE FIELDS',
    );

    const created = await sf.createContact({ phone: '+441632960009', name: null });
    expect(fake.records('Contact').find((r) => r.Id === created.crmId)!.fields).toMatchObject({
      LastName: '+441632960009',
      Phone: '+441632960009',
    });
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

  it('call_owner: maps the platform user to its Salesforce user by e-mail, or by configuration', async () => {
    const phone = '+442079461234';
    const mine = fake.seed('User', { LastName: 'Mine', Email: 'rep.one@example.com' });
    const other = fake.seed('User', { LastName: 'Other', Email: 'rep.two@example.com' });
    const owned = fake.seed(
      'Contact',
      { LastName: 'Owned', Phone: phone, OwnerId: mine },
      '2026-01-01T00:00:00.000Z',
    );
    fake.seed('Contact', { LastName: 'Newer', Phone: phone, OwnerId: other }, '2026-11-01T00:00:00.000Z');
    const candidates = await sf.findContactsByPhone(phone);
    const owner = await resolveCallOwner({
      userId: 7,
      email: 'Rep.One@example.com',
      overrides: {},
      connector: sf,
    });
    expect(owner).toBe(mine);
    expect(chooseContact(candidates, 'call_owner', owner)?.crmId).toBe(owned);
    // The platform user id itself never matches a Salesforce owner: the old rule fell back to most recent.
    expect(chooseContact(candidates, 'call_owner', '7')?.crmId).not.toBe(owned);
    const configured = await resolveCallOwner({
      userId: 7,
      email: 'unknown@example.com',
      overrides: { '7': mine },
      connector: sf,
    });
    expect(configured).toBe(mine);
  });
});
