// The Dynamics 365 connector's own parts: its config's errors, the phone forms it searches, the
// activity columns it writes, its record pages, and prepare()'s word on a missing application user
// or a refused sign-in (against the local Dataverse, test/fakes/dynamics-server.ts).
import { CrmError } from '../../connectors/crm/errors';
import {
  callLogColumns,
  phonecallDone,
  TASK_STATE,
  taskColumns,
} from '../../connectors/dynamics/activity-records';
import { dynamicsConfigSchema, type DynamicsConfigInput } from '../../connectors/dynamics/config';
import { DynamicsConnector } from '../../connectors/dynamics';
import { holdsNumber, phoneFilter, phoneQuery } from '../../connectors/dynamics/phone-filter';
import { crmDestinationIdOf } from '../../runtime/crm-identity';
import { startFakeDynamics, type FakeDynamics } from '../fakes/dynamics-server';
import { parseTestConfig } from '../support/test-config';
import { trustTestCertificate } from '../fakes/dynamics-tls';
import { callbackTask, callLog, contact } from './crm-fixtures';

const base: DynamicsConfigInput = {
  type: 'dynamics',
  url: 'https://contoso.crm4.dynamics.com/',
  tenantId: 'contoso.onmicrosoft.com',
  clientId: '0f4c7c1e-5f1b-4b8e-9a4e-3d2f3c9b8a71',
  clientSecret: 's3cret-value',
};

describe('config', () => {
  it('names the field that is missing or wrong', () => {
    const { clientSecret: _omitted, ...noSecret } = base;
    const paths = (input: object) =>
      dynamicsConfigSchema.safeParse(input).error?.issues.map((i) => i.path.join('.'));
    expect(paths(noSecret)).toEqual(['clientSecret']);
    expect(paths({ ...base, authorityHost: 'http://login.example' })).toEqual(['authorityHost']);
    expect(paths({ ...base, requestsPerSecond: 25 })).toEqual(['requestsPerSecond']);
    expect(paths({ ...base, tenantId: 'a tenant' })).toEqual(['tenantId']);
  });

  it('names the destination by its environment URL', () => {
    const c = new DynamicsConnector(dynamicsConfigSchema.parse(base));
    expect(c.destinationId).toBe('dynamics:https://contoso.crm4.dynamics.com');
    expect(c.callLogPageUrl('1b2c')).toBe(
      'https://contoso.crm4.dynamics.com/main.aspx?pagetype=entityrecord&etn=phonecall&id=1b2c',
    );
  });

  it('is the same destination to the dashboard, from config alone, as to the connector', () => {
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
      crm: { destination: base },
      logLevel: 'silent',
    });
    const d = config.crm.destination;
    if (d.type !== 'dynamics') throw new Error('parsed as another destination');
    expect(crmDestinationIdOf(config, 'acme')).toBe(new DynamicsConnector(d).destinationId);
  });

  it('opens a new contact form with Business Phone filled in, in the configured app', async () => {
    const appId = '6a9e5c2e-0000-4000-8000-000000000001';
    const c = new DynamicsConnector(dynamicsConfigSchema.parse({ ...base, appId }));
    const url = new URL(await c.newContactPageUrl('+442079460571'));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      appid: appId,
      pagetype: 'entityrecord',
      etn: 'contact',
      extraqs: 'telephone1=+442079460571',
    });
  });
});

describe('phone forms', () => {
  const q = phoneQuery('+442079460571');

  it('searches the forms people type and recognises them by their digits', () => {
    expect(q.exact).toEqual(expect.arrayContaining(['+442079460571', '+44 20 7946 0571', '020 7946 0571']));
    for (const typed of ['020 7946 0571', '+44 (0)20 7946 0571', '0044 20 7946 0571', '2079460571'])
      expect(holdsNumber([typed], q)).toBe(true);
    expect(holdsNumber(['020 7946 0572', '7946 0571', null], q)).toBe(false);
  });

  it('asks with eq only: no leading wildcards (endswith, contains), which scan and time out', () => {
    const filter = phoneFilter(q);
    expect(filter).toContain(
      "Microsoft.Dynamics.CRM.In(PropertyName='mobilephone',PropertyValues=['+442079460571',",
    );
    expect(filter).toContain("'+44 (0)20 7946 0571'");
    expect(filter).not.toMatch(/endswith|contains/);
    // Under dynamics-web-api's 2,000 characters of path (beyond, it sends a $batch instead).
    expect(encodeURIComponent(filter).length).toBeLessThan(1700);
  });
});

describe('activity columns', () => {
  it('completes a call log as Received or Made, cuts the description at 2,000, refuses a key over 250', () => {
    const parties = { contactId: 'c1', ownerId: null };
    const inbound = callLogColumns(callLog({ transcriptExcerpt: 'x'.repeat(3000) }), parties);
    expect(inbound).toMatchObject({ directioncode: false, category: 'callsync call' });
    // statecode is not valid on create: the state is written by an update.
    expect(inbound).not.toHaveProperty('statecode');
    expect(phonecallDone('inbound')).toEqual({ statecode: 1, statuscode: 4 });
    expect(String(inbound.description)).toHaveLength(2000);
    expect(inbound['regardingobjectid_contact_phonecall@odata.bind']).toBe('/contacts(c1)');
    expect(phonecallDone('outbound')).toEqual({ statecode: 1, statuscode: 2 });
    expect(() => callLogColumns(callLog({ key: `acme:${'9'.repeat(250)}` }), parties)).toThrow(RangeError);
  });

  it('keeps a task open, completes it when reached, cancels it when expired', () => {
    const p = { contactId: contact('c1').crmId, ownerId: 'u1' };
    expect(TASK_STATE).toEqual({
      open: { statecode: 0, statuscode: 2 },
      closed: { statecode: 1, statuscode: 5 },
      expired: { statecode: 2, statuscode: 6 },
    });
    expect(taskColumns(callbackTask(), p)).toMatchObject({ prioritycode: 2, category: 'callsync callback' });
    expect(taskColumns(callbackTask(), p)['ownerid@odata.bind']).toBe('/systemusers(u1)');
  });
});

describe('prepare()', () => {
  let d: FakeDynamics;
  beforeAll(async () => {
    trustTestCertificate();
    d = await startFakeDynamics();
  });
  afterAll(() => d?.close());
  const connector = (overrides: Partial<DynamicsConfigInput> = {}) =>
    new DynamicsConnector(
      dynamicsConfigSchema.parse({
        ...base,
        url: d.url,
        authorityHost: d.url,
        tenantId: d.tenantId,
        clientId: d.clientId,
        clientSecret: d.clientSecret,
        ...overrides,
      }),
    );

  it('passes for an application user of the environment', async () => {
    await expect(connector().prepare()).resolves.toBeUndefined();
  });

  it('names the app registration to add when it is no application user (not retryable)', async () => {
    const users = d.tables.rows.get('systemusers')!;
    const app = [...users.entries()].find(([, r]) => r.applicationid === d.clientId)!;
    users.delete(app[0]);
    try {
      const err = await connector()
        .prepare()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CrmError);
      expect(err).toMatchObject({ retryable: false, status: 403 });
      expect((err as Error).message).toContain(`app registration ${d.clientId} as an application user`);
    } finally {
      users.set(app[0], app[1]);
    }
  });

  it('says the sign-in was refused, without the secret, and does not retry it', async () => {
    const err = await connector({ clientSecret: 'not-the-secret' })
      .prepare()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ retryable: false, code: 'invalid_client' });
    expect((err as Error).message).toContain('AADSTS7000215');
    expect((err as Error).message).not.toContain('not-the-secret');
  });
});
