// The real-time path end to end: the emulator's simulator places calls and sends their webhooks,
// with duplicated, reordered and dropped deliveries switched on; the receiver stores them, the relay
// starts one workflow per call, and the CRM destination gets exactly one call log per call, on the
// right contact, updated with recording and transcript, and one callback task per missed caller. It
// runs for the built-in destination and for HubSpot and Salesforce (their test servers, enforcing
// the vendors' limits), where callsync looks contacts up and writes logs and tasks in batches.
import { temporalDataConverter } from '../../runtime/temporal-encryption';
import { Client, Connection } from '@temporalio/client';
import { silentLogger } from '../../lib/logger';
import { startServer, type RunningServer } from '../../server';
import { syncStreamWorkflow } from '../../contracts';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';
import { startSyncHarness, type SyncHarness } from '../integration/sync-harness';
import { emulatorControl } from '../support/emulator-control';
import { eventually } from '../support/eventually';
import { builtinView, hubspotView, salesforceView, type CrmView } from './crm-views';

jest.setTimeout(300_000);

const SECRET = 'e2e-webhook-secret-0123456789';

interface Placed {
  call_id: number;
  scenario: string;
  src: string;
  recorded: boolean;
  cdr_type: string;
  ends_in_ms: number;
}

describe.each(['builtin', 'hubspot', 'salesforce'] as const)(
  'calls end to end into %s, through lossy webhooks',
  (crm) => {
    let h: SyncHarness;
    let server: RunningServer;
    let temporal: Client;
    let hubspot: FakeHubSpot | undefined;
    let salesforce: FakeSalesforce | undefined;
    let view: CrmView;

    const control = emulatorControl(() => h.emulator.origin);
    const sync = (stream: string, n: number) =>
      h.client.workflow.execute(syncStreamWorkflow, {
        taskQueue: h.taskQueue,
        workflowId: `e2e-sync-${stream}-${n}`,
        args: [{ account: 'acme', stream }],
      });

    beforeAll(async () => {
      if (crm === 'hubspot') view = hubspotView((hubspot = await startFakeHubSpot()));
      if (crm === 'salesforce') view = salesforceView((salesforce = await startFakeSalesforce()));
      const destination = crm === 'builtin' ? undefined : view.destination;
      h = await startSyncHarness({
        label: `e2e-${crm}`,
        cdrs: 1_000,
        ...(destination ? { config: { crm: { destination } } } : {}),
      });
      if (crm === 'builtin') view = builtinView(h.deps.warehouse);
      // The relay signals through an encrypting client, as `callsync server` does.
      temporal = new Client({
        connection: await Connection.connect({ address: h.temporal.address }),
        dataConverter: temporalDataConverter(h.config.temporal),
      });
      server = await startServer({
        accounts: [{ name: 'acme', webhookSecret: SECRET }],
        databaseUrl: h.database.url,
        port: 0,
        host: '127.0.0.1',
        logger: silentLogger,
        temporal: { client: temporal, taskQueue: h.taskQueue },
      });
      await control('POST', '/webhooks', {
        name: 'callsync',
        categories: ['call_state_change', 'sms_received'],
        url: server.webhookUrl('acme', SECRET),
      });
      await control('PATCH', '/simulator', { speed: 120, transcript_delay_s: 240, advance_clock: false });
      // Contacts for matching, and a CDR checkpoint so later syncs are incremental (and reconcile).
      await sync('contacts', 0);
      await sync('cdrs', 0);
      await control('POST', '/webhooks/faults', {
        duplicate_probability: 0.3,
        reorder_probability: 0.3,
        drop_probability: 0.15,
        seed: 7,
      });
    }, 240_000);

    afterAll(async () => {
      await server?.close();
      await temporal?.connection.close();
      await h?.close();
      await hubspot?.close();
      await salesforce?.close();
    });

    it('logs every call exactly once on its contact, and keeps one callback task per missed caller', async () => {
      const customer = h.emulator.admin.customer_id;
      const contacts = h.emulator.store.tables.contacts.query(customer, {
        page: 1,
        limit: 200,
        filter: [],
      }).data;
      const known = contacts.filter((c) => typeof c.tel === 'string' && /^\+\d{9,}$/.test(c.tel)).slice(0, 4);
      const missedCaller = String(known[3]!.tel);
      // The CRM knows these callers: the id each caller's logs must carry.
      const contactIdOf = new Map(
        known.map((c) => [
          String(c.tel),
          view.knowContact({
            id: c.id,
            tel: String(c.tel),
            name: typeof c.name === 'string' ? c.name : null,
          }),
        ]),
      );

      const placed: Placed[] = [];
      const place = async (body: Record<string, unknown>) => {
        const p = (await control('POST', '/simulator/calls', body)) as unknown as Placed;
        placed.push(p);
        return p;
      };
      await place({ scenario: 'inbound_answered', caller: known[0]!.tel, recorded: true });
      await place({ scenario: 'outbound_answered', caller: known[1]!.tel, recorded: true });
      await place({ scenario: 'inbound_queue_answered', caller: known[2]!.tel, recorded: false });
      await place({ scenario: 'inbound_queue_missed', caller: missedCaller });
      await place({ scenario: 'inbound_missed', caller: missedCaller });
      const longest = Math.max(...placed.map((p) => p.ends_in_ms));
      await new Promise((r) => setTimeout(r, longest + 1500));
      await control('POST', '/webhooks/deliveries/wait', { timeout_ms: 20_000 });

      // Polling reconciles what the webhooks lost.
      await sync('cdrs', 1);

      for (const p of placed) {
        const log = await eventually(async () => {
          const rows = await view.logs(`acme:${p.call_id}`);
          return rows.length > 0 ? rows : undefined;
        }, `the call log of ${p.scenario}`);
        expect(log).toHaveLength(1);
        if (!p.scenario.startsWith('outbound')) expect(log[0]!.contactId).toBe(contactIdOf.get(p.src));
      }

      const tasks = () => view.tasks(missedCaller);
      const open = await eventually(async () => {
        const rows = await tasks();
        return rows.length === 1 && rows[0]!.body.includes(String(placed[4]!.call_id)) ? rows : undefined;
      }, 'one task carrying both missed calls');
      expect(open[0]!.status).toBe('open');

      // Recorded calls get their recording and, a little later, the transcript on the same log.
      for (const p of placed.filter((x) => x.recorded)) {
        const log = await eventually(async () => {
          const rows = await view.logs(`acme:${p.call_id}`);
          return rows.length === 1 && rows[0]!.transcript && rows[0]!.recording ? rows[0] : undefined;
        }, `the transcript of ${p.scenario}`);
        expect(log.summary).toBe(true);
      }

      // The missed caller is reached: the task closes itself.
      const reached = await place({ scenario: 'inbound_answered', caller: missedCaller, recorded: false });
      await new Promise((r) => setTimeout(r, reached.ends_in_ms + 1500));
      await control('POST', '/webhooks/deliveries/wait', { timeout_ms: 20_000 });
      await sync('cdrs', 2);
      const closed = await eventually(async () => {
        const rows = await tasks();
        return rows[0]?.status === 'closed' ? rows : undefined;
      }, 'the task to close');
      expect(closed).toHaveLength(1);

      // Exactly one log per call, nothing else; and callsync stayed inside the vendor's limits.
      const all = await view.allLogKeys();
      expect(new Set(all).size).toBe(all.length);
      expect(all.filter((k) => placed.some((p) => k === `acme:${p.call_id}`))).toHaveLength(placed.length);
      for (const p of placed) expect(await view.logs(`acme:${p.call_id}`)).toHaveLength(1);
      expect(view.limited()).toBe(0);

      // The faults really happened.
      const deliveries = (await control('GET', '/webhooks/deliveries')) as { data?: { fault?: string }[] };
      const faults = new Set((deliveries.data ?? []).map((d) => d.fault).filter(Boolean));
      expect(faults.size).toBeGreaterThan(0);
    });
  },
);
