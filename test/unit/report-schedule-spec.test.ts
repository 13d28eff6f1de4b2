// Report schedules → Temporal ScheduleSpecs (pure): calendars per time of day in the schedule's time
// zone, weekdays and month days, bounds, pause, pinned spring-forward calendars, and typed errors.
import { buildReportScheduleSpec, springForwardCalendars, specHash } from '../../reports/schedule-spec';
import { parseFrequency, ReportScheduleError } from '../../reports/schedule-frequency';

const now = new Date('2026-11-23T12:00:00Z');
const schedule = (over: Record<string, unknown> = {}) => ({
  id: 7,
  frequency: JSON.stringify({ type: 'daily', time_of_day: ['07:00'], day_of_week: [], day_of_month: [] }),
  timezone: 'Europe/London',
  status: '1',
  start_at: '2026-06-01 00:00:00',
  end_at: null,
  ...over,
});

function errorOf(fn: () => unknown): ReportScheduleError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ReportScheduleError) return err;
    throw err;
  }
  throw new Error('expected a ReportScheduleError');
}

describe('report schedule spec', () => {
  it('builds a daily calendar per time of day in the schedule time zone, bounded and active', () => {
    const r = buildReportScheduleSpec(
      schedule({
        frequency: { type: 'daily', time_of_day: ['17:30', '09:00', '09:00'] },
        end_at: '2027-03-01 00:00:00',
      }),
      now,
    );
    expect(r.paused).toBe(false);
    expect(r.spec.timezone).toBe('Europe/London');
    expect(r.spec.startAt?.toISOString()).toBe('2026-06-01T00:00:00.000Z');
    expect(r.spec.endAt?.toISOString()).toBe('2027-03-01T00:00:00.000Z');
    const plain = r.spec.calendars!.filter((c) => c.year === undefined);
    expect(plain).toEqual([
      { hour: 9, minute: 0 },
      { hour: 17, minute: 30 },
    ]);
  });

  it('maps ISO weekdays (7 = Sunday) and month days', () => {
    const weekly = buildReportScheduleSpec(
      schedule({ frequency: { type: 'weekly', time_of_day: ['08:00'], day_of_week: [7, 1, '4'] } }),
      now,
    );
    expect(weekly.spec.calendars![0]).toEqual({
      hour: 8,
      minute: 0,
      dayOfWeek: ['MONDAY', 'THURSDAY', 'SUNDAY'],
    });
    const monthly = buildReportScheduleSpec(
      schedule({ frequency: { type: 'monthly', time_of_day: ['06:00'], day_of_month: [15, 1] } }),
      now,
    );
    expect(monthly.spec.calendars![0]).toEqual({ hour: 6, minute: 0, dayOfMonth: [1, 15] });
  });

  it('pauses an inactive schedule', () => {
    expect(buildReportScheduleSpec(schedule({ status: 0 }), now).paused).toBe(true);
    expect(buildReportScheduleSpec(schedule({ status: 'Inactive' }), now).paused).toBe(true);
  });

  it('pins the first time after a spring-forward gap, only on days the schedule runs', () => {
    const daily = parseFrequency({ type: 'daily', time_of_day: ['02:30', '07:00'] });
    expect(springForwardCalendars(daily, 'America/New_York', 2027).filter((c) => c.year === 2027)).toEqual([
      {
        year: 2027,
        month: 'MARCH',
        dayOfMonth: 14,
        hour: 3,
        minute: 30,
        comment: '2:30 does not exist on 2027-03-14',
      },
    ]);
    // London's gap is 01:00–02:00: 07:00 and 02:30 always exist.
    expect(springForwardCalendars(daily, 'Europe/London', 2026)).toEqual([]);
    // Sydney springs forward on the first Sunday of October (2026-10-04, 2027-10-03).
    const sundays = parseFrequency({ type: 'weekly', time_of_day: ['02:15'], day_of_week: [7] });
    expect(
      springForwardCalendars(sundays, 'Australia/Sydney', 2026).map((c) => [c.year, c.dayOfMonth, c.hour]),
    ).toEqual([
      [2026, 4, 3],
      [2027, 3, 3],
      [2028, 1, 3],
    ]);
    const mondays = parseFrequency({ type: 'weekly', time_of_day: ['02:15'], day_of_week: [1] });
    expect(springForwardCalendars(mondays, 'Australia/Sydney', 2026)).toEqual([]);
  });

  it('quarantine reasons: unknown frequency type, bad time, bad time zone, bad status, no days', () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { frequency: { type: 'hourly', time_of_day: ['07:00'] } },
        'frequency.type',
        /unknown frequency "hourly"/,
      ],
      [
        { frequency: { type: 'daily', time_of_day: ['07:00', '25:00'] } },
        'frequency.time_of_day[1]',
        /25:00/,
      ],
      [{ frequency: { type: 'daily', time_of_day: [] } }, 'frequency.time_of_day', /empty/],
      [{ frequency: '{not json' }, 'frequency', /JSON/],
      [
        { frequency: { type: 'weekly', time_of_day: ['07:00'], day_of_week: [] } },
        'frequency.day_of_week',
        /at least one/,
      ],
      [
        { frequency: { type: 'weekly', time_of_day: ['07:00'], day_of_week: [8] } },
        'frequency.day_of_week[0]',
        /1 to 7/,
      ],
      [
        { frequency: { type: 'monthly', time_of_day: ['07:00'], day_of_month: [0] } },
        'frequency.day_of_month[0]',
        /1 to 31/,
      ],
      [{ timezone: 'Mars/Olympus' }, 'timezone', /not an IANA time zone/],
      [{ timezone: null }, 'timezone', /missing/],
      [{ status: '9' }, 'status', /unknown status/],
      [{ end_at: '2026-01-01 00:00:00' }, 'end_at', /not after start_at/],
    ];
    for (const [over, field, reason] of cases) {
      const err = errorOf(() => buildReportScheduleSpec(schedule(over), now));
      expect([err.field, err.message]).toEqual([field, expect.stringMatching(reason)]);
    }
  });

  it('hashes equal specs equally and different ones differently', () => {
    const a = buildReportScheduleSpec(schedule(), now);
    expect(specHash(a)).toBe(specHash(buildReportScheduleSpec(schedule(), now)));
    expect(specHash(a)).not.toBe(specHash(buildReportScheduleSpec(schedule({ status: 0 }), now)));
  });
});
