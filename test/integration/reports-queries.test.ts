// Every report kind's figures on a real PostgreSQL, from the fixtures in reports-fixtures.ts. The
// expected figures are worked out by hand in the comments; the period is the 25-hour London day of
// the October 2026 clock change unless a test says otherwise.
import { callsOverTime } from '../../connectors/postgres/repositories/reports';
import {
  defaultCatalogue,
  describeReport,
  reportCatalogueSchema,
  reportRows,
  UnknownReportError,
  type ReportRow,
  type RowsRequest,
} from '../../reports';
import { localBuckets } from '../../reports/zone';
import { ACCOUNT, LONDON_MAR_29, LONDON_OCT_25, loadReportFixtures } from './reports-fixtures';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

describe('report queries', () => {
  let w: MigratedWarehouse;
  const catalogue = defaultCatalogue();

  beforeAll(async () => {
    w = await createMigratedWarehouse('reports_queries');
    await loadReportFixtures(w);
  });
  afterAll(() => w.dispose());

  const request = (reportId: number, period = LONDON_OCT_25, culture = 'en-GB'): RowsRequest => ({
    account: ACCOUNT,
    reportId,
    period,
    culture,
  });
  async function rows(reportId: number, period = LONDON_OCT_25, culture = 'en-GB'): Promise<ReportRow[]> {
    const out: ReportRow[] = [];
    for await (const row of reportRows(w.db, request(reportId, period, culture), catalogue)) out.push(row);
    return out;
  }

  it('call summary per user: in/out, answered rate, talk time, average handle time', async () => {
    expect(describeReport(request(1), catalogue).columns.map((c) => c.header)).toEqual([
      'User',
      'Extension',
      'Inbound calls',
      'Outbound calls',
      'Inbound answered',
      'Answered rate',
      'Missed',
      'Talk time',
      'Average handle time',
    ]);
    // Anna: calls 1 (out, 60 s), 2 and 3 (in, 120 s and 180 s, both 01:30 local on the long day),
    // 8 (missed); 11 is the day before, 10 the day after, 12 a test call.
    //   in = 3, out = 1, answered in = 2, rate 2/3, missed 1, talk 60+120+180 = 360, AHT 360/3 = 120.
    // Ben: 4 (missed), 5 and 6 (in, 100 s each), 7 (out, 40 s), 9 (out, 1200 s, crosses midnight
    //   but started on the 25th): in = 3, out = 2, answered in 2, talk 1440, AHT 1440/4 = 360.
    expect(await rows(1)).toEqual([
      ['Anna Kowalska', '101', 3, 1, 2, 2 / 3, 1, 360, 120],
      ['Ben Okafor', '102', 3, 2, 2, 2 / 3, 1, 1440, 360],
    ]);
  });

  it('missed calls with whether and when the caller was called back', async () => {
    expect(await rows(2)).toEqual([
      // Call 4 (10:00): Ben called the number back at 10:20 (call 7); the task closed at 10:21.
      [
        new Date('2026-10-25T10:00:00Z'),
        '+442079460001',
        'Caller',
        'Support',
        'Ben Okafor',
        45,
        true,
        new Date('2026-10-25T10:20:00Z'),
        'Ben Okafor',
        new Date('2026-10-25T10:21:00Z'),
      ],
      // Call 8 (23:30): no call out followed, but the callback's auto-dial placed a call at 08:00
      // next morning; its task is still open.
      [
        new Date('2026-10-25T23:30:00Z'),
        '+4930123456',
        'Caller',
        '101',
        'Anna Kowalska',
        20,
        true,
        new Date('2026-10-26T08:00:00Z'),
        null,
        null,
      ],
    ]);
  });

  it('queue performance: offered, answered, abandoned, service level, waits', async () => {
    // Queue 301: calls 4 (abandoned, waited 45 s), 5 (answered after 115-100 = 15 s), 6 (answered
    // after 130-100 = 30 s). Offered 3, answered 2, abandoned 1; within 20 s: call 5 only → 1/3;
    // average wait (45+15+30)/3 = 30, longest 45.
    expect(await rows(4)).toEqual([['Support', 3, 2, 1, 2 / 3, 1 / 3, 30, 45]]);
    // With a 30-second threshold call 6 counts too: 2/3.
    const custom = reportCatalogueSchema.parse({
      '4': { kind: 'queue_performance', serviceLevelSeconds: 30 },
    });
    const out: ReportRow[] = [];
    for await (const r of reportRows(w.db, request(4), custom)) out.push(r);
    expect(out[0]?.[5]).toBe(2 / 3);
  });

  it('activity by country of the other party', async () => {
    // AU: call 1 (out, 60 s, 0.60). FR: call 6 (in, 100 s). DE: call 8 (missed).
    // GB: calls 2 (in 120 s), 4 (missed), 5 (in 100 s), 7 (out 40 s, 0.04), 9 (out 1200 s, 1.20):
    //   in 3, out 2, answered 4, talk 1460, cost 1.24. US: call 3 (in, 180 s). Sorted by name.
    expect(await rows(3)).toEqual([
      ['Australia', 0, 1, 1, 60, 0.6],
      ['France', 1, 0, 1, 100, 0],
      ['Germany', 1, 0, 0, 0, 0],
      ['United Kingdom', 3, 2, 4, 1460, 1.24],
      ['United States', 1, 0, 1, 180, 0],
    ]);
    // Country names follow the culture.
    expect((await rows(3, LONDON_OCT_25, 'de-DE')).map((r) => r[0])).toEqual([
      'Australien',
      'Deutschland',
      'Frankreich',
      'Vereinigte Staaten',
      'Vereinigtes Königreich',
    ]);
  });

  it('activity by company number (DDI)', async () => {
    // +…567 (Anna's caller id and direct number): call 1 out (60 s, 0.60) and call 2 in (120 s).
    // +…568 (Ben's caller id): calls 7 and 9 out (40 + 1200 s, 0.04 + 1.20).
    // +…9999: call 5, a tracked queue call (100 s). Unknown: calls 3, 4, 6, 8 came in on an
    // extension or queue: in 4, answered 2 (3 and 6), talk 180 + 100 = 280.
    expect(await rows(6)).toEqual([
      ['+442071234567', 1, 1, 2, 180, 0.6],
      ['+442071234568', 0, 2, 2, 1240, 1.24],
      ['+442071239999', 1, 0, 1, 100, 0],
      ['Unknown', 4, 0, 2, 280, 0],
    ]);
  });

  it('recordings with sentiment and CX score per agent', async () => {
    // Anna: recordings of calls 2 (positive, 80, transcribed) and 3 (negative, 40, empty
    // transcript); the recording of call 10 is the next day. Average (80+40)/2 = 60, lowest 40,
    // positive share 1/2. Ben: call 5 (neutral, 70).
    expect(await rows(5)).toEqual([
      ['Anna Kowalska', 2, 1, 60, 40, 1, 0, 1, 0.5],
      ['Ben Okafor', 1, 1, 70, 70, 0, 1, 0, 0],
    ]);
  });

  it('billing: one row per charged call, in call order', async () => {
    // Charged calls on the 25th: 1 (00:30 BST), 7 (10:20), 9 (23:50, crossing midnight). Not 10 (26th).
    expect(await rows(7)).toEqual([
      [1, new Date('2026-10-24T23:30:00Z'), 'Anna Kowalska', '101', '+61293744000', 'out', 60, 0.6, 0.6],
      [7, new Date('2026-10-25T10:20:00Z'), 'Ben Okafor', '102', '+442079460001', 'out', 40, 0.06, 0.04],
      [9, new Date('2026-10-25T23:50:00Z'), 'Ben Okafor', '102', '+442079460003', 'out', 1200, 0.06, 1.2],
    ]);
  });

  it('the 23-hour day of the spring clock change', async () => {
    // 29 March local = [00:00 GMT, 23:00 UTC): call 22 (00:30 GMT) and 20 (23:30 BST = 22:30 UTC);
    // call 21 (23:10 UTC = 00:10 BST on the 30th) is the next day.
    expect((await rows(7, LONDON_MAR_29)).map((r) => r[0])).toEqual([22, 20]);
    expect(localBuckets(LONDON_MAR_29.from, LONDON_MAR_29.to, 'Europe/London', 'hour')).toHaveLength(23);
  });

  it('time zones other than UTC and London', async () => {
    // 25 Oct in New York (EDT, UTC-4) = [04:00Z 25th, 04:00Z 26th): charged calls 7, 9 and 10
    // (00:10Z on the 26th is 20:10 on the 25th); call 1 (23:30Z on the 24th) is the 24th there.
    const ny = {
      from: new Date('2026-10-25T04:00:00Z'),
      to: new Date('2026-10-26T04:00:00Z'),
      timezone: 'America/New_York',
      label: '2026-10-25',
    };
    expect((await rows(7, ny)).map((r) => r[0])).toEqual([7, 9, 10]);
    // 25 Oct in Sydney (AEDT, UTC+11) = [13:00Z 24th, 13:00Z 25th): calls 1 and 7, not 9.
    const syd = {
      from: new Date('2026-10-24T13:00:00Z'),
      to: new Date('2026-10-25T13:00:00Z'),
      timezone: 'Australia/Sydney',
      label: '2026-10-25',
    };
    expect((await rows(7, syd)).map((r) => r[0])).toEqual([1, 7]);
    // Local days in Sydney: call 1 is 10:30 on the 25th, call 9 is 10:50 on the 26th.
    const week = {
      account: ACCOUNT,
      from: new Date('2026-10-24T13:00:00Z'),
      to: new Date('2026-10-26T13:00:00Z'),
      timezone: 'Australia/Sydney',
    };
    expect(await callsOverTime(w.db, week, 'day', 'charged')).toEqual([
      { bucket: '2026-10-25', calls: 2 },
      { bucket: '2026-10-26', calls: 2 },
    ]);
  });

  it('calls per local hour merge the repeated hour of the long day', async () => {
    // Calls 2 and 3 both start at 01:30 local (BST, then GMT): one bucket of 2. Test call 12 is not counted.
    const q = { account: ACCOUNT, ...LONDON_OCT_25 };
    const buckets = await callsOverTime(w.db, q, 'hour', 'all');
    expect(buckets).toEqual([
      { bucket: '2026-10-25 00:00', calls: 1 },
      { bucket: '2026-10-25 01:00', calls: 2 },
      { bucket: '2026-10-25 10:00', calls: 2 },
      { bucket: '2026-10-25 11:00', calls: 1 },
      { bucket: '2026-10-25 12:00', calls: 1 },
      { bucket: '2026-10-25 23:00', calls: 2 },
    ]);
  });

  it('an unknown report id fails with the id and the known ids', async () => {
    await expect(rows(42)).rejects.toThrow(UnknownReportError);
    expect(() => describeReport(request(42), catalogue)).toThrow(
      'report_id 42 is not in the report catalogue (reports.catalogue); known ids: 1, 2, 3, 4, 5, 6, 7',
    );
  });
});
