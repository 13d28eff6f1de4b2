// The warehouse sync into BigQuery end to end, on the real crucible emulator: emulator → client →
// Temporal workflows → PostgreSQL and BigQuery, both exact (backfill, incremental, late transcripts,
// quarantine).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { runErasure } from '../../cli/commands/erase';
import { backfillWorkflow, syncStreamWorkflow } from '../../contracts';
import {
  startBigQueryTarget,
  BQ_DATASET,
  BQ_PROJECT,
  type BigQueryTestTarget,
} from '../support/bigquery-harness';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(240_000);

describe('warehouse sync into BigQuery', () => {
  let h: SyncHarness;
  let target: BigQueryTestTarget;

  beforeAll(async () => {
    target = await startBigQueryTarget();
    h = await startSyncHarness({
      label: 'bigquery',
      cdrs: 1_500,
      // Audio archiving is another test's subject; a short window keeps it to a few files here.
      config: {
        warehouse: target.config,
        archive: { dir: mkdtempSync(join(tmpdir(), 'bq-audio-')), maxAge: '1h' },
      },
    });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    await target?.crucible.stop();
  });

  const emulatorIds = (table: 'cdrs' | 'monitors'): number[] => {
    const t = h.emulator.store.tables[table];
    const total = t.count(h.emulator.admin.customer_id);
    return t
      .query(h.emulator.admin.customer_id, { page: 1, limit: total + 1, filter: [] })
      .data.map((r) => Number(r.id));
  };
  const table = (name: string) => `\`${BQ_PROJECT}.${BQ_DATASET}.${name}\``;

  it('backfills CDRs into BigQuery exactly: nothing missing, nothing twice', async () => {
    const result = await h.client.workflow.execute(backfillWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'backfill-bq-cdrs',
      args: [{ account: 'acme', stream: 'cdrs', from: '2025-11-01', to: '2026-11-02' }],
    });
    const expected = emulatorIds('cdrs');
    expect(result.records).toBe(1_500);
    expect(await target.ids('cdrs')).toEqual({ ids: expected, rows: expected.length });
    const id = expected[123]!;
    const [row] = await target.rows(
      `SELECT src, billsec, calldate, TO_JSON_STRING(raw) AS raw FROM ${table('cdrs')} WHERE id = ${id}`,
    );
    const source = h.emulator.store.tables.cdrs.get(id)!.row;
    expect(row!.src).toBe(String(source.src));
    expect(Number(row!.billsec)).toBe(Number(source.billsec));
    expect(JSON.parse(row!.raw as string)).toEqual(source);
    const pg = await h.deps.warehouse.db
      .selectFrom('cdrs')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(pg.n).toBe(1_500); // PostgreSQL got the same pages
  });

  it('incremental sync adds new CDRs once, and a second run changes nothing', async () => {
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-bq-cdrs-1',
      args: [{ account: 'acme', stream: 'cdrs' }],
    });
    const added = h.emulator.store.addCdrs(h.emulator.admin.customer_id, 37).map((r) => Number(r.id));
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-bq-cdrs-2',
      args: [{ account: 'acme', stream: 'cdrs' }],
    });
    const stored = await target.ids('cdrs');
    expect(stored).toEqual({ ids: emulatorIds('cdrs'), rows: emulatorIds('cdrs').length });
    expect(stored.ids).toEqual(expect.arrayContaining(added));
  });

  it('a transcript that arrives later reaches the BigQuery recording row', async () => {
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-bq-recordings-1',
      args: [{ account: 'acme', stream: 'recordings' }],
    });
    const latest = emulatorIds('monitors').at(-1)!;
    const read = async () =>
      (
        await target.rows(
          `SELECT transcript, summary, UNIX_MICROS(synced_at) AS synced FROM ${table('recordings')} WHERE id = ${latest}`,
        )
      )[0]!;
    const before = await read();
    h.emulator.store.tables.monitors.update(latest, {
      transcript: 'Agent: Hello, late transcript here.',
      summary: 'Late summary',
    });
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-bq-recordings-2',
      args: [{ account: 'acme', stream: 'recordings' }],
    });
    const after = await read();
    expect(after.transcript).toBe('Agent: Hello, late transcript here.');
    expect(after.summary).toBe('Late summary');
    expect(Number(after.synced)).toBeGreaterThan(Number(before.synced));
    const ids = emulatorIds('monitors');
    expect(await target.ids('recordings')).toEqual({ ids, rows: ids.length });
  });

  it('a malformed record is quarantined and the rest of its page reaches BigQuery', async () => {
    const [good] = h.emulator.store.addCdrs(h.emulator.admin.customer_id, 1);
    const bad = h.emulator.store.tables.cdrs.insert(h.emulator.admin.customer_id, {
      ...good,
      id: undefined,
      calldate: good!.calldate,
      duration: 'about a minute',
    } as never);
    const [after] = h.emulator.store.addCdrs(h.emulator.admin.customer_id, 1);
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-bq-cdrs-3',
      args: [{ account: 'acme', stream: 'cdrs' }],
    });
    const q = await h.deps.warehouse.db
      .selectFrom('quarantined_records')
      .selectAll()
      .where('record_id', '=', String(bad.id))
      .executeTakeFirstOrThrow();
    expect(q.reason).toMatch(/duration/);
    const { ids } = await target.ids('cdrs');
    expect(ids).toEqual(expect.arrayContaining([Number(good!.id), Number(after!.id)]));
    expect(ids).not.toContain(Number(bad.id));
  });

  it("erasure: the person's rows in BigQuery are anonymised in place (number to the token, name gone)", async () => {
    const customer = h.emulator.admin.customer_id;
    const [cdr] = h.emulator.store.addCdrs(customer, 1);
    h.emulator.store.tables.cdrs.update(cdr!.id, {
      src: '07911123456',
      src_name: 'Alice Liddell',
      clid: '"Alice Liddell" <07911123456>',
    });
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-bq-erasure',
      args: [{ account: 'acme', stream: 'cdrs' }],
    });
    const theirs = async () =>
      JSON.stringify(await target.rows(`SELECT * FROM ${table('cdrs')} WHERE id = ${Number(cdr!.id)}`));
    expect(await theirs()).toMatch(/7911123456/);
    expect(await theirs()).toMatch(/Liddell/);

    const result = await runErasure(h.config, h.deps.warehouse, h.client, { number: '+447911123456' });
    expect(result.counts['bigquery.warehouse.cdrs.anonymised']).toBeGreaterThanOrEqual(1);
    const after = await theirs();
    expect(after).toMatch(/erased:/);
    expect(after).not.toMatch(/7\D{0,3}9\D{0,3}1\D{0,3}1\D{0,3}1\D{0,3}2\D{0,3}3\D{0,3}4\D{0,3}5\D{0,3}6/);
    expect(after).not.toMatch(/Liddell/);
    // The row is still there (counts stay right), once.
    expect((await target.rows(`SELECT id FROM ${table('cdrs')} WHERE id = ${Number(cdr!.id)}`)).length).toBe(
      1,
    );
  });
});
