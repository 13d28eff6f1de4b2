// CRM outcomes back on the CDR, with real parts: the emulator, Temporal, PostgreSQL and the HubSpot and
// Salesforce test servers. A call callsync logged gets an outcome set by an agent in the CRM (through
// the vendor's API, as the CRM's UI does); the crmOutcomes pass gives the call's CDR the outcome's
// label and one note; again it adds nothing; a changed outcome replaces the label and adds one note;
// the disposition callsync wrote itself is not written back; a retry after a lost answer finds its
// note on the CDR instead of adding a second; a CDR the platform refuses fails alone.
import { sql } from 'kysely';
import { createOutcomeActivities } from '../../activities/outcome-activities';
import { collectOutcomeStatus, formatOutcomeStatus } from '../../cli/commands/status-outcomes';
import { patchCdrs } from '../../activities/outcome-writes';
import { parseTestConfig } from '../support/test-config';
import { destinationIdOf } from '../../connectors/crm/crm-connector';
import { cdrLabelNames } from '../../connectors/crm/outcomes';
import { SalesforceConnector, salesforceConfigSchema } from '../../connectors/salesforce';
import {
  callWorkflowId,
  crmOutcomesScheduleId,
  crmOutcomesWorkflow,
  type CrmOutcomesResult,
} from '../../contracts';
import { applyCrmOutcomesSchedules } from '../../runtime/outcomes-schedule';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';
import { eventually } from '../support/eventually';
import { workflowResult } from '../support/workflow-result';
import { missedCall } from './missed-call';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(300_000);

/** Waits until the clock is past `stamp` (a last-modified time), so that a change now is stamped later. */
async function clockPast(stamp: string): Promise<void> {
  const at = Date.parse(stamp);
  expect(at).not.toBeNaN();
  while (Date.now() <= at) await new Promise((r) => setTimeout(r, 1));
}

const CONNECTED = 'f240bbac-87c9-4f6e-bf70-924b57d47db7';
const NO_ANSWER = '73a0d17f-1163-4015-bdd5-ec830791da20';
const WRONG_NUMBER = '17b47fee-58de-441e-a44c-c6300d46f273';
/** How long the test server's search takes to see a write. */
const SEARCH_LAG_MS = 1_000;

