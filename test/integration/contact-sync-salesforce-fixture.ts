// What the Salesforce contact-sync tests read and run, given their harness and test server: a sync
// run through the product's workflow, the people on either side, the records sent to Salesforce and
// the creates it refused.
import { collectContactSyncStatus } from '../../cli/commands/status-contact-sync';
import { contactSyncId, contactSyncWorkflow, type ContactSyncSummary } from '../../contracts';
import { destinationIdOf } from '../../connectors/crm/crm-connector';
import type { FakeSalesforce } from '../fakes/salesforce-server';
import type { SyncHarness } from './sync-harness';

export function salesforceContactSync(h: () => SyncHarness, fake: () => FakeSalesforce, label: string) {
  let runs = 0;
  // The account's own contact cache, at its destination (portal or org); links and progress too.
  const cacheOf = (account: string) => ({ account, destination: destinationIdOf(h().deps.crm(account)) });
  const people = () => [...fake().records('Contact'), ...fake().records('Lead')];
  const platform = () => h().deps.platform('acme').settings.contacts;
  return {
    cacheOf,
    scope: () => cacheOf('acme'),
    platform,
    run: (): Promise<ContactSyncSummary> =>
      h().client.workflow.execute(contactSyncWorkflow, {
        taskQueue: h().config.temporal.taskQueue,
        workflowId: `${contactSyncId('acme')}-${label}-${++runs}`,
        args: [{ account: 'acme' }],
      }),
    people,
    sfByName: (first: string) => people().filter((r) => r.fields.FirstName === first),
    sfById: (id: string) => people().find((r) => r.Id === id)!,
    platformAll: async () => {
      const all = [];
      for await (const c of platform().list({ limit: 5000 })) all.push(c);
      return all;
    },
    /** Records sent in sObject Collections creates and updates so far. */
    writes: () =>
      fake()
        .requests.filter(
          (r) => r.path.endsWith('/composite/sobjects') && (r.method === 'POST' || r.method === 'PATCH'),
        )
        .reduce((n, r) => n + (r.body as { records: unknown[] }).records.length, 0),
    /** Platform contacts whose write Salesforce refused (creates are tried again each run). */
    refused: async () =>
      (await collectContactSyncStatus(h().deps.warehouse.db))[0]!.ambiguities.filter((a) =>
        a.reason.startsWith('rejected by the CRM: '),
      ).length,
  };
}
