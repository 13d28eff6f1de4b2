// The Pipedrive connector through the official client against the fake Pipedrive: what it writes
// where, the call log that cannot be updated, erasure, 429s waited out or handed to Temporal, OAuth
// renewal; and the fake's own rules (each as Pipedrive documents it).
import { CrmError, CrmRateLimitedError } from '../../connectors/crm/errors';
import type {
  StoredTokens,
  TokenStore,
  VendorTokenKey,
  VendorTokens,
} from '../../connectors/crm/vendor-token-store';
import { OAuthAccessToken, PipedriveConnector, pipedriveConfigSchema } from '../../connectors/pipedrive';
import { keyOf } from '../../connectors/pipedrive/records';
import { ACCESS_TOKEN_SECONDS, startFakePipedrive, type FakePipedrive } from '../fakes/pipedrive-server';
import { callbackTask, callLog, contact } from '../unit/crm-fixtures';

let fake: FakePipedrive;

function config(extra: Record<string, unknown> = {}) {
  return pipedriveConfigSchema.parse({
    type: 'pipedrive',
    companyDomain: 'acme',
    apiUrl: fake.url,
    apiToken: fake.apiToken,
    ...extra,
  });
}

class MemoryStore implements TokenStore<'locked'> {
  readonly rows = new Map<string, StoredTokens>();
  private lock: Promise<unknown> = Promise.resolve();
  load(key: VendorTokenKey): Promise<StoredTokens | undefined> {
    const row = this.rows.get(key.identity);
    return Promise.resolve(row && { ...row });
  }
  save(key: VendorTokenKey, tokens: VendorTokens): Promise<number> {
    const version = (this.rows.get(key.identity)?.version ?? 0) + 1;
    this.rows.set(key.identity, { ...tokens, version });
    return Promise.resolve(version);
  }
  withLock<T>(_key: VendorTokenKey, work: (session: 'locked') => Promise<T>): Promise<T> {
    const run = this.lock.then(() => work('locked'));
    this.lock = run.catch(() => undefined);
    return run;
  }
}

function oauthConnector(store: MemoryStore, refreshToken = fake.oauthClient.refreshToken) {
  const c = config({ apiToken: undefined, oauth: { ...fake.oauthClient, refreshToken, oauthUrl: fake.url } });
  return new PipedriveConnector(c, { token: new OAuthAccessToken({ ...c, oauth: c.oauth! }, store) });
}

beforeEach(async () => {
  fake = await startFakePipedrive();
});
afterEach(() => fake.close());

