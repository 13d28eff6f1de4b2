// Google credentials that renew themselves (connectors/google/credentials.ts) against the local
// Google's token endpoint (test/fakes/google/oauth.ts): the service account's JWT is exchanged at the
// key's token_uri, the access token is renewed before it expires through hours of simulated traffic,
// `subject` makes the APIs act as the delegated user, application default credentials come from
// GOOGLE_APPLICATION_CREDENTIALS, and selfSignedJwt with a subject is refused instead of dropped.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tasks as tasksApi, type tasks_v1 } from '@googleapis/tasks';
import type { AuthClient } from 'google-auth-library';
import { googleAuthClient } from '../../connectors/google/credentials';
import { googleCredentialsSchema } from '../../connectors/google/credentials-config';
import { googleTasksConfigSchema } from '../../connectors/google-tasks/config';
import { TASKS_SCOPE } from '../../connectors/google-tasks/google-tasks-connector';
import { startFakeGoogleApps, type FakeGoogleApps } from '../fakes/google/apps-server';

let google: FakeGoogleApps;
let dir: string;

beforeAll(async () => {
  google = await startFakeGoogleApps();
  dir = await mkdtemp(join(tmpdir(), 'callsync-google-adc-'));
});
afterAll(async () => {
  await google.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  google.google.oauth.exchanges.length = 0;
  google.requests.length = 0;
});

const credentials = (input: Record<string, unknown>) => googleCredentialsSchema.parse(input);

function tasksClient(auth: AuthClient): tasks_v1.Tasks {
  return tasksApi({
    version: 'v1',
    auth: auth as unknown as NonNullable<tasks_v1.Options['auth']>,
    rootUrl: `${google.url}/`,
  });
}

const titles = (user: string) => google.tasks.lists(user).map((l) => l.title);

describe('token exchange', () => {
  it('exchanges at the key’s token_uri and renews the token before it expires, through three simulated hours', async () => {
    const api = tasksClient(
      await googleAuthClient(credentials({ serviceAccountJson: google.serviceAccount.json }), [TASKS_SCOPE]),
    );
    const start = Date.now();
    jest.useFakeTimers({
      doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'],
      now: start,
    });
    try {
      // One call every five minutes for three hours, with Google's one-hour tokens: the client must
      // swap its token about every 55 minutes and never send an expired one.
      for (let minute = 0; minute <= 180; minute += 5) {
        jest.setSystemTime(start + minute * 60_000);
        const res = await api.tasklists.insert({ requestBody: { title: `minute ${minute}` } });
        expect(res.status).toBe(200);
      }
    } finally {
      jest.useRealTimers();
    }
    expect(google.requests.filter((r) => r.status !== 200)).toEqual([]);
    const exchanges = google.google.oauth.exchanges;
    expect(exchanges.length).toBeGreaterThanOrEqual(4);
    expect(exchanges.length).toBeLessThanOrEqual(5);
    expect(exchanges.map((e) => e.sub)).toEqual(exchanges.map(() => undefined));
    expect(titles(google.serviceAccount.clientEmail)).toContain('minute 180');
  });

  it('renews on every call when tokens live less than the client’s five-minute margin', async () => {
    google.google.oauth.tokenLifetimeSeconds = 1;
    try {
      const api = tasksClient(
        await googleAuthClient(credentials({ serviceAccountJson: google.serviceAccount.json }), [
          TASKS_SCOPE,
        ]),
      );
      for (let i = 0; i < 3; i += 1) {
        expect((await api.tasklists.list({})).status).toBe(200);
      }
      expect(google.google.oauth.exchanges).toHaveLength(3);
      expect(google.requests.filter((r) => r.status !== 200)).toEqual([]);
    } finally {
      google.google.oauth.tokenLifetimeSeconds = 3600;
    }
  });
});

describe('domain-wide delegation', () => {
  it('acts as `subject`: the token is exchanged with sub and the Tasks API sees that user', async () => {
    const api = tasksClient(
      await googleAuthClient(
        credentials({ serviceAccountJson: google.serviceAccount.json, subject: 'ann@example.com' }),
        [TASKS_SCOPE],
      ),
    );
    await api.tasklists.insert({ requestBody: { title: 'Ann’s callbacks' } });
    expect(google.google.oauth.exchanges.map((e) => e.sub)).toEqual(['ann@example.com']);
    expect(titles('ann@example.com')).toEqual(['Ann’s callbacks']);
    expect(titles(google.serviceAccount.clientEmail)).not.toContain('Ann’s callbacks');
  });

  it('refuses selfSignedJwt with subject at config parse, naming both fields', () => {
    const parsed = googleCredentialsSchema.safeParse({
      serviceAccountJson: google.serviceAccount.json,
      selfSignedJwt: true,
      subject: 'ann@example.com',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/selfSignedJwt cannot be used with subject/);
    expect(parsed.error?.issues[0]?.path).toEqual(['subject']);

    const tasks = googleTasksConfigSchema.safeParse({
      type: 'google-tasks',
      perUser: 'delegate',
      credentials: { serviceAccountJson: google.serviceAccount.json, selfSignedJwt: true },
    });
    expect(tasks.error?.issues[0]).toMatchObject({
      path: ['perUser'],
      message: expect.stringMatching(/delegate.*selfSignedJwt/),
    });
  });

  it('refuses a subject added at run time to self-signed credentials', async () => {
    const selfSigned = credentials({ serviceAccountJson: google.serviceAccount.json, selfSignedJwt: true });
    await expect(
      googleAuthClient({ ...selfSigned, subject: 'bob@example.com' }, [TASKS_SCOPE]),
    ).rejects.toThrow(/selfSignedJwt cannot be used with subject/);
  });
});

describe('application default credentials', () => {
  const saved = process.env.GOOGLE_APPLICATION_CREDENTIALS;
  afterEach(() => {
    if (saved === undefined) delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
    else process.env.GOOGLE_APPLICATION_CREDENTIALS = saved;
  });

  it('reads GOOGLE_APPLICATION_CREDENTIALS and exchanges at that key’s token_uri, as `subject` when given', async () => {
    const keyFile = join(dir, 'adc.json');
    await writeFile(keyFile, google.serviceAccount.json);
    process.env.GOOGLE_APPLICATION_CREDENTIALS = keyFile;

    const own = tasksClient(await googleAuthClient(credentials({}), [TASKS_SCOPE]));
    await own.tasklists.insert({ requestBody: { title: 'ADC list' } });
    expect(titles(google.serviceAccount.clientEmail)).toContain('ADC list');

    const asCarl = tasksClient(
      await googleAuthClient(credentials({ subject: 'carl@example.com' }), [TASKS_SCOPE]),
    );
    await asCarl.tasklists.insert({ requestBody: { title: 'Carl’s list' } });
    expect(titles('carl@example.com')).toEqual(['Carl’s list']);
    expect(google.google.oauth.exchanges.map((e) => e.sub)).toEqual([undefined, 'carl@example.com']);
  });
});

describe('token_uri', () => {
  it('must be https, or http to this machine', async () => {
    const key = JSON.parse(google.serviceAccount.json) as Record<string, unknown>;
    const plain = JSON.stringify({ ...key, token_uri: 'http://tokens.example.com/token' });
    await expect(googleAuthClient(credentials({ serviceAccountJson: plain }), [TASKS_SCOPE])).rejects.toThrow(
      'google.serviceAccountJson: not a service account key (missing or invalid: token_uri)',
    );
  });
});
