// The BigQuery destination against the real crucible emulator: every stream's table is created with
// its partitioning and clustering, a page is written exactly once however often it is retried, a
// changed record is updated in place, and a table missing a column gets it.
import { BigQuery } from '@google-cloud/bigquery';
import {
  bigqueryConfigSchema,
  BigQueryWarehouse,
  createBigQueryClient,
  type PagePosition,
} from '../../connectors/bigquery';
import { STREAM_NAMES } from '../../connectors/postgres/stream-tables';
import { startCrucible, testServiceAccountJson, type RunningCrucible } from '../support/crucible';
import { fixture } from '../unit/warehouse-fixtures';

jest.setTimeout(120_000);

describe('BigQuery warehouse on the crucible emulator', () => {
  let crucible: RunningCrucible;
  let bq: BigQuery;
  let warehouse: BigQueryWarehouse;
  const options = { location: 'EU', jobTimeoutMs: 30_000 };

  beforeAll(async () => {
    crucible = await startCrucible();
    const config = bigqueryConfigSchema.parse({
      projectId: 'callsync-test',
      dataset: 'warehouse',
      location: 'EU',
      apiEndpoint: crucible.endpoint,
      credentials: { serviceAccountJson: testServiceAccountJson(), selfSignedJwt: true },
    });
    bq = await createBigQueryClient(config);
    warehouse = new BigQueryWarehouse(
      bq,
      'acme',
      { projectId: 'callsync-test', dataset: 'warehouse' },
      options,
    );
  });

  afterAll(async () => {
    await crucible?.stop();
  });

  const rows = async (sql: string): Promise<Record<string, unknown>[]> => {
    const [result] = await bq.query({ query: sql, location: 'EU', useLegacySql: false });
    return result as Record<string, unknown>[];
  };
  const position = (stream: string, page: number): PagePosition => ({
    account: 'acme',
    stream,
    scope: '',
    since: '2026-10-01 00:00:00',
    until: null,
    page,
  });

  it('creates every stream table, partitioned by its date and clustered by account and id', async () => {
    for (const stream of STREAM_NAMES) {
      const written = await warehouse.writePage({
        position: position(stream, 1),
        records: [fixture(stream)],
      });
      expect(written.rows).toBe(1);
    }
    const [cdrs] = await bq.dataset('warehouse').table('cdrs').getMetadata();
    expect(cdrs.timePartitioning).toEqual({ type: 'DAY', field: 'calldate' });
    expect(cdrs.clustering).toEqual({ fields: ['account', 'id'] });
    const types = Object.fromEntries(
      (cdrs.schema.fields as { name: string; type: string }[]).map((f) => [f.name, f.type]),
    );
    expect(types).toMatchObject({ account: 'STRING', id: 'INTEGER', calldate: 'TIMESTAMP', raw: 'JSON' });
    const [recordings] = await bq.dataset('warehouse').table('recordings').getMetadata();
    expect(recordings.timePartitioning).toEqual({ type: 'DAY', field: 'created_at' });
    const [cdr] = await rows(
      'SELECT id, account, billsec, calldate, TO_JSON_STRING(raw) AS raw FROM `callsync-test.warehouse.cdrs`',
    );
    const source = fixture('cdrs');
    expect(Number(cdr!.id)).toBe(source.record.id);
    expect(Number(cdr!.billsec)).toBe(source.record.billsec);
    expect(JSON.parse(cdr!.raw as string)).toEqual(source.raw);
  });

  it('writes a retried page once: the second attempt finds its jobs (409) and loads nothing', async () => {
    const records = Array.from({ length: 50 }, (_, i) =>
      fixture('sms', { id: 9000 + i, message: `line one\nline "two" ${i}` }),
    );
    const first = await warehouse.writePage({ position: position('sms', 2), records });
    expect(first).toEqual({ rows: 50, affected: 50, reused: 0 });
    const again = await warehouse.writePage({ position: position('sms', 2), records });
    expect(again).toEqual({ rows: 50, affected: 0, reused: 2 });
    const [count] = await rows(
      'SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS d FROM `callsync-test.warehouse.sms` WHERE id >= 9000',
    );
    expect(count).toEqual({ n: 50, d: 50 });
    const [text] = await rows('SELECT message FROM `callsync-test.warehouse.sms` WHERE id = 9003');
    expect(text!.message).toBe('line one\nline "two" 3');
  });

  it('updates a changed record in place and leaves unchanged ones alone', async () => {
    const base = fixture('recordings', { id: 777, transcript: null });
    await warehouse.writePage({
      position: position('recordings', 3),
      records: [base, fixture('recordings', { id: 778 })],
    });
    const late = fixture('recordings', { id: 777, transcript: 'Agent: hello, late transcript' });
    const merged = await warehouse.writePage({
      position: position('recordings', 3),
      records: [late, fixture('recordings', { id: 778 })],
    });
    expect(merged.affected).toBe(1); // only the changed one
    const found = await rows(
      'SELECT id, transcript FROM `callsync-test.warehouse.recordings` WHERE id IN (777, 778) ORDER BY id',
    );
    expect(found.map((r) => [Number(r.id), r.transcript])).toEqual([
      [777, 'Agent: hello, late transcript'],
      [778, fixture('recordings').record.transcript ?? null],
    ]);
  });

  it('adds the columns an older table lacks', async () => {
    await rows('CREATE TABLE `callsync-test.warehouse.faxes_old` (account STRING, id INT64)');
    const older = new BigQueryWarehouse(
      bq,
      'acme',
      { projectId: 'callsync-test', dataset: 'warehouse' },
      options,
    );
    await rows('DROP TABLE `callsync-test.warehouse.faxes`');
    await rows(
      'CREATE TABLE `callsync-test.warehouse.faxes` (account STRING NOT NULL, id INT64 NOT NULL, raw JSON)',
    );
    await older.writePage({ position: position('faxes', 4), records: [fixture('faxes')] });
    const [meta] = await bq.dataset('warehouse').table('faxes').getMetadata();
    const names = (meta.schema.fields as { name: string }[]).map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['created_at', 'synced_at', 'raw']));
    const [fax] = await rows('SELECT id, created_at FROM `callsync-test.warehouse.faxes`');
    expect(Number(fax!.id)).toBe(fixture('faxes').record.id);
  });
});
