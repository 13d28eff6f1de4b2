// The dashboard's call page links a call's CRM call log to its page in the CRM that logged it, through
// the connector runtime/crm.ts builds for the account's destination (HubSpot, Salesforce, Pipedrive),
// and shows a plain id where the destination has no pages (built-in), is no longer the account's, or
// cannot be asked.
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import { silentLogger } from '../../lib/logger';
import { callLogPages, createCrmConnectors } from '../../runtime/crm';
import { crmDestinationIdOf } from '../../runtime/crm-identity';
import { callPage } from '../../server/dashboard/calls-page';
import type { DashboardOptions } from '../../server/dashboard/context';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { startFakePipedrive, type FakePipedrive } from '../fakes/pipedrive-server';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';
import { parseTestConfig } from '../support/test-config';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

let w: MigratedWarehouse;
let hubspot: FakeHubSpot;
let salesforce: FakeSalesforce;
let pipedrive: FakePipedrive;
let opts: DashboardOptions;
/** The Pipedrive person the call is logged on, and the call's activity on them and on nobody. */
let person = 0;
const pipedriveLogs = { onPerson: '', onNobody: '', deleted: '' };

const ACCOUNTS = ['acme', 'globex', 'initech', 'hooli'] as const;

beforeAll(async () => {
  w = await createMigratedWarehouse('dashboard_crm_links');
  hubspot = await startFakeHubSpot({ portalId: 8_675_309 });
  salesforce = await startFakeSalesforce();
  pipedrive = await startFakePipedrive();
  const platform = { baseUrl: 'http://127.0.0.1:1', credentials: { type: 'apiKey', userId: 1, apiKey: 'k' } };
  const config = parseTestConfig({
    accounts: [
      { name: 'acme', platform, crm: { type: 'hubspot', accessToken: hubspot.token, basePath: hubspot.url } },
      {
        name: 'globex',
        platform,
        crm: {
          type: 'salesforce',
          instanceUrl: salesforce.url,
          accessToken: salesforce.token,
          apiVersion: salesforce.version,
        },
      },
      { name: 'initech', platform },
      {
        name: 'hooli',
        platform,
        crm: {
          type: 'pipedrive',
          companyDomain: 'hooli',
          apiUrl: pipedrive.url,
          apiToken: pipedrive.apiToken,
        },
      },
    ],
  });
  const destinations = Object.fromEntries(ACCOUNTS.map((a) => [a, crmDestinationIdOf(config, a)]));
  opts = {
    db: w.db,
    accounts: [...ACCOUNTS],
    destinations,
    callLogPage: callLogPages(createCrmConnectors(config, w.db)),
    logger: silentLogger,
    password: 'not-used-here-000',
    sessionHours: 1,
    streams: [],
    archiveDir: '/nonexistent',
  };
  // Two calls logged in Pipedrive as an agent's timeline shows them: one on its caller, one on nobody.
  person = pipedrive.seedPerson({ name: 'Ann Caller', phones: ['+442079460001'] });
  pipedriveLogs.onPerson = String(callActivity(person));
  pipedriveLogs.onNobody = String(callActivity(null));
  pipedriveLogs.deleted = String(callActivity(person));
  pipedrive.state.activities.get(Number(pipedriveLogs.deleted))!.is_deleted = true;
  const logs: Record<string, string[]> = {
    hooli: [pipedriveLogs.onPerson, pipedriveLogs.onNobody, pipedriveLogs.deleted],
  };
  for (const [i, account] of ACCOUNTS.entries()) {
    for (const [j, crmId] of (logs[account] ?? [`log-${i}`]).entries())
      await logCall(account, 100 + i + 10 * j, crmId);
  }
});

/** A call activity (done) in the Pipedrive test server, as callsync's call logs are. */
function callActivity(personId: number | null): number {
  const id = pipedrive.state.nextId++;
  const now = new Date().toISOString();
  pipedrive.state.activities.set(id, {
    id,
    subject: 'Inbound call',
    type: 'call',
    done: true,
    due_date: null,
    due_time: null,
    duration: null,
    person_id: personId,
    owner_id: pipedrive.state.apiUserId,
    note: null,
    is_deleted: false,
    add_time: now,
    update_time: now,
  });
  return id;
}

