// The emulator and callsync agree on report schedule codes: every format and culture code the
// emulator's seeded schedules use is in its /reportschedules/dictionaries and in callsync's
// default maps (with the same meaning), and every seeded report id is in the default catalogue.
import { ACME_SCHEDULES, GLOBEX_SCHEDULES } from '../../emulator/data/report-schedules';
import { DICTIONARIES } from '../../emulator/server/routes/dictionaries';
import {
  cultureFromCode,
  DEFAULT_CULTURE_CODES,
  DEFAULT_FORMAT_CODES,
  defaultCatalogue,
  formatFromCode,
  reportsBuildConfigSchema,
  resolveReport,
} from '../../reports';

describe('report schedule codes: emulator and callsync', () => {
  const config = reportsBuildConfigSchema.parse({});
  const dictionary = DICTIONARIES.reportschedules as {
    format: Record<string, string>;
    culture: Record<string, string>;
  };

  it('the dictionary lists exactly the codes callsync maps by default, with the same meaning', () => {
    expect(
      Object.fromEntries(Object.entries(dictionary.format).map(([k, v]) => [k, v.toLowerCase()])),
    ).toEqual(DEFAULT_FORMAT_CODES);
    expect(dictionary.culture).toEqual(DEFAULT_CULTURE_CODES);
  });

  it('every seeded schedule uses listed codes and a catalogued report id', () => {
    const seeded = [...ACME_SCHEDULES, ...GLOBEX_SCHEDULES];
    expect(seeded.length).toBeGreaterThan(0);
    for (const s of seeded) {
      expect([s.name, Object.hasOwn(dictionary.format, String(s.format))]).toEqual([s.name, true]);
      expect([s.name, Object.hasOwn(dictionary.culture, String(s.culture))]).toEqual([s.name, true]);
      expect(() => formatFromCode(s.format, config)).not.toThrow();
      expect(() => cultureFromCode(s.culture, config)).not.toThrow();
      expect(() => resolveReport(defaultCatalogue(), s.reportId)).not.toThrow();
    }
  });

  it('names as the spec POST body takes them are accepted too', () => {
    expect(formatFromCode('CSV', config)).toBe('csv');
    expect(cultureFromCode('en_GB', config)).toBe('en-GB');
    expect(() => cultureFromCode('ja_JP', config)).toThrow(/has no dictionary/);
  });
});
