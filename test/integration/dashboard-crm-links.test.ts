// The dashboard's call page links a call's CRM call log to its page in the CRM that logged it, through
// the connector runtime/crm.ts builds for the account's destination (HubSpot, Salesforce), and shows a
// plain id where the destination has no pages (built-in) or is no longer the account's.
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import { silentLogger } from '../../lib/logger';
import { callLogPages, createCrmConnectors } from '../../runtime/crm';
import { crmDestinationIdOf } from '../../runtime/crm-identity';
import { callPage } from '../../server/dashboard/calls-page';
import type { DashboardOptions } from '../../server/dashboard/context';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';
import { parseTestConfig } from '../support/test-config';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

let w: MigratedWarehouse;
let hubspot: FakeHubSpot;
let salesforce: FakeSalesforce;
let opts: DashboardOptions;

const ACCOUNTS = ['acme', 'globex', 'initech'] as const;

beforeAll(async () => {
  w = await createMigratedWarehouse('dashboard_crm_links');
  hubspot = await startFakeHubSpot({ portalId: 8_675_309 });
  salesforce = await startFakeSalesforce();
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
  for (const [i, account] of ACCOUNTS.entries()) {
    await w.db
      .insertInto('cdrs')
      .values({
        account,
        id: 100 + i,
        raw: '{}',
        calldate: '2026-11-20T10:15:00Z',
        src: '+442079460001',
        dst: '600',
        live_id: 500 + i,
        billsec: 30,
      })
      .execute();
    await w.db
      .insertInto('crm_objects')
      .values({
        account,
        destination: destinations[account]!,
        kind: 'call_log',
        source_key: `${account}:${500 + i}`,
        crm_id: `log-${i}`,
      })
      .execute();
  }
});

afterAll(async () => {
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
