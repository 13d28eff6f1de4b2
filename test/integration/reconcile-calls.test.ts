// Webhooks and polling reconcile each other, against a real Temporal dev server: a recent call no
// webhook announced gets its lifecycle (once), a running lifecycle learns that its CDR exists, and a
// lifecycle that already finished is neither repeated nor an error.
import { Client, Connection } from '@temporalio/client';
import {
  cdrSeenEvent,
  followCdrPage,
  notifyAnnouncedCalls,
  reconcileCalls,
} from '../../activities/reconcile';
import type { Cdr } from '../../connectors/platform';
import {
  CDR_SEEN_EVENT,
  callEventSignal,
  callLifecycleWorkflow,
  callWorkflowId,
  type CallEventSignal,
} from '../../contracts';
import { freePort } from '../../lib/free-port';
import { startTemporalDevServer, type RunningTemporal } from '../../local/temporal-dev-server';
import { eventually } from '../support/eventually';
import { quietTemporalRuntime } from '../support/temporal-runtime';
import { signalsQuery } from './receiver-workflow';
import { withStandInWorker } from './stand-in-worker';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';
import { InboxWriter } from '../../server/inbox-writer';

const ACCOUNT = 'acme';
const HOUR = 3_600_000;
const cdr = (id: number, liveId: number, calldate: string): Cdr => ({ id, live_id: liveId, calldate });

