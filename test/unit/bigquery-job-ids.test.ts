import { bigqueryConfigSchema, bigqueryTarget } from '../../connectors/bigquery/config';
import { pageJobId, pageJobStem, stageTableName, type PagePosition } from '../../connectors/bigquery/job-ids';

const position: PagePosition = {
  account: 'acme',
  stream: 'cdrs',
  scope: 'window:2026-01-01/2026-01-08',
  since: '2026-01-01 00:00:00',
  until: '2026-01-08 00:00:00',
  page: 3,
};
const content = Buffer.from('"{""id"":1}"\n');

describe('BigQuery job ids of a page', () => {
  it('are the same for the same page read again (so a retry finds its jobs)', () => {
    expect(pageJobStem(position, content)).toBe(pageJobStem({ ...position }, Buffer.from(content)));
    expect(pageJobStem(position, content)).toMatch(/^callsync_cdrs_p3_[0-9a-f]{16}_[0-9a-f]{16}$/);
  });

  it('differ by window, page, scope, account and content', () => {
    const stem = pageJobStem(position, content);
    for (const other of [
      { ...position, page: 4 },
      { ...position, until: '2026-01-09 00:00:00' },
      { ...position, scope: '' },
      { ...position, account: 'other' },
    ]) {
      expect(pageJobStem(other, content)).not.toBe(stem);
    }
    expect(pageJobStem(position, Buffer.from('"{""id"":2}"\n'))).not.toBe(stem);
  });

  it('name the step and attempt, and the staging table, in BigQuery id characters', () => {
    const stem = pageJobStem(position, content);
    expect(pageJobId(stem, 'load', 0)).toBe(`${stem}_load_0`);
    expect(pageJobId(stem, 'merge', 2)).toBe(`${stem}_merge_2`);
    expect(stageTableName(stem)).toBe(`_stage_${stem}`);
    expect(pageJobId(stem, 'merge', 2)).toMatch(/^[A-Za-z0-9_-]{1,1024}$/);
  });
});

describe('BigQuery config', () => {
  const base = { projectId: 'p', dataset: 'warehouse' };

  it('sends every account to the default dataset, or only the listed ones with their overrides', () => {
    const all = bigqueryConfigSchema.parse(base);
    expect(all.location).toBe('US');
    expect(bigqueryTarget(all, 'acme')).toEqual({ projectId: 'p', dataset: 'warehouse' });
    const some = bigqueryConfigSchema.parse({
      ...base,
      accounts: { acme: { dataset: 'acme_dw' }, beta: {} },
    });
    expect(bigqueryTarget(some, 'acme')).toEqual({ projectId: 'p', dataset: 'acme_dw' });
    expect(bigqueryTarget(some, 'beta')).toEqual({ projectId: 'p', dataset: 'warehouse' });
    expect(bigqueryTarget(some, 'gamma')).toBeUndefined();
  });

  it('names the field and the problem of a bad dataset id', () => {
    const r = bigqueryConfigSchema.safeParse({ ...base, dataset: 'my-dataset' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['dataset']);
    expect(r.error?.issues[0]?.message).toMatch(/letters, digits and _/);
  });
});
