// Erasing one person on the real stack (emulator, Temporal with encrypted payloads, PostgreSQL, the
// webhook receiver with its relay, the built-in CRM): after calls, an SMS and a callback, `erase`
// leaves no form of their number and no trace of their name or transcript in any column of any
// table, any archived file or any Temporal history (raw or decoded); later syncs and webhooks about
// them are anonymised as they arrive; erasing again changes nothing and still succeeds.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { temporal } from '@temporalio/proto';
import { formatErasures, runErasure } from '../../cli/commands/erase';
import { formatVerification, verifyErasure } from '../../cli/commands/erase-verify';
import { recordMapping } from '../../connectors/crm/mapping';
import { unknownContactKey } from '../../connectors/crm/upsert';
import { addQuarantined, recentErasures } from '../../connectors/postgres';
import {
  callWorkflowId,
  conversationsWorkflow,
  screenPopWorkflowId,
  smsReceivedWorkflowId,
  syncStreamWorkflow,
} from '../../contracts';
import { erasedToken, identifierHash, parseSubject } from '../../lib/erasure/identity';
import { silentLogger } from '../../lib/logger';
import { erasureHashKey, payloadCodecFromConfig } from '../../lib/encryption-keys';
import { startServer, type RunningServer } from '../../server';
import { eventually } from '../support/eventually';
import { callbackIdOf } from './missed-call';
import { startSyncHarness, type SyncHarness } from './sync-harness';
import { payloadsOf } from '../../lib/history-payloads';
import { cliCommand, cliEnv, root } from './cli-process';

jest.setTimeout(300_000);

const E164 = '+447911123456';
const NAME = 'Alice Liddell';
const EMAIL = 'alice.liddell@example.org';
const SECRET = 'erasure-webhook-secret-0123456789';
const key = { id: 'key-a', key: randomBytes(32).toString('base64') };
const idKey = randomBytes(32).toString('base64');

// Written by hand, not with the product's helpers: the national digits with any separators, so
// +44 7911 123456, 447911123456, 07911-123456 and 0044 (0)7911 123456 all match.
const NUMBER_ANYHOW = [...'7911123456'].join('[^0-9]{0,4}');
const TRACES: [string, RegExp][] = [
  ['number', new RegExp(NUMBER_ANYHOW)],
  ['name', /liddell/i],
  ['e-mail', /alice\.liddell@/i],
  ['transcript', /zombiquokka/i],
  // Their other numbers: on their contact, and on a second contact with their name and e-mail.
  ['other number', new RegExp([...'7911777999'].join('[^0-9]{0,4}'))],
  ['second contact number', new RegExp([...'7911777888'].join('[^0-9]{0,4}'))],
];
const tracesIn = (text: string): string[] => TRACES.filter(([, re]) => re.test(text)).map(([what]) => what);

/** Every column of every table (cast to text) holding a trace of the person: `table.column: what`. */
async function tracesInWarehouse(pool: pg.Pool): Promise<string[]> {
  const { rows: columns } = await pool.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
      ORDER BY 1, 2`,
  );
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    for (const [what, re] of TRACES) {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${table}" WHERE "${column}"::text ~* $1`,
        [re.source],
      );
      if (rows[0]!.n > 0) found.push(`${table}.${column}: ${what}`);
    }
  }
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