describe('CRM outcomes back on the CDR', () => {
  let fake: FakeHubSpot;
  let h: SyncHarness;
  let runs = 0;

  const pass = () =>
    h.client.workflow.execute(crmOutcomesWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `outcomes-test-${++runs}`,
      args: [{ account: 'acme' }],
    });
  const platform = () => h.deps.platform('acme');
  const cdrOf = async (callId: number) => {
    const page = await platform()
      .history.cdrs.list({ filter: [{ property: 'live_id', operator: 'eq', value: callId }], limit: 10 })
      .readPage(1);
    return page.data[0]!;
  };
  const notesOf = async (cdrId: number) => {
    const notes: string[] = [];
    for await (const n of platform().history.cdrs.notes(cdrId)) notes.push(n.note ?? '');
    return notes;
  };
  /** An agent sets the call's outcome in HubSpot (the UI writes through the same API). */
  const setDisposition = async (crmId: string, value: string) => {
    // hs_lastmodifieddate has millisecond resolution: keep changes apart.
    await clockPast(fake.objects('calls').find((o) => o.id === crmId)!.updatedAt);
    const res = await fetch(`${fake.url}/crm/v3/objects/calls/${crmId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ properties: { hs_call_disposition: value } }),
    });
    expect(res.status).toBe(200);
    // HubSpot's search (the outcomes pass reads through it) sees the change a moment later.
    await new Promise((r) => setTimeout(r, SEARCH_LAG_MS + 100));
  };

  beforeAll(async () => {
    fake = await startFakeHubSpot({ searchLagMs: SEARCH_LAG_MS });
    h = await startSyncHarness({
      label: 'crm-outcomes',
      cdrs: 5,
      config: {
        crm: { destination: { type: 'hubspot', accessToken: fake.token, basePath: fake.url } },
        outcomes: { every: '1h', batchSize: 2 },
      },
    });
  }, 240_000);

  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it('is scheduled per account by the product’s wiring when a CRM is configured', async () => {
    expect(await applyCrmOutcomesSchedules(h.client, h.config)).toEqual({ acme: 'created' });
    const d = await h.client.schedule.getHandle(crmOutcomesScheduleId('acme')).describe();
    expect(d.spec.intervals).toMatchObject([{ every: 3_600_000 }]);
    const off = parseTestConfig({ ...h.config, outcomes: { enabled: false } });
    expect(await applyCrmOutcomesSchedules(h.client, off)).toEqual({ acme: 'deleted' });
  });

  it('writes an agent’s outcome once as a label and a note, a change once more, and never its own', async () => {
    fake.seedOwner(h.emulator.admin.email);
    const callId = await missedCall(h, '+442079460901', { userId: h.emulator.admin.user_id });
    await workflowResult(h.client, callWorkflowId('acme', callId));
    // HubSpot's search sees the logged call a moment later.
    await new Promise((r) => setTimeout(r, SEARCH_LAG_MS + 100));
    const call = fake.objects('calls').find((o) => o.properties.callsync_key === `acme:${callId}`)!;
    // callsync logged the missed call with its own outcome, "No answer".
    expect(call.properties.hs_call_disposition).toBe(NO_ANSWER);
    const cdr = await cdrOf(callId);
    // An agent's own label on the CDR, which the outcome labels must leave alone.
    await platform().calls.labels.create({ name: 'VIP' });
    await platform().history.cdrs.bulkUpdate([{ id: cdr.id, labels: ['VIP'] }]);

    const first: CrmOutcomesResult = await pass();
    expect(first).toMatchObject({ echoes: 1, written: 0, refused: 0 });
    expect(await notesOf(cdr.id)).toEqual([]);

    await setDisposition(call.id, CONNECTED);
    expect(await pass()).toMatchObject({ changed: 1, written: 1, echoes: 0, labelsCreated: 1 });
    expect(cdrLabelNames((await platform().history.cdrs.get(cdr.id)).labels)).toEqual(['VIP', 'Connected']);
    const notes = await notesOf(cdr.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      new RegExp(`^Outcome in HubSpot: Connected \\(set by ${h.emulator.admin.email} at \\d{4}-.+Z\\)$`),
    );

    // Again, nothing changed: nothing written.
    expect(await pass()).toMatchObject({ changed: 0, written: 0 });
    expect(await notesOf(cdr.id)).toHaveLength(1);

    // The write's answer was lost (the row still pending): the retry finds its note and adds none.
    await h.deps.warehouse.db
      .updateTable('cdr_outcomes')
      .set({ state: 'pending' })
      .where('call_key', '=', `acme:${callId}`)
      .execute();
    expect(await pass()).toMatchObject({ resumed: 1, written: 0 });
    expect(await notesOf(cdr.id)).toHaveLength(1);

    // A changed outcome: its label replaces the old outcome's, one more note.
    await setDisposition(call.id, WRONG_NUMBER);
    expect(await pass()).toMatchObject({ changed: 1, written: 1 });
    expect(cdrLabelNames((await platform().history.cdrs.get(cdr.id)).labels)).toEqual([
      'VIP',
      'Wrong number',
    ]);
    expect(await notesOf(cdr.id)).toHaveLength(2);
    expect(await pass()).toMatchObject({ changed: 0, written: 0 });

    // Back to what callsync itself wrote: not an agent's outcome, not written back.
    await setDisposition(call.id, NO_ANSWER);
    expect(await pass()).toMatchObject({ changed: 1, echoes: 1, written: 0 });
    expect(await notesOf(cdr.id)).toHaveLength(2);
    const rows = await sql<{
      state: string;
    }>`select state from cdr_outcomes where call_key = ${`acme:${callId}`}`.execute(h.deps.warehouse.db);
    expect(rows.rows).toEqual([{ state: 'echo' }]);

    // `callsync status` shows it, and a write the platform refused with its reason (per portal).
    const hubspotPortal = destinationIdOf(h.deps.crm('acme'));
    await h.deps.warehouse.db
      .insertInto('cdr_outcomes')
      .values({
        destination: hubspotPortal,
        call_key: 'acme:424242',
        account: 'acme',
        crm_id: '1',
        cdr_id: null,
        value: CONNECTED,
        label: 'Connected',
        previous_label: null,
        note: null,
        state: 'refused',
        reason: 'no CDR for call 424242',
        crm_changed_at: null,
      })
      .execute();
    const status = await collectOutcomeStatus(h.deps.warehouse.db);
    expect(status).toEqual([
      expect.objectContaining({
        account: 'acme',
        destination: hubspotPortal,
        counts: { echo: 1, refused: 1 },
      }),
    ]);
    const text = formatOutcomeStatus(status);
    expect(text).toContain(`acme ← ${hubspotPortal}: 0 written, 0 pending, 1 callsync's own, 1 refused`);
    expect(text).toContain('acme:424242 (no CDR, Connected): no CDR for call 424242');
  });

  it('writes the CDRs of a batch the platform accepts and records the one it refuses', async () => {
    const [a, b] = (await platform().history.cdrs.list({ limit: 2 }).readPage(1)).data;
    const before = { a: (await notesOf(a!.id)).length, b: (await notesOf(b!.id)).length };
    await platform().calls.labels.create({ name: 'Batch test' });
    const refused = await patchCdrs(
      platform(),
      [
        { id: a!.id, labels: ['Batch test'], note: 'note a' },
        { id: 987_654_321, labels: ['Batch test'], note: 'note for nobody' },
        { id: b!.id, labels: ['Batch test'], note: 'note b' },
      ],
      100,
    );
    expect([...refused.keys()]).toEqual([987_654_321]);
    expect(refused.get(987_654_321)).toMatch(/404/);
    expect(await notesOf(a!.id)).toHaveLength(before.a + 1);
    expect(await notesOf(b!.id)).toHaveLength(before.b + 1);
  });

  describe('with Salesforce', () => {
    let sf: FakeSalesforce;
    beforeAll(async () => {
      sf = await startFakeSalesforce();
    });
    afterAll(async () => {
      await sf?.close();
    });

    it('writes an agent’s CallDisposition once, and not the one callsync wrote', async () => {
      const crm = new SalesforceConnector(
        salesforceConfigSchema.parse({
          type: 'salesforce',
          instanceUrl: sf.url,
          accessToken: sf.token,
          apiVersion: sf.version,
        }),
      );
      const acts = createOutcomeActivities({ ...h.deps, crm: () => crm });
      const owner = sf.seed('User', { FirstName: 'Ada', LastName: 'Agent', Email: 'ada@example.com' });
      const [cdr] = h.emulator.store.addCdrs(h.emulator.admin.customer_id, 1);
      h.emulator.store.tables.cdrs.update(cdr!.id, { type: 'I', billsec: 42, disposition: 'ANSWER' });
      const callId = Number(cdr!.live_id);
      const taskId = await crm.createCallLog({
        key: `acme:${callId}`,
        title: 'Inbound call',
        direction: 'inbound',
        status: 'completed',
        startedAt: new Date().toISOString(),
        durationSeconds: 42,
        fromNumber: null,
        toNumber: null,
        userEmail: null,
        contact: null,
        recordingUrl: null,
        summary: null,
        transcriptExcerpt: null,
        sentiment: null,
        ivrDigits: null,
      });
      // callsync's own "Connected" is no agent's outcome.
      expect(await acts.applyCrmOutcomes({ account: 'acme' })).toMatchObject({ echoes: 1, written: 0 });

      // LastModifiedDate has millisecond resolution: the agent's change comes after callsync's write.
      await clockPast(sf.records('Task').find((r) => r.Id === taskId)!.LastModifiedDate);
      const res = await fetch(`${sf.url}/services/data/v${sf.version}/sobjects/Task/${taskId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${sf.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ CallDisposition: 'Demo booked', OwnerId: owner }),
      });
      expect(res.status).toBe(204);
      expect(await acts.applyCrmOutcomes({ account: 'acme' })).toMatchObject({ changed: 1, written: 1 });
      expect(await acts.applyCrmOutcomes({ account: 'acme' })).toMatchObject({ changed: 0, written: 0 });
      const cdrId = Number(cdr!.id);
      const updated = await platform().history.cdrs.get(cdrId);
      expect(cdrLabelNames(updated.labels)).toEqual(['Demo booked']);
      const notes = await eventually(async () => {
        const n = await notesOf(cdrId);
        return n.length > 0 ? n : undefined;
      }, 'the note');
      expect(notes).toEqual([
        expect.stringMatching(/^Outcome in Salesforce: Demo booked \(set by Ada Agent at /),
      ]);
    });
  });
});
