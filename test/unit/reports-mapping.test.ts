// The report layer's pure functions: record → row mappers of each kind, the country fold, chart
// scales, Excel cell values and names, local buckets and wall-clock times, and COPY's inlined SQL.
import { inlineParameters } from '../../reports/build-report';
import { cultureFor } from '../../reports/culture';
import { labelStride, niceCeiling } from '../../reports/formats/pdf-chart';
import { excelNumberFormat, excelValue, sheetName } from '../../reports/formats/xlsx';
import {
  addByCountry,
  countryOfNumber,
  countryRows,
  ddiRow,
  foldByCountry,
} from '../../reports/kinds/activity';
import { billingRow } from '../../reports/kinds/billing';
import { callSummaryRow } from '../../reports/kinds/call-summary';
import { earliest, missedCallRow } from '../../reports/kinds/missed-calls';
import { queuePerformanceRow } from '../../reports/kinds/queue-performance';
import { recordingsCxRow } from '../../reports/kinds/recordings-cx';
import { localBuckets, wallClock, wallClockConverter } from '../../reports/zone';

const en = cultureFor('en-GB');
const at = (s: string) => new Date(s);

describe('report row mappers', () => {
  it('call summary: answered rate of calls in, AHT of connected calls, unknown users', () => {
    const r = {
      user_id: 7,
      user_name: null,
      ext: null,
      calls_in: 4,
      calls_out: 1,
      answered_in: 3,
      missed: 1,
      answered: 4,
      talk_time: 601,
    };
    // 3/4 answered; AHT 601/4 = 150.25 → 150 s.
    expect(callSummaryRow(r, en)).toEqual(['#7', null, 4, 1, 3, 0.75, 1, 601, 150]);
    expect(callSummaryRow({ ...r, user_id: null, calls_in: 0, answered: 0 }, en)).toEqual([
      'No user',
      null,
      0,
      1,
      3,
      null,
      1,
      601,
      null,
    ]);
  });

  it('missed calls: the earlier of a call out and an auto-dial, its caller only for a call out', () => {
    const base = {
      id: 1,
      calldate: at('2026-10-25T10:00:00Z'),
      caller: '+44',
      caller_name: '',
      called: 'Support',
      agent: 'Ben',
      wait_time: 45,
      callback_at: null,
      callback_by: null,
      dialled_at: null,
      task_closed_at: null,
    };
    expect(missedCallRow(base).slice(5)).toEqual([45, false, null, null, null]);
    const both = {
      ...base,
      callback_at: at('2026-10-25T12:00:00Z'),
      callback_by: 'Ben',
      dialled_at: at('2026-10-25T11:00:00Z'),
    };
    expect(missedCallRow(both).slice(6, 9)).toEqual([true, at('2026-10-25T11:00:00Z'), null]);
    expect(missedCallRow({ ...both, dialled_at: at('2026-10-25T13:00:00Z') }).slice(6, 9)).toEqual([
      true,
      at('2026-10-25T12:00:00Z'),
      'Ben',
    ]);
    expect(missedCallRow(base)[2]).toBeNull(); // an empty caller name is no name
    expect(earliest(null, null)).toBeNull();
  });

  it('queue performance: shares of calls offered; none offered gives no share', () => {
    const r = {
      queue_id: '301',
      queue: 'Support',
      offered: 4,
      answered: 3,
      abandoned: 1,
      within_service_level: 2,
      avg_wait: 22.5,
      max_wait: 60,
    };
    expect(queuePerformanceRow(r)).toEqual(['Support', 4, 3, 1, 0.75, 0.5, 23, 60]);
    expect(queuePerformanceRow({ ...r, offered: 0 }).slice(4, 6)).toEqual([null, null]);
  });

  it('recordings per agent: CX to one decimal, positive share of rated recordings', () => {
    const r = {
      user_id: 3,
      agent: 'Anna',
      recordings: 4,
      transcribed: 3,
      avg_cx: 66.666,
      min_cx: 40,
      positive: 1,
      neutral: 1,
      negative: 1,
    };
    expect(recordingsCxRow(r, en)).toEqual(['Anna', 4, 3, 66.7, 40, 1, 1, 1, 1 / 3]);
    expect(
      recordingsCxRow({ ...r, avg_cx: null, positive: 0, neutral: 0, negative: 0 }, en).slice(3, 9),
    ).toEqual([null, 40, 0, 0, 0, null]);
  });

  it('billing: one row per charged call, fields in column order', () => {
    const r = {
      id: 9,
      calldate: at('2026-10-25T23:50:00Z'),
      user: 'Ben',
      src: '102',
      dst: '+44',
      destination: 'out',
      billsec: 1200,
      rate: 0.06,
      charge: 1.2,
    };
    expect(billingRow(r)).toEqual([
      9,
      at('2026-10-25T23:50:00Z'),
      'Ben',
      '102',
      '+44',
      'out',
      1200,
      0.06,
      1.2,
    ]);
  });

  it('activity: countries from numbers, summed without drift, unknown last', () => {
    expect(['+61293744000', '0061293744000', '61293744000', '101', null].map(countryOfNumber)).toEqual([
      'AU',
      'AU',
      'AU',
      null,
      null,
    ]);
    const rec = (key: string | null, cost: number) => ({
      key,
      calls_in: 1,
      calls_out: 0,
      answered: 1,
      talk_time: 10,
      cost,
    });
    const folded = foldByCountry([rec('+442079460000', 0.1), rec('+442079460001', 0.2), rec('101', 0)]);
    expect(folded.get('GB')).toEqual({ calls_in: 2, calls_out: 0, answered: 2, talk_time: 20, cost: 0.3 }); // not 0.30000000000000004
    addByCountry(folded, rec('+33123456789', 0.05));
    expect(countryRows(folded, cultureFor('fr-FR')).map((r) => r[0])).toEqual([
      'France',
      'Royaume-Uni',
      'Inconnu',
    ]);
    expect(ddiRow(rec(null, 0), cultureFor('es-ES'))[0]).toBe('Desconocido');
  });
});

