// Personal data in Temporal: calls run through the real dev server with payload encryption on; the
// raw histories (read through the service API, without the codec) hold no phone number, name or
// transcript text; the codec endpoint gives them back; a history written with key A stays readable
// (by the worker, the client and the endpoint) after rotating to key B.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { parseTestConfig } from '../support/test-config';
import {
  callbackStateQuery,
  callbackWorkflow,
  callWorkflowId,
  legacyCallbackWorkflowId,
  missedCallSignal,
  type CallEventSignal,
} from '../../contracts';
import { silentLogger } from '../../lib/logger';
import { startServer, type RunningServer } from '../../server';
import { serverObservability } from '../../runtime/server-observability';
import { temporalDataConverter } from '../../runtime/temporal-encryption';
import { createWorker } from '../../runtime/worker';
import { eventually } from '../support/eventually';
import { callbackIdOf, deliverCallEvents, missedCall } from './missed-call';
import { startSyncHarness, type SyncHarness } from './sync-harness';
import { payloadsOf, type RawPayload } from '../../lib/history-payloads';

jest.setTimeout(180_000);

const CALLER = '+442079461234';
const NAME = 'Grace Hopper';
const TRANSCRIPT = 'Caller: my account number is 99-ZEBRA, please upgrade me.';
const TOKEN = 'codec-token-0123456789abcdef';
const keyA = { id: 'key-a', key: randomBytes(32).toString('base64') };
const keyB = { id: 'key-b', key: randomBytes(32).toString('base64') };
const idKey = randomBytes(32).toString('base64');

