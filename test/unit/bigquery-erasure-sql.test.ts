// The BigQuery statements of an erasure, as text: values are literals (quotes and backslashes
// escaped), the search is case-insensitive over every text and JSON column or the person's calls,
// and deleting is a MERGE that only deletes.
import { deleteRowsSql, erasureColumns, personRowsSql, stringLiteral } from '../../connectors/bigquery';

const ref = { projectId: 'p', dataset: 'warehouse', table: 'cdrs' };

describe('BigQuery erasure SQL', () => {
  it('writes string literals with quotes, backslashes and line breaks escaped', () => {
    expect(stringLiteral(`O'Brien`)).toBe(`'O\\'Brien'`);
    expect(stringLiteral('7[\\s().-]{0,3}9')).toBe(`'7[\\\\s().-]{0,3}9'`);
    expect(stringLiteral('a\nb\tc\r')).toBe(`'a\\nb\\tc\\r'`);
  });

  it('searches every text and JSON column but account, and the calls, of one account', () => {
    const columns = erasureColumns('cdrs').map((c) => c.name);
    expect(columns).toContain('src');
    expect(columns).toContain('raw');
    expect(columns).not.toContain('account');
    const sql = personRowsSql(ref, 'cdrs', `acme's`, '7[\\s().-]{0,3}9', [12, 13]);
    expect(sql).toContain("REGEXP_CONTAINS(`src`, '(?i)7[\\\\s().-]{0,3}9')");
    expect(sql).toContain("REGEXP_CONTAINS(TO_JSON_STRING(`raw`), '(?i)7[\\\\s().-]{0,3}9')");
    expect(sql).toContain('`live_id` IN (12, 13)');
    expect(sql).toContain("WHERE account = 'acme\\'s' AND (");
    expect(sql).toContain('`live_id` AS `_call_id`');
    // A stream without a call column, or no calls: the search alone.
    expect(personRowsSql({ ...ref, table: 'contacts' }, 'contacts', 'acme', 'x', [1])).toContain(
      'CAST(NULL AS INT64) AS `_call_id`',
    );
    expect(personRowsSql(ref, 'cdrs', 'acme', 'x', [])).not.toContain(' IN (');
  });

  it('deletes by a MERGE on account and id, refusing anything but integer ids', () => {
    expect(deleteRowsSql(ref, 'acme', [3, 7])).toBe(
      "MERGE `p.warehouse.cdrs` AS t USING (SELECT id FROM UNNEST([3, 7]) AS id) AS s ON t.account = 'acme' AND t.id = s.id WHEN MATCHED THEN DELETE",
    );
    expect(() => deleteRowsSql(ref, 'acme', [Number.NaN])).toThrow(/not a row id/);
  });
});
