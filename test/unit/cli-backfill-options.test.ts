import { parseBackfillOptions } from '../../cli/commands/backfill';

describe('backfill command options', () => {
  it('accepts a date or a time, and an open or later end', () => {
    expect(parseBackfillOptions({ stream: 'cdrs', from: '2028-02-29' })).toEqual({
      stream: 'cdrs',
      from: '2028-02-29',
    });
    expect(parseBackfillOptions({ stream: 'cdrs', from: '2026-03-31', to: '2026-04-01 00:00:00' }).to).toBe(
      '2026-04-01 00:00:00',
    );
  });

  it('rejects, before any workflow starts, dates that do not exist and a range that ends before it starts', () => {
    expect(() => parseBackfillOptions({ stream: 'cdrs', from: '2026-02-29' })).toThrow(
      '--from: is not a real date',
    );
    expect(() => parseBackfillOptions({ stream: 'cdrs', from: '2026-01-01', to: '2026-04-31' })).toThrow(
      '--to: is not a real date',
    );
    expect(() => parseBackfillOptions({ stream: 'cdrs', from: '2026-05-01', to: '2026-05-01' })).toThrow(
      '--to: must be after --from',
    );
    expect(() => parseBackfillOptions({ stream: 'cdrs', from: '01/05/2026' })).toThrow(
      '--from: must be YYYY-MM-DD',
    );
  });
});
