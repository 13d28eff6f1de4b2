// erasure.deleteCrmRecords per account (accounts[].overrides.erasure): an erasure deletes what callsync
// created in the CRM of an account that asks for it, and leaves another account's CRM (and its
// mappings) as they are, for the same person. The real eraseCrmRecords activity on a real warehouse;
// the CRMs are connectors that record what they are asked to delete.
import { MockActivityEnvironment } from '@temporalio/testing';
import type { ActivityDeps } from '../../activities/deps';
import { createErasureExternalActivities } from '../../activities/erasure-external';
import { parseTestConfig } from '../support/test-config';
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

jest.setTimeout(60_000);

const platform = {
  baseUrl: 'http://127.0.0.1:1/v1.1/voipstudio',
  credentials: { type: 'apiKey' as const, userId: 1, apiKey: 'k' },
};

describe("erasure in each account's CRM by its own choice", () => {
  let w: MigratedWarehouse;

  beforeAll(async () => {
    w = await createMigratedWarehouse('erasure_crm_per_account');
  });

  afterAll(async () => {
    await w?.dispose();
  });

  it('deletes the call logs of the account that asks, and keeps those of the account that does not', async () => {
    const config = parseTestConfig({
      accounts: [
        { name: 'acme', platform },
        { name: 'beta', platform, overrides: { erasure: { deleteCrmRecords: false } } },
      ],
      erasure: { deleteCrmRecords: true },
    });
    const deleted: string[] = [];
    const crm = (account: string) =>
      ({
        name: 'builtin',
        deleteCallLog: async (crmId: string) => {
          deleted.push(`${account}/${crmId}`);
        },
      }) as unknown as CrmConnector;
    const deps = { config, warehouse: w, crm } as unknown as ActivityDeps;
    await w.db
      .insertInto('crm_objects')
      .values([
        { account: 'acme', destination: 'builtin', kind: 'call_log', source_key: 'acme:5', crm_id: 'a-5' },
        { account: 'beta', destination: 'builtin', kind: 'call_log', source_key: 'beta:5', crm_id: 'b-5' },
      ])
      .execute();
    // The same person called both accounts.
    const activities = createErasureExternalActivities(deps, async () => ({
      subject: { kind: 'number', value: '+442079460123' },
      names: [],
      calls: [
        ['acme', 5],
        ['beta', 5],
      ],
      messages: [],
    }));

    const step = { subjectHash: 'h', kind: 'number' as const, erasureId: '1' };
    const counts = await new MockActivityEnvironment().run(
      (input: typeof step) => activities.eraseCrmRecords(input),
      step,
    );

    expect(counts).toEqual({ 'crm.builtin.call_log': 1 });
    expect(deleted).toEqual(['acme/a-5']);
    const left = await w.db.selectFrom('crm_objects').select(['account', 'crm_id']).execute();
    expect(left).toEqual([{ account: 'beta', crm_id: 'b-5' }]);
  });
});