describe('PipedriveConnector', () => {
  it('logs a call as a done call activity with its Call Logs API record, then updates the activity only', async () => {
    const person = fake.seedPerson({ name: 'Ada Lovelace', phones: ['020 7946 0000'] });
    const owner = fake.seedUser('agent@example.com');
    const pd = new PipedriveConnector(config());
    const log = callLog({ contact: contact(String(person)), userEmail: 'agent@example.com' });
    const id = await pd.createCallLog(log);

    const activity = fake.state.activities.get(Number(id))!;
    expect(activity).toMatchObject({
      type: 'call',
      done: true,
      person_id: person,
      owner_id: owner,
      subject: log.title,
    });
    expect(keyOf(activity.note)).toBe(log.key);
    const records = [...fake.state.callLogs.values()];
    expect(records).toEqual([
      expect.objectContaining({
        activity_id: Number(id),
        person_id: person,
        outcome: 'connected',
        to_phone_number: '+442079460999',
        from_phone_number: '+442079460000',
        start_time: '2026-11-20 10:15:00',
        end_time: '2026-11-20 10:17:05',
      }),
    ]);
    expect(await pd.findCallLog(log.key)).toBe(id);
    expect(await pd.findCallLog(`${log.key}0`)).toBeNull();

    await pd.updateCallLog(id, { ...log, summary: 'Renewal agreed.' });
    expect(activity.note).toContain('Summary: Renewal agreed.');
    // Call logs cannot be edited: the record stays as written, and no second one appears.
    expect(fake.state.callLogs.size).toBe(1);
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/callLogs')).toHaveLength(1);
  });

  it('erases the activity and every call log attached to it; erasing again succeeds', async () => {
    const person = fake.seedPerson({ name: 'Erased', phones: ['+44 20 7946 0001'] });
    const pd = new PipedriveConnector(config());
    const keep = await pd.createCallLog(callLog({ contact: contact(String(person)) }));
    const id = await pd.createCallLog(callLog({ contact: contact(String(person)) }));
    await pd.deleteCallLog(id);
    await pd.deleteCallLog(id);
    expect(fake.state.activities.get(Number(id))!.is_deleted).toBe(true);
    expect([...fake.state.callLogs.values()].map((c) => c.activity_id)).toEqual([Number(keep)]);
  });

  it('finds a callback task among its person’s activities, and closes it as done', async () => {
    const person = fake.seedPerson({ name: 'Caller', phones: ['+44 20 7946 0002'] });
    const pd = new PipedriveConnector(config());
    const task = callbackTask({ contact: contact(String(person)) });
    const id = await pd.createTask(task);
    expect(fake.state.activities.get(Number(id))).toMatchObject({
      type: 'call',
      done: false,
      due_date: '2026-11-20',
    });
    expect(await pd.findTask(task.key, task)).toBe(id);
    expect(await pd.findCallLog(task.key)).toBe(id);
    await pd.updateTask(id, { ...task, status: 'closed' });
    expect(fake.state.activities.get(Number(id))!.done).toBe(true);
  });

  it('finds a person whatever the formatting, but not one with the same digits in another country', async () => {
    const national = fake.seedPerson({ name: 'National', phones: ['020 7946 0003'] });
    const intl = fake.seedPerson({
      name: 'International',
      phones: ['+44 20 7946 0003'],
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    fake.seedPerson({ name: 'Elsewhere', phones: ['+1 207 946 0003'] });
    const pd = new PipedriveConnector(config());
    const found = await pd.findContactsByPhone('+442079460003');
    expect(found.map((c) => c.crmId).sort()).toEqual([String(national), String(intl)].sort());
    expect(found.find((c) => c.crmId === String(intl))?.updatedAt).toBe('2026-01-01T00:00:00.000Z');
    expect(fake.requests.filter((r) => r.path === '/api/v2/persons/search')).toHaveLength(1);
  });

  it('waits out a 429 of the 2-second window (x-ratelimit-reset) and sends again', async () => {
    fake.limits.burstOverride = 3;
    // Configured above the fake's (tightened) limit, as a plan downgrade would leave it.
    const pd = new PipedriveConnector(config({ requestsPer2Seconds: 40 }));
    const ids = await Promise.all(
      [1, 2, 3, 4, 5].map(() => pd.createContact({ phone: '+442079460004', name: null })),
    );
    expect(new Set(ids.map((c) => c.crmId)).size).toBe(5);
    expect(fake.limits.refused.burst).toBeGreaterThan(0);
    expect(pd.throttled).toBe(fake.limits.refused.burst);
  });

  it('hands a spent daily budget to Temporal with the wait until midnight UTC', async () => {
    fake.limits.dailyTokens = 0;
    const pd = new PipedriveConnector(config());
    const err = await pd.createContact({ phone: '+442079460005', name: null }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrmRateLimitedError);
    expect((err as CrmRateLimitedError).retryAfterMs).toBeGreaterThan(15_000);
    expect(fake.limits.refused.daily).toBe(1);
    expect(fake.counters).toMatchObject({ limited: 1, byPolicy: { daily: 1 } });
    expect(fake.requests).toEqual([{ method: 'POST', path: '/api/v2/persons', status: 429 }]);
  });

  it('prepare() passes with a valid token and stops the start with the field to fix otherwise', async () => {
    await new PipedriveConnector(config()).prepare();
    const err = await new PipedriveConnector(config({ apiToken: 'not-the-token' }))
      .prepare()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 401, retryable: false });
    expect((err as Error).message).toContain('crm.destination.apiToken');
    expect((err as Error).message).not.toContain('not-the-token');
  });

  it('an unknown API token is a non-retryable 401 that names neither the token nor the caller', async () => {
    const pd = new PipedriveConnector(config({ apiToken: 'not-the-token' }));
    const err = await pd
      .createContact({ phone: '+442079460006', name: 'Secret Name' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrmError);
    expect(err).toMatchObject({ status: 401, retryable: false });
    expect((err as Error).message).not.toMatch(/not-the-token|Secret Name|442079460006/);
  });
});

describe('PipedriveConnector with an OAuth app', () => {
  it('refreshes the access token on first use and after it expires, once each', async () => {
    const store = new MemoryStore();
    const pd = oauthConnector(store);
    await pd.createContact({ phone: '+442079460007', name: null });
    expect(fake.refreshes).toBe(1);
    const [stored] = [...store.rows.values()];
    expect(stored!.expiresAt.getTime()).toBeGreaterThan(Date.now() + (ACCESS_TOKEN_SECONDS - 60) * 1000);
    await pd.createContact({ phone: '+442079460008', name: null });
    expect(fake.refreshes).toBe(1);

    fake.expireTokens();
    await Promise.all([1, 2, 3].map(() => pd.createContact({ phone: '+442079460009', name: null })));
    expect(fake.refreshes).toBe(2);
    expect(fake.state.persons.size).toBe(5);
  });

  it('a refused refresh token is a non-retryable error that says what to do, without the token', async () => {
    const pd = oauthConnector(new MemoryStore(), 'revoked-refresh-token');
    const err = await pd.createContact({ phone: '+442079460010', name: null }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'REFRESH_REFUSED', retryable: false });
    expect((err as Error).message).toContain('oauth.refreshToken');
    expect((err as Error).message).not.toContain('revoked-refresh-token');
  });
});

