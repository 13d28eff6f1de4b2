// How report schedules and runs are shown (pure): next runs in the schedule's own time zone, the last
// run, quarantined schedules and failed runs in status; CLI options read with errors naming them.
import { parseTestConfig } from '../support/test-config';
import type { ReportRunRow } from '../../connectors/postgres';
import { parseScheduleArg, periodOption } from '../../cli/commands/reports';
import {
  formatReportRun,
  formatReportSchedules,
  formatReportStatus,
  localTime,
} from '../../cli/commands/report-views';

const run: ReportRunRow = {
  id: 42,
  account: 'acme',
  schedule_id: 7,
  report_id: 1,
  period_from: new Date('2026-10-25T23:00:00Z'),
  period_to: new Date('2026-10-27T00:00:00Z'),
  period_label: '2026-10-26',
  timezone: 'Europe/London',
  format: 'csv',
  status: 'failed',
  rows: null,
  bytes: null,
  checksum: null,
  file_path: null,
  error: 'UnknownReportError: report_id 99 is not in the report catalogue',
  workflow_id: 'report-acme-7-2026-10-27T07:00:00Z',
  attempts: 1,
  created_at: new Date('2026-10-27T07:00:01Z'),
  started_at: new Date('2026-10-27T07:00:01Z'),
  finished_at: new Date('2026-10-27T07:00:02Z'),
};

describe('report views', () => {
  it('shows next runs in the schedule time zone, across a clock change', () => {
    expect(localTime(new Date('2026-10-24T06:00:00Z'), 'Europe/London')).toBe('2026-10-24 07:00 +01:00');
    expect(localTime(new Date('2026-10-26T07:00:00Z'), 'Europe/London')).toBe('2026-10-26 07:00 +00:00');
    const text = formatReportSchedules([
      {
        account: 'acme',
        id: 7,
        name: 'Daily call summary',
        reportId: 1,
        timezone: 'America/New_York',
        nextRun: new Date('2026-11-24T14:00:00Z'),
        state: 'active',
        lastRun: run,
      },
    ]);
    expect(text).toContain('2026-11-24 09:00 -05:00');
    expect(text).toContain('#42 2026-10-26 failed: UnknownReportError: report_id 99');
    expect(formatReportSchedules([])).toMatch(/no report schedules/);
  });

  it('shows a run and the status section', () => {
    expect(formatReportRun(run)).toMatch(
      /period\s+2026-10-26 \[2026-10-25T23:00:00.000Z, 2026-10-27T00:00:00.000Z\) Europe\/London/,
    );
    const status = formatReportStatus(
      [run],
      [run],
      [{ account: 'acme', record_id: '9', reason: 'timezone: "Mars" is not an IANA time zone' }],
    );
    expect(status).toContain('REPORT RUNS');
    expect(status).toContain('FAILED REPORT RUNS (latest 1)');
    expect(status).toContain('acme  schedule 9: timezone: "Mars" is not an IANA time zone');
    expect(formatReportStatus([], [], [])).toBe('');
  });

  it('reads the schedule argument and period options, naming the bad one', () => {
    const config = parseTestConfig({
      accounts: ['acme', 'globex'].map((name) => ({
        name,
        platform: {
          baseUrl: 'http://127.0.0.1:9/v1.1/voipstudio',
          credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
        },
      })),
    });
    expect(parseScheduleArg('12', config, undefined)).toEqual({ account: 'acme', scheduleId: 12 });
    expect(parseScheduleArg('report-globex-3', config, undefined)).toEqual({
      account: 'globex',
      scheduleId: 3,
    });
    expect(() => parseScheduleArg('daily', config, undefined)).toThrow(/<schedule>/);
    expect(() => parseScheduleArg('report-nope-3', config, undefined)).toThrow(/"nope" is not configured/);
    expect(periodOption({ period: '2026-10' })).toEqual({ period: '2026-10' });
    expect(periodOption({ from: '2026-10-01', to: '2026-10-15' })).toEqual({
      from: '2026-10-01',
      to: '2026-10-15',
    });
    expect(periodOption({})).toBeUndefined();
    expect(() => periodOption({ period: '2026-10', from: '2026-10-01' })).toThrow(/--period/);
    expect(() => periodOption({ from: '2026-10-01' })).toThrow(/--from\/--to/);
  });
});