describe('reconcileCalls', () => {
  let temporal: RunningTemporal;
  let connection: Connection;
  let client: Client;
  let w: MigratedWarehouse;
  const taskQueue = `reconcile-${process.pid}`;

  beforeAll(async () => {
    quietTemporalRuntime();
    temporal = await startTemporalDevServer({ port: await freePort() });
    connection = await Connection.connect({ address: temporal.address });
    client = new Client({ connection });
    w = await createMigratedWarehouse('reconcile_calls');
  }, 120_000);
  afterAll(async () => {
    await w?.dispose();
    await connection?.close();
    await temporal?.stop();
  });

  it('starts recent unannounced calls once, tells running ones their CDR exists, leaves finished ones alone', async () => {
    await withStandInWorker(temporal.address, taskQueue, async () => {
      // Call 503 was announced by its webhooks and is over: its lifecycle has finished.
      const finished = await client.workflow.signalWithStart(callLifecycleWorkflow, {
        workflowId: callWorkflowId(ACCOUNT, 503),
        taskQueue,
        args: [{ account: ACCOUNT, callId: 503 }],
        signal: callEventSignal,
        signalArgs: [hangup(503)],
      });
      await finished.result();

      const opts = { account: ACCOUNT, taskQueue, windowMs: 24 * HOUR, newest: '2026-11-01 10:00:00' };
      const page = [
        cdr(1, 501, '2026-11-01 09:00:00'),
        cdr(2, 502, '2026-11-01 09:30:00'),
        cdr(3, 502, '2026-11-01 09:30:04'), // a second leg of call 502
        cdr(4, 503, '2026-11-01 08:00:00'),
        cdr(5, 504, '2026-10-30 09:00:00'), // history, not a call in flight
      ];
      expect(await reconcileCalls(client, opts, page)).toBe(2);

      const state = (callId: number) =>
        client.workflow.getHandle(callWorkflowId(ACCOUNT, callId)).query(signalsQuery);
      expect((await state(501)).input).toEqual({ account: ACCOUNT, callId: 501, fromCdr: true });
      expect((await state(502)).events).toEqual([]);
      await expect(client.workflow.getHandle(callWorkflowId(ACCOUNT, 504)).describe()).rejects.toThrow();

      // The next page (or run) sees the same calls again: nothing starts twice, and the running
      // lifecycles hear that their CDR exists (a lost hangup webhook no longer keeps them waiting).
      expect(await reconcileCalls(client, opts, page)).toBe(0);
      const seen = await eventually(async () => {
        const events = (await state(501)).events;
        return events.length > 0 ? events : undefined;
      }, 'the CDR-seen signal');
      expect(seen.map((e) => e.name)).toEqual([CDR_SEEN_EVENT]);
      expect((await finished.describe()).status.name).toBe('COMPLETED');
    });
  }, 120_000);
  it('tells the waiting lifecycles of announced calls on a history page their CDR exists, and starts none', async () => {
    await withStandInWorker(temporal.address, taskQueue, async () => {
      // Call 601's webhooks started its lifecycle, and its hangup webhook was lost; call 602's
      // lifecycle finished; call 603 had no webhook (a call from history).
      const waiting = await client.workflow.signalWithStart(callLifecycleWorkflow, {
        workflowId: callWorkflowId(ACCOUNT, 601),
        taskQueue,
        args: [{ account: ACCOUNT, callId: 601 }],
        signal: callEventSignal,
        signalArgs: [{ ...hangup(601), eventId: 'call-601-ringing', name: 'call.ringing' }],
      });
      const finished = await client.workflow.signalWithStart(callLifecycleWorkflow, {
        workflowId: callWorkflowId(ACCOUNT, 602),
        taskQueue,
        args: [{ account: ACCOUNT, callId: 602 }],
        signal: callEventSignal,
        signalArgs: [hangup(602)],
      });
      await finished.result();
      const inbox = new InboxWriter(w.pool);
      for (const callId of [601, 602]) {
        await inbox.write({
          account: ACCOUNT,
          eventId: `inbox-${callId}`,
          eventName: 'call.ringing',
          callId,
          body: JSON.stringify({ id: `inbox-${callId}`, event_name: 'call.ringing', call_id: callId }),
        });
      }
      // The page of a first read (or a backfill window): whatever its dates, nothing starts.
      const page = [
        cdr(1, 601, '2026-11-01 09:00:00'),
        cdr(2, 602, '2026-11-01 09:00:00'),
        cdr(3, 603, '2026-11-01 09:00:00'),
      ];
      expect(await notifyAnnouncedCalls(client, w.pool, ACCOUNT, page)).toBe(1);
      const seen = await eventually(async () => {
        const events = (await waiting.query(signalsQuery)).events;
        return events.length > 1 ? events : undefined;
      }, 'the CDR-seen signal');
      expect(seen.map((e) => e.name)).toEqual(['call.ringing', CDR_SEEN_EVENT]);
      await expect(client.workflow.getHandle(callWorkflowId(ACCOUNT, 603)).describe()).rejects.toThrow();
      expect((await finished.describe()).status.name).toBe('COMPLETED');
    });
  }, 120_000);

  it('tells an announced call its CDR exists when the CDR comes later than the reconcile window', async () => {
    await withStandInWorker(temporal.address, taskQueue, async () => {
      // Call 701's webhooks started its lifecycle and its hangup was lost; its CDR arrives hours
      // late, older than the window on an incremental page. Call 702 is as old and nobody announced it.
      const waiting = await client.workflow.signalWithStart(callLifecycleWorkflow, {
        workflowId: callWorkflowId(ACCOUNT, 701),
        taskQueue,
        args: [{ account: ACCOUNT, callId: 701 }],
        signal: callEventSignal,
        signalArgs: [{ ...hangup(701), eventId: 'call-701-ringing', name: 'call.ringing' }],
      });
      await new InboxWriter(w.pool).write({
        account: ACCOUNT,
        eventId: 'inbox-701',
        eventName: 'call.ringing',
        callId: 701,
        body: JSON.stringify({ id: 'inbox-701', event_name: 'call.ringing', call_id: 701 }),
      });
      const page = [cdr(11, 701, '2026-11-20 08:00:00'), cdr(12, 702, '2026-11-20 08:00:00')];
      await followCdrPage(
        client,
        w.pool,
        { account: ACCOUNT, taskQueue, windowMs: HOUR, newest: '2026-11-20 12:00:00', reconcile: true },
        page,
      );
      const seen = await eventually(async () => {
        const events = (await waiting.query(signalsQuery)).events;
        return events.length > 1 ? events : undefined;
      }, 'the CDR-seen signal');
      expect(seen.map((e) => e.name)).toEqual(['call.ringing', CDR_SEEN_EVENT]);
      await expect(client.workflow.getHandle(callWorkflowId(ACCOUNT, 702)).describe()).rejects.toThrow();
    });
  }, 120_000);

  it("starts the calls a first read finds after the history's end, and none of the history's", async () => {
    await withStandInWorker(temporal.address, taskQueue, async () => {
      // The first read began when CDR 20 was the newest: call 801 is history, call 802's CDR was
      // written while callsync read (its webhooks all lost), call 803's too but a day older by date.
      const page = [
        cdr(19, 801, '2026-11-20 11:00:00'),
        cdr(21, 802, '2026-11-20 11:30:00'),
        cdr(22, 803, '2026-11-19 09:00:00'),
      ];
      await followCdrPage(
        client,
        w.pool,
        {
          account: ACCOUNT,
          taskQueue,
          windowMs: 24 * HOUR,
          newest: '2026-11-20 11:30:00',
          reconcile: false,
          watchedAfterId: 20,
        },
        page,
      );
      const state = (callId: number) =>
        client.workflow.getHandle(callWorkflowId(ACCOUNT, callId)).query(signalsQuery);
      expect((await state(802)).input).toEqual({ account: ACCOUNT, callId: 802, fromCdr: true });
      await expect(client.workflow.getHandle(callWorkflowId(ACCOUNT, 801)).describe()).rejects.toThrow();
      // Watched, but outside the reconcile window: as on an incremental page, not started.
      await expect(client.workflow.getHandle(callWorkflowId(ACCOUNT, 803)).describe()).rejects.toThrow();
    });
  }, 120_000);
});

/** A platform hangup event (the stand-in lifecycle ends at one). */
function hangup(callId: number): CallEventSignal {
  return { ...cdrSeenEvent(callId), eventId: `call-${callId}-hangup`, name: 'call.hangup' };
}