/** A CDR of `account` and the call log callsync recorded for it in the account's CRM. */
async function logCall(account: (typeof ACCOUNTS)[number], id: number, crmId: string): Promise<void> {
  await w.db
    .insertInto('cdrs')
    .values({
      account,
      id,
      raw: '{}',
      calldate: '2026-11-20T10:15:00Z',
      src: '+442079460001',
      dst: '600',
      live_id: 400 + id,
      billsec: 30,
    })
    .execute();
  await w.db
    .insertInto('crm_objects')
    .values({
      account,
      destination: opts.destinations[account]!,
      kind: 'call_log',
      source_key: `${account}:${400 + id}`,
      crm_id: crmId,
    })
    .execute();
}

afterAll(async () => {
  await pipedrive?.close();
  await hubspot?.close();
  await salesforce?.close();
  await w?.dispose();
});

/** The CRM card's link (href) for the call log, or null when the id is shown without one. */
async function callLogHref(account: string, cdrId: number): Promise<string | null> {
  const html = await callPage(opts, account, cdrId);
  const card = /<table id="crm">(.*?)<\/table>/s.exec(html ?? '')?.[1];
  if (card === undefined) throw new Error(`no CRM card on the call page of ${account}`);
  return /<a [^>]*href="([^"]+)"/.exec(card)?.[1]?.replace(/&amp;/g, '&') ?? null;
}

describe("the call page's CRM call log", () => {
  it("links a HubSpot call to its record page in the token's portal", async () => {
    expect(await callLogHref('acme', 100)).toBe('https://app.hubspot.com/contacts/8675309/record/0-48/log-0');
  });

  it("links a Salesforce call log to its Task page in the org's Lightning UI", async () => {
    expect(await callLogHref('globex', 101)).toBe(`${salesforce.url}/lightning/r/Task/log-1/view`);
  });

  it('shows the id without a link where the destination has no pages (built-in)', async () => {
    expect(await callLogHref('initech', 102)).toBeNull();
    expect(await callPage(opts, 'initech', 102)).toContain('log-2');
  });

  it('links a Pipedrive call to the page of the person whose timeline shows it', async () => {
    expect(await callLogHref('hooli', 103)).toBe(`https://hooli.pipedrive.com/person/${person}`);
  });

  it("links a Pipedrive call on nobody, or one deleted in Pipedrive, to the company's activity list", async () => {
    expect(await callLogHref('hooli', 113)).toBe('https://hooli.pipedrive.com/activities/list');
    expect(await callLogHref('hooli', 123)).toBe('https://hooli.pipedrive.com/activities/list');
  });

  it('reads a call log page from Pipedrive once', async () => {
    const reads = () =>
      pipedrive.requests.filter((r) => r.path === `/api/v2/activities/${pipedriveLogs.onPerson}`);
    const before = reads().length;
    expect(await callLogHref('hooli', 103)).toBe(`https://hooli.pipedrive.com/person/${person}`);
    expect(reads().length).toBe(before);
  });

  it('shows the id without a link when the CRM cannot be asked', async () => {
    const down = {
      name: 'pipedrive',
      destinationId: 'pipedrive:hooli',
      callLogPageUrl: () => Promise.reject(new Error('connect ECONNREFUSED')),
    };
    const page = callLogPages(() => down as unknown as CrmConnector);
    expect(await page('hooli', 'pipedrive:hooli', '77')).toBeNull();
  });

  it('links no call log of a destination the account no longer has', async () => {
    // The account moved to another portal: its old portal's logs are not pages of the new one.
    const moved = {
      name: 'hubspot',
      destinationId: 'hubspot:another-portal',
      callLogPageUrl: (id: string) => `https://app.hubspot.com/contacts/1/record/0-48/${id}`,
    };
    const page = callLogPages(() => moved as unknown as CrmConnector);
    expect(await page('acme', 'hubspot:another-portal', 'log-0')).toContain('/record/0-48/log-0');
    expect(await page('acme', opts.destinations.acme!, 'log-0')).toBeNull();
  });
});