describe('PDF chart scale', () => {
  it('rounds the top of the scale to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 7, 10, 11, 180, 240, 999].map(niceCeiling)).toEqual([
      1, 1, 5, 10, 10, 20, 200, 500, 1000,
    ]);
  });
  it('shows every n-th label so labels do not overlap', () => {
    expect(labelStride(24, 700, 34)).toBe(2);
    expect(labelStride(7, 700, 34)).toBe(1);
    expect(labelStride(0, 700, 34)).toBe(1);
  });
});

describe('XLSX cells', () => {
  const toLocal = wallClockConverter('Europe/London');
  it('instants become local wall-clock, durations fractions of a day, local dates midnight', () => {
    expect(excelValue(at('2026-07-01T11:00:00Z'), 'datetime', toLocal)).toEqual(at('2026-07-01T12:00:00Z'));
    expect(excelValue(3600, 'duration', toLocal)).toBe(1 / 24);
    expect(excelValue('2026-10-25', 'date', toLocal)).toEqual(at('2026-10-25T00:00:00Z'));
    expect(excelValue(null, 'integer', toLocal)).toBeNull();
    expect(excelValue(0.5, 'percent', toLocal)).toBe(0.5);
  });
  it('number formats per type and culture; sheet names Excel accepts', () => {
    expect(excelNumberFormat('datetime', cultureFor('de-DE'))).toBe('dd.mm.yyyy hh:mm');
    expect(excelNumberFormat('duration', en)).toBe('[h]:mm:ss');
    expect(excelNumberFormat('text', en)).toBeUndefined();
    expect(sheetName('Facturation : appels payants / [mois]?')).toBe('Facturation appels payants mois');
    expect(sheetName('***')).toBe('Report');
  });
});

describe('local time', () => {
  it('wall-clock fields of an instant in a zone', () => {
    expect(wallClock(at('2026-10-25T00:30:00Z'), 'Europe/London')).toEqual(at('2026-10-25T01:30:00Z'));
    expect(wallClock(at('2026-10-25T01:30:00Z'), 'Europe/London')).toEqual(at('2026-10-25T01:30:00Z'));
    expect(wallClock(at('2026-10-25T01:30:00Z'), 'Australia/Sydney')).toEqual(at('2026-10-25T12:30:00Z'));
    expect(wallClockConverter('America/New_York')(at('2026-11-01T05:59:59Z'))).toEqual(
      at('2026-11-01T01:59:59Z'),
    );
    expect(wallClockConverter('America/New_York')(at('2026-11-01T06:00:00Z'))).toEqual(
      at('2026-11-01T01:00:00Z'),
    );
  });
  it('local buckets of a period, the repeated hour once', () => {
    const oct25 = localBuckets(
      at('2026-10-24T23:00:00Z'),
      at('2026-10-26T00:00:00Z'),
      'Europe/London',
      'hour',
    );
    expect(oct25).toHaveLength(24);
    expect(oct25.slice(0, 3)).toEqual(['2026-10-25 00:00', '2026-10-25 01:00', '2026-10-25 02:00']);
    expect(localBuckets(at('2026-10-01T00:00:00Z'), at('2026-11-01T00:00:00Z'), 'UTC', 'day')).toHaveLength(
      31,
    );
  });
});

describe('inlined parameters for COPY', () => {
  it('writes dates, numbers and strings as literals, quotes escaped', () => {
    expect(
      inlineParameters('select $1, $2, $10', [at('2026-10-01T00:00:00Z'), 5, 'a', 0, 0, 0, 0, 0, 0, "o'k"]),
    ).toBe("select '2026-10-01T00:00:00.000Z'::timestamptz, 5, 'o''k'");
    expect(() => inlineParameters('select $1', [{}])).toThrow(
      'parameter $1 of type object cannot be inlined',
    );
  });
});