describe('fake Pipedrive rules', () => {
  const get = (path: string, headers: Record<string, string> = { 'x-api-token': fake.apiToken }) =>
    fetch(`${fake.url}${path}`, { headers });

  it('answers every request with the 2-second window headers, and 429 beyond the search limit', async () => {
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await get('/api/v2/persons/search?term=2079&fields=phone'));
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('20');
    expect(answers[0]!.headers.get('x-ratelimit-reset')).toBe('2');
    expect(answers.slice(0, 10).every((a) => a.status === 200)).toBe(true);
    expect(answers[10]!.status).toBe(429);
    expect(await answers[10]!.json()).toMatchObject({ success: false, errorCode: 429 });
  });

  it('refuses a search term under 2 characters, a page over 500, a call log page over 50', async () => {
    expect((await get('/api/v2/persons/search?term=2')).status).toBe(400);
    expect((await get('/api/v2/activities?limit=501')).status).toBe(400);
    expect((await get('/api/v1/callLogs?limit=51')).status).toBe(400);
    expect((await get('/api/v1/callLogs?limit=50')).status).toBe(200);
  });

  it('refuses a call log on an activity that is not a call, and one without its required fields', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${fake.url}${path}`, {
        method: 'POST',
        headers: { 'x-api-token': fake.apiToken, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const meeting = (await (await post('/api/v2/activities', { type: 'meeting' })).json()) as {
      data: { id: number };
    };
    const times = { start_time: '2026-11-20 10:00:00', end_time: '2026-11-20 10:01:00' };
    const onMeeting = await post('/api/v1/callLogs', {
      ...times,
      activity_id: meeting.data.id,
      outcome: 'connected',
      to_phone_number: '1',
    });
    expect(onMeeting.status).toBe(400);
    expect(
      (await post('/api/v1/callLogs', { ...times, outcome: 'answered', to_phone_number: '1' })).status,
    ).toBe(400);
    expect((await post('/api/v1/callLogs', { outcome: 'connected', to_phone_number: '1' })).status).toBe(400);
  });

  it('refuses requests without a valid token, and an access token once expired', async () => {
    expect((await get('/api/v2/activities', {})).status).toBe(401);
    expect((await get('/api/v2/activities', { authorization: 'Bearer made-up' })).status).toBe(401);
    const basic = Buffer.from(`${fake.oauthClient.clientId}:${fake.oauthClient.clientSecret}`).toString(
      'base64',
    );
    const grant = await fetch(`${fake.url}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: fake.oauthClient.refreshToken,
      }),
    });
    const { access_token: token, expires_in: lifetime } = (await grant.json()) as {
      access_token: string;
      expires_in: number;
    };
    expect(lifetime).toBe(ACCESS_TOKEN_SECONDS);
    expect((await get('/api/v2/activities', { authorization: `Bearer ${token}` })).status).toBe(200);
    fake.expireTokens();
    const refused = await get('/api/v2/activities', { authorization: `Bearer ${token}` });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ success: false, errorCode: 401 });
  });
});