describe('callsync erase', () => {
  let h: SyncHarness;
  let server: RunningServer;
  /** Each delivery the receiver's fast path was handed (by event id): whether it was an erased person's. */
  const fastPathSaw = new Map<string, boolean>();
  const customer = () => h.emulator.admin.customer_id;
  const tables = () => h.emulator.store.tables;

  beforeAll(async () => {
    h = await startSyncHarness({
      label: 'erasure',
      cdrs: 100,
      temporal: { encryption: { keys: [key], activeKeyId: key.id, idKey } },
      config: {
        erasure: { deleteCrmRecords: true },
        reports: { directory: mkdtempSync(join(tmpdir(), 'erasure-reports-')) },
      },
    });
    server = await startServer({
      accounts: [{ name: 'acme', webhookSecret: SECRET }],
      databaseUrl: h.database.url,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      temporal: { client: h.client, taskQueue: h.taskQueue },
      erasure: { key: erasureHashKey(h.config), defaultCountry: 'GB' },
      observeFastPath: (_account, webhook, _receivedAt, suppressed) =>
        void fastPathSaw.set(webhook.event.id, suppressed === true),
    });
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await h?.close();
  });

  let syncs = 0;
  const sync = (stream: string) =>
    h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `erasure-sync-${stream}-${++syncs}`,
      args: [{ account: 'acme', stream }],
    });

  const webhook = (body: unknown) =>
    fetch(server.webhookUrl('acme', SECRET), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  /** Each call's start (its CDR's calldate): its events carry it, as the platform's do. */
  const startOf = new Map<number, string>();
  const callHook = (callId: number, n: number, name: string) => ({
    id: `erasure-${callId}-${n}`,
    event_time: startOf.get(callId),
    start_time: startOf.get(callId),
    event_name: name,
    call_id: callId,
    state: name.split('.')[1]!.toUpperCase(),
    context: 'LOCAL_USER',
    destination: 'in',
    src: '+44 7911 123456',
    src_name: NAME,
    dst: '101',
    dst_id: 120001,
    duration: n,
  });

  /** A CDR from the person (national form, with their name), and its recording when connected. */
  function call(kind: 'connected' | 'missed'): number {
    const [cdr] = h.emulator.store.addCdrs(customer(), 1);
    tables().cdrs.update(cdr!.id, {
      type: kind === 'connected' ? 'I' : 'M',
      src: '07911123456',
      src_name: NAME,
      clid: `"${NAME}" <07911123456>`,
      dst: '101',
      billsec: kind === 'connected' ? 60 : 0,
      duration: 70,
      disposition: kind === 'connected' ? 'CONNECTED' : 'RINGING',
      t_cause: kind === 'connected' ? 'Normal Clearing' : 'No user responding',
    });
    const callId = Number(cdr!.live_id);
    startOf.set(callId, String(cdr!.calldate));
    const monitors = tables().monitors.query(customer(), {
      page: 1,
      limit: 5,
      filter: [{ property: 'live_id', operator: 'eq', value: callId }],
    }).data;
    if (kind === 'connected') {
      const monitorId = monitors[0]
        ? Number(monitors[0].id)
        : Number(
            tables().monitors.insert(customer(), { live_id: callId, created_at: cdr!.calldate, token: 't' })
              .id,
          );
      tables().monitors.update(monitorId, {
        transcript: `Agent: hello. Caller: this is ${NAME}, about order 7-ZOMBIQUOKKA.`,
        summary: `${NAME} asked about an order`,
        sentiment: 'positive',
      });
    } else {
      for (const m of monitors) tables().monitors.update(m.id, { transcript: null, summary: null });
    }
    return callId;
  }

  /** An SMS from the person (international form without +), copying a seeded row's shape. */
  function sms(text: string): void {
    const [seeded] = tables().sms.query(customer(), { page: 1, limit: 1, filter: [] }).data;
    const { id: _id, ...shape } = seeded!;
    tables().sms.insert(customer(), {
      ...shape,
      created_at: h.emulator.store.clock.nowString(),
      from: '447911123456',
      from_name: NAME,
      message: text,
    });
  }

  /** The platform's sms.received for an SMS from the person, as its webhook sends it. */
  const smsHook = (id: string, text: string, at: string) => ({
    id,
    event_time: at,
    event_name: 'sms.received',
    customer_id: customer(),
    user_id: 120001,
    from_no: '447911123456',
    // The number they wrote to (the seeded SMS's): the workflow finds the SMS by it.
    to_no: String(tables().sms.query(customer(), { page: 1, limit: 1, filter: [] }).data[0]!.to),
    text,
  });

  /** A voice message the person left on a call (copying a seeded row's shape when there is one). */
  function voicemail(callId: number): void {
    const [seeded] = tables().voicemessages.query(customer(), { page: 1, limit: 1, filter: [] }).data;
    const { id: _id, ...shape } = seeded ?? {};
    tables().voicemessages.insert(customer(), {
      ...shape,
      caller: `"${NAME}" <07911123456>`,
      callerid: '07911123456',
      dialled: '101',
      duration: 12,
      live_id: callId,
      origtime: String(Math.floor(Date.now() / 1000)),
      transcript: `Hi, it's ${NAME}, about order ZOMBIQUOKKA, mail me at ${EMAIL}`,
    });
  }

  /** Whether a workflow exists now. */
  const started = (workflowId: string): Promise<boolean> =>
    h.client.workflow
      .getHandle(workflowId)
      .describe()
      .then(
        () => true,
        () => false,
      );

  /**
   * No history left anywhere holds them, raw (through the service API) or decoded. The server
   * deletes executions asynchronously (a run being deleted may still be listed and read for a
   * moment), so the search is repeated until it comes back clean or a minute has passed.
   */
  const historiesClean = async () => {
    const codec = payloadCodecFromConfig(h.config.temporal)!;
    const tracesInHistories = async () => {
      const listed = await h.client.workflowService.listWorkflowExecutions({
        namespace: 'default',
        pageSize: 1000,
      });
      expect(listed.executions.length).toBeGreaterThan(3);
      const found: { id: string; raw: string[]; decoded: string[] }[] = [];
      for (const e of listed.executions) {
        const history = await h.client.workflowService
          .getWorkflowExecutionHistory({ namespace: 'default', execution: e.execution! })
          .then((r) => r.history)
          .catch(() => null); // deleted between the list and the read
        if (!history) continue;
        const raw = Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1');
        const decoded = (await codec.decode(payloadsOf(history) as never)).map((p) =>
          Buffer.from(p.data ?? []).toString('utf8'),
        );
        const hit = {
          id: e.execution!.workflowId!,
          raw: tracesIn(raw),
          decoded: tracesIn(decoded.join('\n')),
        };
        if (hit.raw.length > 0 || hit.decoded.length > 0) found.push(hit);
      }
      return found;
    };
    let found = await tracesInHistories();
    for (const until = Date.now() + 60_000; found.length > 0 && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 1000));
      found = await tracesInHistories();
    }
    return found;
  };

  /** `callsync --config <the harness's file> erase --verify <number>`, in a child process. */
  const verifyCli = (number: string) => {
    const [cmd, argv] = cliCommand(['--config', h.configFile, 'erase', '--verify', number]);
    return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(cmd, argv, { cwd: root, env: cliEnv() });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
  };

  const verify = (number: string) =>
    verifyErasure(h.config, h.deps.warehouse, h.client, parseSubject({ number }, 'GB'));

  let connectedId: number;
  let missedId: number;
  let theirSmsKey: string;
  const erasureToken = () => erasedToken(identifierHash(erasureHashKey(h.config), 'number', E164));

  it('finds the person in many tables, files and histories before the erasure', async () => {
    const [seededContact] = tables().contacts.query(customer(), { page: 1, limit: 1, filter: [] }).data;
    const { id: _id, ...contactShape } = seededContact!;
    tables().contacts.insert(customer(), {
      ...contactShape,
      first_name: 'Alice',
      last_name: 'Liddell',
      tel: '07911 123456',
      mobile: '+447911123456',
      tel_1: '+44 7911 777999',
      email: EMAIL,
    });
    tables().contacts.insert(customer(), {
      ...contactShape,
      first_name: 'Alice',
      last_name: 'Liddell',
      tel: null,
      mobile: '07911 777888',
      email: EMAIL.toUpperCase(),
    });
    sms('Hi, Alice Liddell here, call me on 07911 123456 please');
    // The CRM (the builtin one, from the platform's contacts) knows them before their calls and SMS
    // are looked up: a lookup that finds nobody is trusted for a while (unknownCacheMaxAge).
    await sync('contacts');
    connectedId = call('connected');
    missedId = call('missed');
    for (const [id, events] of [
      [connectedId, ['call.connected', 'call.hangup']],
      [missedId, ['call.missed', 'call.hangup']],
    ] as const) {
      for (const [n, name] of events.entries())
        expect((await webhook(callHook(id, n + 1, name))).status).toBe(200);
    }
    // The fast path's workflows: a screen-pop of their ringing call, the log of their SMS.
    expect((await webhook(callHook(connectedId, 0, 'call.ringing'))).status).toBe(200);
    const [theirSms] = tables().sms.query(customer(), {
      page: 1,
      limit: 1,
      filter: [{ property: 'from', operator: 'eq', value: '447911123456' }],
    }).data;
    expect(
      (await webhook(smsHook('erasure-sms-1', String(theirSms!.message), String(theirSms!.created_at))))
        .status,
    ).toBe(200);
    for (const id of [
      screenPopWorkflowId('acme', connectedId),
      smsReceivedWorkflowId('acme', 'erasure-sms-1'),
    ])
      await eventually(
        () =>
          h.client.workflow
            .getHandle(id)
            .result()
            .then(
              () => true,
              () => undefined, // not started yet (the fast path is fire and forget)
            ),
        `${id} done`,
      );
    expect((await webhook(`{"id": "broken", "src": "+447911123456", `)).status).toBe(400);
    await addQuarantined(h.deps.warehouse.db, [
      {
        account: 'acme',
        stream: 'sms',
        recordId: 'q-1',
        reason: 'schema: test',
        raw: { from: E164, from_name: NAME },
      },
    ]);
    for (const stream of ['contacts', 'sms', 'cdrs', 'recordings']) await sync(stream);
    // Their SMS logged on their contact (the builtin CRM's), as the scheduled pass does: once the
    // warehouse has it, passes (each logs at most 500) run until its log exists.
    const db = h.deps.warehouse.db;
    const theirSmsRow = await eventually(
      () => db.selectFrom('sms').select('id').where('from', '=', E164.slice(1)).executeTakeFirst(),
      'their SMS in the warehouse',
    );
    theirSmsKey = `acme:sms:${theirSmsRow.id}`;
    const theirLog = () =>
      db
        .selectFrom('builtin_messages')
        .select(['key', 'body'])
        .where('key', '=', theirSmsKey)
        .executeTakeFirst();
    for (let run = 1; run <= 10 && !(await theirLog()); run++) {
      await h.client.workflow.execute(conversationsWorkflow, {
        taskQueue: h.taskQueue,
        workflowId: `erasure-conversations-${run}`,
        args: [{ account: 'acme' }],
      });
    }
    expect((await theirLog())?.body).toContain('Alice Liddell');
    await eventually(
      () =>
        db
          .selectFrom('builtin_call_logs')
          .select('transcript_excerpt')
          .where('key', '=', `acme:${connectedId}`)
          .executeTakeFirst()
          .then((r) => (r?.transcript_excerpt ? r : undefined)),
      'the connected call logged with its transcript',
    );
    await eventually(
      () => db.selectFrom('builtin_tasks').select('id').where('caller_number', '=', E164).executeTakeFirst(),
      'the callback task',
    );
    const recording = await db
      .selectFrom('recordings')
      .select(['audio_uri'])
      .where('live_id', '=', connectedId)
      .executeTakeFirstOrThrow();
    expect(recording.audio_uri).toMatch(/^file:/);

    // A contact callsync created for them as an unknown caller (crm.createUnknownContacts), mapped.
    const made = await h.deps.crm('acme').createContact({ phone: E164, name: null });
    await recordMapping(h.deps.warehouse.db, {
      account: 'acme',
      destination: 'builtin',
      kind: 'contact',
      sourceKey: unknownContactKey('acme', E164),
      crmId: made.crmId,
    });

    // A report that lists them, and its e-mail in the local outbox (the report attached).
    const reportDir = join(h.config.reports.directory, 'acme');
    mkdirSync(reportDir, { recursive: true });
    const report = `caller,name,minutes\r\n07911 123456,${NAME},3\r\n+44 20 7946 0018,Bob Jones,5\r\n`;
    writeFileSync(join(reportDir, 'calls-2026-11.csv'), report);
    const outbox = h.config.reports.delivery.email.outboxDir;
    mkdirSync(outbox, { recursive: true });
    writeFileSync(
      join(outbox, 'calls-2026-11.eml'),
      [
        'Subject: Calls report',
        'Content-Type: text/csv; name=calls.csv',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from(report).toString('base64'),
        '',
      ].join('\r\n'),
    );
    const before = await verify(E164);
    for (const place of [
      /^warehouse\.cdrs: \d+ rows?$/,
      /^warehouse\.contacts: 1 row$/,
      /^temporal: screenpop-acme-\d+ \(screenPop/,
      /^temporal: sms-acme-erasure-sms-1 \(smsReceived/,
      /^reports\.files: .*calls-2026-11\.csv$/,
      /^reports\.outbox: .*calls-2026-11\.eml$/,
    ]) {
      expect(before.left).toContainEqual(expect.stringMatching(place));
    }
    expect(formatVerification(before)).toMatch(/^LEFT \(\d+ places\):/);
    // The same, as an operator runs it: the command lists what is left and exits 1.
    const cli = await verifyCli(E164);
    expect(cli.status).toBe(1);
    expect(cli.stdout).toMatch(/^LEFT \(\d+ places\):/);

    const found = await tracesInWarehouse(h.deps.warehouse.pool);
    for (const place of [
      'cdrs.src: number',
      'cdrs.src_name: name',
      'sms.from: number',
      'sms.message: name',
      'contacts.tel: number',
      'contacts.tel_1: other number',
      'contacts.mobile: second contact number',
      'contacts.email: e-mail',
      'recordings.transcript: transcript',
      'call_events.detail: number',
      'webhook_inbox.body: name',
      'webhook_rejected.body: number',
      'quarantined_records.raw: number',
      'builtin_call_logs.from_number: number',
      'builtin_tasks.caller_number: number',
      'builtin_messages.from_number: number',
      'crm_objects.source_key: number',
    ]) {
      expect(found).toContain(place);
    }
  });

  it('erases them everywhere: every column of every table, the archive, the CRM and Temporal', async () => {
    const pool = h.deps.warehouse.pool;
    const count = async (sql: string) => (await pool.query<{ n: number }>(sql)).rows[0]!.n;
    const cdrsBefore = await count('SELECT count(*)::int AS n FROM cdrs');
    const archived = filesUnder(h.config.archive.dir);
    const { rows: theirs } = await pool.query<{ id: number }>(
      'SELECT id FROM recordings WHERE live_id = ANY($1::bigint[]) AND audio_uri IS NOT NULL',
      [[connectedId, missedId]],
    );
    expect(theirs.length).toBeGreaterThan(0);
    const theirFiles = archived.filter((f) => theirs.some((r) => f.endsWith(`/${r.id}.mp3`)));
    expect(theirFiles).toHaveLength(theirs.length);
    const callbackId = callbackIdOf(h, E164);
    await h.client.workflow.getHandle(callbackId).describe();

    // A delivery of their call still waiting for the relay (retrying later) must not be relayed after.
    await pool.query(
      `UPDATE webhook_inbox SET status = 'pending', next_attempt_at = now() + interval '1 hour' WHERE event_id = $1`,
      [`erasure-${connectedId}-2`],
    );

    const result = await runErasure(h.config, h.deps.warehouse, h.client, { number: '07911 123456' });
    expect(result.counts).toMatchObject({
      'warehouse.cdrs.anonymised': expect.any(Number),
      'warehouse.sms.anonymised': 1,
      'warehouse.contacts.anonymised': 1,
      // Their e-mail and other numbers, erased as linked to the number.
      'linked.warehouse.contacts.anonymised': expect.any(Number),
      'warehouse.webhook_rejected.deleted': 1,
      'archive.audio': theirs.length,
      'crm.builtin.call_log': 2,
      'crm.builtin.task': 1,
      'crm.builtin.sms': 1,
      'crm.builtin.contact': 1,
      'reports.files.rewritten': 1,
      'reports.outbox.deleted': 1,
    });
    expect(await count('SELECT count(*)::int AS n FROM builtin_contacts')).toBe(0);
    const reportNow = readFileSync(join(h.config.reports.directory, 'acme', 'calls-2026-11.csv'), 'utf8');
    expect(tracesIn(reportNow)).toEqual([]);
    expect(reportNow).toContain('+44 20 7946 0018,Bob Jones,5');
    // Their SMS's log is deleted from the CRM, not only anonymised, and its mapping with it.
    expect(
      await count(
        `SELECT count(*)::int AS n FROM builtin_messages WHERE channel = 'sms' AND body LIKE '%call me on%'`,
      ),
    ).toBe(0);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM crm_objects WHERE kind = 'sms' AND source_key = '${theirSmsKey}'`,
      ),
    ).toBe(0);
    expect(result.counts['temporal.runs']).toBeGreaterThanOrEqual(3);

    expect(await tracesInWarehouse(pool)).toEqual([]);
    const waiting = await pool.query<{ status: string }>(
      'SELECT status FROM webhook_inbox WHERE event_id = $1',
      [`erasure-${connectedId}-2`],
    );
    expect(waiting.rows).toEqual([{ status: 'done' }]);
    // Counts stay right: the rows are there, the number replaced by one token.
    expect(await count('SELECT count(*)::int AS n FROM cdrs')).toBe(cdrsBefore);
    expect(
      await count(`SELECT count(*)::int AS n FROM cdrs WHERE src = '${erasureToken()}'`),
    ).toBeGreaterThanOrEqual(2);
    expect(await count('SELECT count(*)::int AS n FROM erasure_requests')).toBe(0);
    const [record] = (await pool.query('SELECT * FROM erasures ORDER BY requested_at LIMIT 1')).rows as {
      status: string;
      counts: object;
    }[];
    expect(record).toMatchObject({ status: 'done', counts: result.counts });
    expect(tracesIn(JSON.stringify(record))).toEqual([]);

    // The archive: the person's recording is gone, everything else is still there.
    const left = filesUnder(h.config.archive.dir);
    expect(left.sort()).toEqual(archived.filter((f) => !theirFiles.includes(f)).sort());
    for (const f of left) expect(tracesIn(readFileSync(f).toString('latin1'))).toEqual([]);

    // Temporal: their calls' and callback's executions are deleted (asynchronously, by the server).
    for (const id of [
      callWorkflowId('acme', connectedId),
      callWorkflowId('acme', missedId),
      callbackId,
      screenPopWorkflowId('acme', connectedId),
      smsReceivedWorkflowId('acme', 'erasure-sms-1'),
    ]) {
      await eventually(
        () =>
          h.client.workflow
            .getHandle(id)
            .describe()
            .then(
              () => undefined,
              () => true,
            ),
        `${id} deleted`,
      );
    }
    expect(await historiesClean()).toEqual([]);
  });

  it('keeps them out: later syncs and webhooks about them are anonymised as they arrive', async () => {
    const pool = h.deps.warehouse.pool;
    const count = async (sql: string) => (await pool.query<{ n: number }>(sql)).rows[0]!.n;
    const smsBefore = await count(`SELECT count(*)::int AS n FROM sms WHERE "from" = '${erasureToken()}'`);
    sms('Alice Liddell again: 07911 123456');
    const laterId = call('missed');
    for (const stream of ['sms', 'cdrs', 'recordings', 'contacts']) await sync(stream);
    expect(await count(`SELECT count(*)::int AS n FROM sms WHERE "from" = '${erasureToken()}'`)).toBe(
      smsBefore + 1,
    );
    expect(await count(`SELECT count(*)::int AS n FROM cdrs WHERE live_id = ${laterId}`)).toBeGreaterThan(0);

    const res = await webhook(callHook(laterId, 1, 'call.missed'));
    expect(res.status).toBe(200);
    const row = await h.deps.warehouse.db
      .selectFrom('webhook_inbox')
      .select(['status', 'body'])
      .where('event_id', '=', `erasure-${laterId}-1`)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('done');
    expect(row.body).toMatchObject({ src: erasureToken(), src_name: null, call_id: laterId });
    expect((await webhook(`{"id": "broken-2", "src": "07911 123456", `)).status).toBe(400);

    // They ring again, send an SMS and leave a voice message: the webhooks' fast path starts no
    // screen-pop and no SMS workflow with their number, nothing is cached or stored in clear.
    const againId = call('missed');
    expect((await webhook(callHook(againId, 0, 'call.ringing'))).status).toBe(200);
    const text = `Alice Liddell again, mail me at ${EMAIL}`;
    sms(text);
    expect((await webhook(smsHook('erasure-sms-2', text, h.emulator.store.clock.nowString()))).status).toBe(
      200,
    );
    voicemail(againId);
    expect((await webhook(callHook(againId, 1, 'call.missed'))).status).toBe(200);
    // The fast path was handed both deliveries, marked as an erased person's.
    expect(fastPathSaw.get(`erasure-${againId}-0`)).toBe(true);
    expect(fastPathSaw.get('erasure-sms-2')).toBe(true);
    // Someone else rings and texts after them: once their workflows have started, the fast path has
    // dealt with the deliveries before them, and those started nothing.
    const sentinelId = 990_001;
    expect(
      (
        await webhook({
          ...callHook(sentinelId, 0, 'call.ringing'),
          id: 'erasure-sentinel-ringing',
          src: '+44 20 7946 0999',
          src_name: 'Somebody Else',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await webhook({
          ...smsHook('erasure-sentinel-sms', 'Somebody else, hello', h.emulator.store.clock.nowString()),
          from_no: '442079460999',
        })
      ).status,
    ).toBe(200);
    expect(fastPathSaw.get('erasure-sentinel-ringing')).toBe(false);
    await eventually(
      async () => ((await started(screenPopWorkflowId('acme', sentinelId))) ? true : undefined),
      "the sentinel call's screen-pop to start",
      30_000,
    );
    await eventually(
      async () => ((await started(smsReceivedWorkflowId('acme', 'erasure-sentinel-sms'))) ? true : undefined),
      "the sentinel SMS's workflow to start",
      30_000,
    );
    expect(await started(screenPopWorkflowId('acme', againId))).toBe(false);
    expect(await started(smsReceivedWorkflowId('acme', 'erasure-sms-2'))).toBe(false);
    for (const stream of ['sms', 'cdrs', 'voicemessages']) await sync(stream);
    await h.client.workflow.execute(conversationsWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'erasure-conversations-after',
      args: [{ account: 'acme' }],
    });
    expect(await count(`SELECT count(*)::int AS n FROM voicemessages WHERE live_id = ${againId}`)).toBe(1);
    const inbox = await h.deps.warehouse.db
      .selectFrom('webhook_inbox')
      .select(['event_id', 'status', 'body'])
      .where('event_id', 'in', ['erasure-sms-2', `erasure-${againId}-0`])
      .execute();
    expect(inbox).toHaveLength(2);
    for (const r of inbox) expect(tracesIn(JSON.stringify(r.body))).toEqual([]);

    expect(await tracesInWarehouse(pool)).toEqual([]);
    // Neither the webhook nor the CDR started a follow-up of their call (no CRM log, no callback).
    await expect(h.client.workflow.getHandle(callWorkflowId('acme', laterId)).describe()).rejects.toThrow();
    await expect(h.client.workflow.getHandle(callbackIdOf(h, E164)).describe()).rejects.toThrow();
    expect(await historiesClean()).toEqual([]);
  });

  it('erasing again finds nothing and still succeeds', async () => {
    const again = await runErasure(h.config, h.deps.warehouse, h.client, { email: EMAIL });
    expect(again.counts).toEqual({});
    const twice = await runErasure(h.config, h.deps.warehouse, h.client, { number: E164 });
    expect(twice.counts).toEqual({});
    const { rows } = await h.deps.warehouse.pool.query<{ status: string }>(
      'SELECT status FROM erasures ORDER BY id',
    );
    // The number's, its linked identifiers' (e-mail, two other numbers), the e-mail's, the number's.
    expect(rows.map((r) => r.status)).toEqual(Array(rows.length).fill('done'));
    expect(rows.length).toBe(6);
    // What `callsync erase --status` (and `status`) shows: when, status, counts; no identifier.
    const shown = formatErasures(await recentErasures(h.deps.warehouse.db));
    expect(shown).toMatch(/number [0-9a-f]{12}….*done.*warehouse\.cdrs\.anonymised=\d+/);
    expect(shown).toMatch(/email [0-9a-f]{12}….*done {2}nothing found/);
    expect(tracesIn(shown)).toEqual([]);

    // `callsync erase --verify`: nothing left of them, under any of their identifiers.
    for (const number of [E164, '+447911777999', '07911 777888']) {
      const left = await verify(number);
      expect(left).toEqual({ left: [], unread: [] });
      expect(formatVerification(left)).toMatch(/^nothing left/);
    }
    expect(
      await verifyErasure(h.config, h.deps.warehouse, h.client, parseSubject({ email: EMAIL }, 'GB')),
    ).toEqual({ left: [], unread: [] });
    const cli = await verifyCli('07911 123456');
    expect({ status: cli.status, stdout: cli.stdout }).toMatchObject({ status: 0, stdout: /^nothing left/ });
  });
});