describe('personal data encrypted in Temporal', () => {
  let h: SyncHarness;
  let server: RunningServer;

  beforeAll(async () => {
    h = await startSyncHarness({
      label: 'codec',
      cdrs: 100,
      temporal: { encryption: { keys: [keyA], activeKeyId: keyA.id, idKey } },
    });
    const obs = serverObservability({
      ...h.config,
      server: {
        ...h.config.server,
        codec: { token: TOKEN, hosts: [], corsOrigins: ['http://localhost:8233'] },
      },
    });
    server = await startServer({
      accounts: h.config.accounts,
      databaseUrl: h.database.url,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      codec: obs.codec,
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await h?.close();
  });

  const rawHistory = async (workflowId: string) => {
    const res = await h.client.workflowService.getWorkflowExecutionHistory({
      namespace: 'default',
      execution: { workflowId },
    });
    return res.history!;
  };
  const rawBytes = (history: temporal.api.history.v1.IHistory) =>
    Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1');

  const event = (callId: number, n: number, name: string): CallEventSignal => ({
    eventId: `${callId}-${n}`,
    name,
    time: `2026-11-01 12:00:0${n}`,
    state: name.split('.')[1]!.toUpperCase(),
    context: 'LOCAL_USER',
    destination: 'in',
    src: CALLER,
    dst: '101',
    srcId: null,
    dstId: 120001,
    srcName: NAME,
    dstName: 'Amelia',
    duration: n,
    tCause: null,
    connectedAt: null,
    digits: null,
  });

  /** A connected call from CALLER whose recording already has its transcript. */
  async function connectedCall(): Promise<number> {
    const customer = h.emulator.admin.customer_id;
    const [cdr] = h.emulator.store.addCdrs(customer, 1);
    h.emulator.store.tables.cdrs.update(cdr!.id, {
      type: 'I',
      src: CALLER,
      dst: '101',
      billsec: 60,
      duration: 70,
      disposition: 'CONNECTED',
      t_cause: 'Normal Clearing',
    });
    const callId = Number(cdr!.live_id);
    const existing = h.emulator.store.tables.monitors.query(customer, {
      page: 1,
      limit: 5,
      filter: [{ property: 'live_id', operator: 'eq', value: callId }],
    }).data[0];
    const monitorId = existing
      ? Number(existing.id)
      : Number(
          h.emulator.store.tables.monitors.insert(customer, {
            live_id: callId,
            created_at: cdr!.calldate,
            token: 't',
          }).id,
        );
    h.emulator.store.tables.monitors.update(monitorId, {
      transcript: TRANSCRIPT,
      summary: 'Upgrade',
      sentiment: 'positive',
    });
    await deliverCallEvents(h, callId, [event(callId, 1, 'call.connected'), event(callId, 2, 'call.hangup')]);
    return callId;
  }

  const decodeViaEndpoint = async (payloads: RawPayload[], token = TOKEN) =>
    fetch(`${server.url}/codec/decode`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'x-namespace': 'default',
      },
      body: JSON.stringify({
        payloads: payloads.map((p) => ({
          metadata: Object.fromEntries(
            Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
          ),
          data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
        })),
      }),
    });

  let missedId: number;
  let firstRunId: string;
  let connectedId: number;

  it('keeps numbers, names and transcripts out of raw histories and workflow ids; the endpoint decodes them', async () => {
    missedId = await missedCall(h, CALLER);
    const callbackId = callbackIdOf(h, CALLER);
    expect(callbackId).not.toContain('2079461234');
    await eventually(
      () =>
        h.client.workflow
          .getHandle(callbackId)
          .query(callbackStateQuery)
          .catch(() => undefined),
      'the callback',
    );
    connectedId = await connectedCall();
    const log = await eventually(async () => {
      const rows = await h.deps.warehouse.db
        .selectFrom('builtin_call_logs')
        .selectAll()
        .where('key', '=', `acme:${connectedId}`)
        .execute();
      return rows[0]?.transcript_excerpt ? rows[0] : undefined;
    }, 'the connected call logged with its transcript');
    expect(log.from_number).toBe(CALLER);
    firstRunId = (await h.client.workflow.getHandle(callbackId).describe()).runId;
    const closed = await h.client.workflow.getHandle(callbackId).result();
    expect(closed).toMatchObject({ number: CALLER, status: 'closed' });

    const ids = [callWorkflowId('acme', missedId), callWorkflowId('acme', connectedId), callbackId];
    const decodedTexts: string[] = [];
    for (const id of ids) {
      const history = await rawHistory(id);
      const raw = rawBytes(history);
      for (const secret of [CALLER, CALLER.slice(1), NAME, 'Grace', '99-ZEBRA', 'upgrade me']) {
        expect({ id, found: raw.includes(secret) ? secret : null }).toEqual({ id, found: null });
      }
      const payloads = payloadsOf(history);
      expect(payloads.length).toBeGreaterThan(2);
      const clear = payloads
        .filter((p) => Buffer.from(p.metadata?.['encryption-key-id'] ?? []).toString() !== keyA.id)
        .map((p) => ({
          metadata: Object.fromEntries(
            Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString()]),
          ),
          data: Buffer.from(p.data ?? []).toString(),
        }));
      // The only payloads the SDK leaves in clear are its markers' bookkeeping: patch ids (code
      // versions) and a local activity's attempt, type and times, never its input or result.
      const notMarkers = clear.filter(
        (p) =>
          !/^\{"id":"[\w-]+","deprecated":(true|false)\}$/.test(p.data) && !isLocalActivityMarker(p.data),
      );
      expect({ id, clear: notMarkers }).toEqual({ id, clear: [] });
      const res = await decodeViaEndpoint(payloads);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { payloads: { metadata: Record<string, string>; data: string }[] };
      expect(body.payloads).toHaveLength(payloads.length);
      decodedTexts.push(...body.payloads.map((p) => Buffer.from(p.data, 'base64').toString('utf8')));
    }
    const decoded = decodedTexts.join('\n');
    expect(decoded).toContain(CALLER);
    expect(decoded).toContain(NAME);

    // Listing workflows (ids, types, search attributes, memos: never encrypted) shows no number.
    const listed = await h.client.workflowService.listWorkflowExecutions({
      namespace: 'default',
      pageSize: 1000,
    });
    const listing = Buffer.from(
      temporal.api.workflowservice.v1.ListWorkflowExecutionsResponse.encode(listed).finish(),
    ).toString('latin1');
    expect(listing).toContain(callbackId);
    expect(listing).not.toContain(CALLER.slice(1));
  });

  it('refuses a decode without the bearer token, and answers the Temporal UI origin only', async () => {
    const [p] = payloadsOf(await rawHistory(callWorkflowId('acme', missedId)));
    expect((await decodeViaEndpoint([p!], 'wrong-token-0123456789')).status).toBe(401);
    const preflight = await fetch(`${server.url}/codec/decode`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:8233',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-namespace',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:8233');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    const other = await fetch(`${server.url}/codec/decode`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('keeps signalling a callback opened under the old id (the number) until it ends', async () => {
    const legacyCaller = '+442079465555';
    const legacyId = legacyCallbackWorkflowId('acme', legacyCaller);
    await h.client.workflow.signalWithStart(callbackWorkflow, {
      workflowId: legacyId,
      taskQueue: h.taskQueue,
      args: [{ account: 'acme', number: legacyCaller }],
      signal: missedCallSignal,
      signalArgs: [{ callId: 1, at: new Date().toISOString(), calledUserId: null, queueId: null }],
    });
    const callId = await missedCall(h, legacyCaller);
    const state = await eventually(
      () =>
        h.client.workflow
          .getHandle(legacyId)
          .query(callbackStateQuery)
          .then((s) => (s.missed.length === 2 ? s : undefined)),
      'the second missed call on the old-form callback',
    );
    expect(state.missed.map((m) => m.callId)).toEqual([1, callId]);
    await expect(h.client.workflow.getHandle(callbackIdOf(h, legacyCaller)).describe()).rejects.toThrow();
  });
  it('after rotating to key B, reads key-A histories and writes new payloads with key B', async () => {
    const rotated = parseTestConfig({
      ...(JSON.parse(readFileSync(h.configFile, 'utf8')) as object),
      temporal: {
        address: h.temporal.address,
        taskQueue: h.taskQueue,
        encryption: { keys: [keyA, keyB], activeKeyId: keyB.id, idKey },
      },
    });
    await h.stopWorker();
    const { worker, connection } = await createWorker({
      address: h.temporal.address,
      namespace: 'default',
      taskQueue: h.taskQueue,
      deps: { ...h.deps, config: rotated },
    });
    const running = worker.run();
    const client = new Client({
      connection: h.client.connection,
      dataConverter: temporalDataConverter(rotated.temporal),
    });
    try {
      // A closed key-A workflow reads back through the rotated client.
      const old = await client.workflow.getHandle(callbackIdOf(h, CALLER), firstRunId).result();
      expect(old.number).toBe(CALLER);
      // A new callback run for the same caller: its payloads are written with key B.
      const again = await missedCall(h, CALLER);
      const callbackId = callbackIdOf(h, CALLER);
      const state = await eventually(
        () =>
          client.workflow
            .getHandle(callbackId)
            .query(callbackStateQuery)
            .then((s) => (s.missed.some((m) => m.callId === again) ? s : undefined))
            .catch(() => undefined),
        'the new callback',
      );
      expect(state.number).toBe(CALLER);
      const latest = await rawHistory(callbackId);
      const keyIds = new Set(
        payloadsOf(latest).map((p) => Buffer.from(p.metadata?.['encryption-key-id'] ?? []).toString()),
      );
      expect(keyIds.has(keyB.id)).toBe(true);
      // The first callback run, all key A, answers a query on the rotated worker (which replays it).
      const replayed = await client.workflow.getHandle(callbackId, firstRunId).query(callbackStateQuery);
      expect(replayed).toMatchObject({ number: CALLER, status: 'closed' });
    } finally {
      worker.shutdown();
      await running;
      await connection.close();
    }
  });
});

/** Core's record of a local activity run: its number, attempt, type and times, and nothing else. */
function isLocalActivityMarker(data: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return false;
  }
  const keys = Object.keys(parsed as object).sort();
  const expected = [
    'activity_id',
    'activity_type',
    'attempt',
    'backoff',
    'complete_time',
    'original_schedule_time',
    'seq',
  ];
  return (
    JSON.stringify(keys) === JSON.stringify(expected) &&
    /^\w+$/.test(String((parsed as { activity_type?: unknown }).activity_type))
  );
}
