// The report catalogue and the schedule code maps, as config parses them.
import {
  cultureFromCode,
  DEFAULT_CULTURE_CODES,
  defaultCatalogue,
  formatFromCode,
  reportCatalogueSchema,
  reportsBuildConfigSchema,
  resolveReport,
  UnknownCodeError,
  UnknownReportError,
} from '../../reports';
import { cultureFor } from '../../reports/culture';

describe('report catalogue', () => {
  it('defaults match the ids the emulator seeds', () => {
    const c = defaultCatalogue();
    expect(Object.fromEntries(Object.entries(c).map(([id, e]) => [id, e.kind]))).toEqual({
      '1': 'call_summary',
      '2': 'missed_calls',
      '3': 'activity_by_country',
      '4': 'queue_performance',
      '5': 'recordings_cx',
      '6': 'activity_by_ddi',
      '7': 'billing',
    });
    expect(resolveReport(c, 4)).toEqual({
      kind: 'queue_performance',
      serviceLevelSeconds: 20,
      pdfMaxRows: 2000,
    });
  });

  it('config entries add to or replace the defaults, as a kind or with options', () => {
    const c = reportCatalogueSchema.parse({ '7': 'call_summary', '12': { kind: 'billing', pdfMaxRows: 50 } });
    expect(resolveReport(c, 7).kind).toBe('call_summary');
    expect(resolveReport(c, 12)).toMatchObject({ kind: 'billing', pdfMaxRows: 50 });
    expect(resolveReport(c, 1).kind).toBe('call_summary');
  });

  it('bad catalogue entries name the field and the problem', () => {
    const bad = reportCatalogueSchema.safeParse({ x: 'billing', '8': 'weather' });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
    expect(messages).toMatch(/^x: /m);
    expect(messages).toMatch(/^8\.kind: Invalid option: expected one of "call_summary"/m);
  });

  it('an unknown report id throws a typed error naming it and the known ids', () => {
    expect(() => resolveReport(defaultCatalogue(), 99)).toThrow(UnknownReportError);
    try {
      resolveReport(defaultCatalogue(), 99);
    } catch (err) {
      expect(err).toMatchObject({ reportId: 99, knownIds: [1, 2, 3, 4, 5, 6, 7] });
    }
  });
});

describe('schedule codes', () => {
  const config = reportsBuildConfigSchema.parse({});

  it('format codes: the platform dictionary {0: PDF, 1: CSV, 2: XLSX} by default', () => {
    expect([0, 1, 2, '1'].map((c) => formatFromCode(c, config))).toEqual(['pdf', 'csv', 'xlsx', 'csv']);
    expect(() => formatFromCode(3, config)).toThrow(UnknownCodeError);
    expect(() => formatFromCode(3, config)).toThrow(
      'format code "3" is not in reports.formats; known codes: 0, 1, 2',
    );
    const custom = reportsBuildConfigSchema.parse({ formats: { '3': 'xlsx' } });
    expect(formatFromCode(3, custom)).toBe('xlsx');
  });

  it('culture codes map to tags callsync can build', () => {
    expect(cultureFromCode(3, config)).toBe('de-DE');
    expect(() => cultureFromCode(null, config)).toThrow('culture code "" is not in reports.cultures');
    for (const tag of Object.values(DEFAULT_CULTURE_CODES)) expect(cultureFor(tag).tag).toBe(tag);
    expect(reportsBuildConfigSchema.safeParse({ cultures: { '9': 'de_DE' } }).success).toBe(false);
  });
});
