import {
  addColumnsSql,
  bigqueryColumns,
  createTableSql,
  mergeSql,
  partitionColumn,
  quoteName,
  quoteTable,
  rowDocument,
  stageCsv,
  toRfc3339,
} from '../../connectors/bigquery/table-schema';
import { streamDateField } from '../../connectors/bigquery/stream-dates';
import { STREAM_NAMES, streamTable } from '../../connectors/postgres/stream-tables';
import { STREAMS } from '../../sync/streams';
import { fixture } from './warehouse-fixtures';

const ref = { projectId: 'proj', dataset: 'ds', table: 'cdrs' };

describe('BigQuery table shapes', () => {
  it('has the PostgreSQL columns in BigQuery types, with account first and synced_at last', () => {
    const cols = bigqueryColumns('cdrs');
    expect(cols[0]).toEqual({ name: 'account', type: 'STRING', kind: 'text' });
    expect(cols.at(-1)).toEqual({ name: 'synced_at', type: 'TIMESTAMP', kind: 'timestamptz' });
    expect(cols.slice(1, -1).map((c) => c.name)).toEqual(streamTable('cdrs').columns.map((c) => c.name));
    const types = Object.fromEntries(cols.map((c) => [c.name, c.type]));
    expect(types).toMatchObject({ id: 'INT64', calldate: 'TIMESTAMP', raw: 'JSON' });
  });

  it('keeps the date field of each stream in step with sync/streams.ts', () => {
    for (const s of STREAM_NAMES) expect(streamDateField(s)).toBe(STREAMS[s].cursorField);
  });

  it('partitions by the stream date when it is a timestamp, else created_at, else not at all', () => {
    expect(partitionColumn('cdrs')).toBe('calldate');
    expect(partitionColumn('recordings')).toBe('created_at');
    expect(partitionColumn('queues')).toBeUndefined();
    expect(createTableSql(ref, 'cdrs')).toBe(
      'CREATE TABLE IF NOT EXISTS `proj.ds.cdrs` (' +
        bigqueryColumns('cdrs')
          .map((c) => `\`${c.name}\` ${c.type}${['account', 'id'].includes(c.name) ? ' NOT NULL' : ''}`)
          .join(', ') +
        ') PARTITION BY TIMESTAMP_TRUNC(`calldate`, DAY) CLUSTER BY account, id',
    );
    expect(createTableSql({ ...ref, table: 'queues' }, 'queues')).not.toContain('PARTITION BY');
  });

  it('adds only the missing columns, case-insensitively', () => {
    const all = bigqueryColumns('sms').map((c) => c.name);
    expect(addColumnsSql({ ...ref, table: 'sms' }, 'sms', all)).toBeUndefined();
    const lacking = all.filter((n) => n !== 'to' && n !== 'synced_at').map((n) => n.toUpperCase());
    expect(addColumnsSql({ ...ref, table: 'sms' }, 'sms', lacking)).toBe(
      'ALTER TABLE `proj.ds.sms` ADD COLUMN IF NOT EXISTS `to` STRING, ADD COLUMN IF NOT EXISTS `synced_at` TIMESTAMP',
    );
  });

  it('refuses names that would break out of their quotes', () => {
    expect(() => quoteTable({ ...ref, table: 'x`; DROP' })).toThrow(/quote/);
    expect(() => quoteName('a b')).toThrow(/not plain/);
  });
});

describe('staged rows', () => {
  it('writes timestamps as RFC 3339 and keeps their zone', () => {
    expect(toRfc3339('2026-10-30 09:15:02+00')).toBe('2026-10-30T09:15:02Z');
    expect(toRfc3339('2026-10-30 09:15:02.123+02:00')).toBe('2026-10-30T09:15:02.123+02:00');
    expect(toRfc3339('2026-10-30 09:15:02-0530')).toBe('2026-10-30T09:15:02-05:30');
    expect(() => toRfc3339('yesterday')).toThrow(/not a normalised timestamp/);
  });

  it('is a JSON object of the non-null cells, money with 4 decimals', () => {
    const { record, raw } = fixture('faxes', { charge: '0.1', filename: null });
    const spec = streamTable('faxes');
    const doc = JSON.parse(rowDocument('faxes', 'acme', spec.mapRow(record, raw))) as Record<string, unknown>;
    expect(doc.account).toBe('acme');
    expect(doc.id).toBe(record.id);
    expect(doc.charge).toBe('0.1000');
    expect('filename' in doc).toBe(false);
    expect(doc.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(doc.raw).toEqual(raw);
  });

  it('stages one quoted CSV field per line, with no raw newline inside', () => {
    const docs = [JSON.stringify({ a: 'x\ny "q"' }), JSON.stringify({ b: 1 })];
    const csv = stageCsv(docs).toString('utf8');
    expect(csv.split('\n')).toEqual(['"{""a"":""x\\ny \\""q\\""""}"', '"{""b"":1}"', '']);
  });
});

describe('the MERGE of a staged page', () => {
  const sql = mergeSql(ref, { ...ref, table: '_stage_x' }, 'sms');

  it('matches on account and id and updates only a changed raw record', () => {
    expect(sql).toMatch(/^MERGE `proj\.ds\.cdrs` AS t USING \(SELECT .* FROM `proj\.ds\._stage_x`\) AS s /);
    expect(sql).toContain('ON t.account = s.account AND t.id = s.id');
    expect(sql).toContain(
      'WHEN MATCHED AND TO_JSON_STRING(t.raw) != TO_JSON_STRING(PARSE_JSON(s.raw)) THEN UPDATE SET',
    );
    expect(sql).toContain('WHEN NOT MATCHED THEN INSERT (`account`, `id`,');
  });

  it('reads each column from the document in its type, reserved names quoted', () => {
    expect(sql).toContain("CAST(JSON_VALUE(doc, '$.id') AS INT64) AS `id`");
    expect(sql).toContain("CAST(JSON_VALUE(doc, '$.created_at') AS TIMESTAMP) AS `created_at`");
    expect(sql).toContain("JSON_VALUE(doc, '$.from') AS `from`");
    expect(sql).toContain("JSON_QUERY(doc, '$.raw') AS `raw`");
    expect(sql).toContain('`raw` = PARSE_JSON(s.`raw`)');
    expect(sql).not.toMatch(/SET [^W]*`id` =/);
  });
});
