// The whole real-time stack against a CRM (the local HubSpot, or a given destination), for end-to-end tests: the emulator, Temporal,
// PostgreSQL and a worker (the sync harness), the receiver with its relay and fast path, and the
// emulator's webhook pointed at the receiver.
import { temporalDataConverter } from '../../runtime/temporal-encryption';
import { Client, Connection } from '@temporalio/client';
import { silentLogger } from '../../lib/logger';
import { screenPopLinks } from '../../config/account-settings';
import { startServer, type RunningServer } from '../../server';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { startSyncHarness, type SyncHarness } from '../integration/sync-harness';
import { emulatorControl } from '../support/emulator-control';

/** The stack with any CRM destination (its config block): the harness, receiver and webhook. */
export interface CrmStack {
  h: SyncHarness;
  server: RunningServer;
  temporal: Client;
  secret: string;
  /** A request to the emulator's control API. */
  control(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface HubSpotStack extends CrmStack {
  fake: FakeHubSpot;
}

export async function startHubSpotStack(label: string, categories: string[]): Promise<HubSpotStack> {
  const fake = await startFakeHubSpot();
  const stack = await startCrmStack(label, categories, {
    type: 'hubspot',
    accessToken: fake.token,
    basePath: fake.url,
  });
  return {
    ...stack,
    fake,
    async close() {
      await stack.close();
      await fake.close();
    },
  };
}

export async function startCrmStack(
  label: string,
  categories: string[],
  destination: Record<string, unknown>,
): Promise<CrmStack> {
  const secret = `${label}-webhook-secret-0123456789`;
  const h = await startSyncHarness({ label, cdrs: 20, config: { crm: { destination } } });
  // The relay signals through an encrypting client, as `callsync server` does.
  const temporal = new Client({
    connection: await Connection.connect({ address: h.temporal.address }),
    dataConverter: temporalDataConverter(h.config.temporal),
  });
  const server = await startServer({
    accounts: [{ name: 'acme', webhookSecret: secret }],
    databaseUrl: h.database.url,
    port: 0,
    host: '127.0.0.1',
    logger: silentLogger,
    temporal: { client: temporal, taskQueue: h.taskQueue },
    // As `callsync server` wires it: screen-pops for the accounts whose calls can get a link.
    screenPops: (account) => screenPopLinks(h.config, account),
  });
  const control = emulatorControl(() => h.emulator.origin);
  await control('POST', '/webhooks', {
    name: 'callsync',
    categories,
    url: server.webhookUrl('acme', secret),
  });
  return {
    h,
    server,
    temporal,
    secret,
    control,
    async close() {
      await server.close();
      await temporal.connection.close();
      await h.close();
    },
  };
}
