// The period a report run covers (pure): previous day, ISO week and month in the schedule's time zone,
// DST days of 23 and 25 hours, and periods asked for by hand.
import { PeriodError, requestedPeriod, scheduledPeriod } from '../../reports/period';

const iso = (p: { from: Date; to: Date; label: string }) => [
  p.label,
  p.from.toISOString(),
  p.to.toISOString(),
];
const hours = (p: { from: Date; to: Date }) => (p.to.getTime() - p.from.getTime()) / 3_600_000;

describe('report period', () => {
  it('daily: the previous local day, 23 and 25 hours long across London DST', () => {
    expect(iso(scheduledPeriod('daily', new Date('2026-07-15T06:00:00Z'), 'Europe/London'))).toEqual([
      '2026-07-14',
      '2026-07-13T23:00:00.000Z',
      '2026-07-14T23:00:00.000Z',
    ]);
    const spring = scheduledPeriod('daily', new Date('2027-03-29T06:00:00Z'), 'Europe/London');
    expect([spring.label, hours(spring)]).toEqual(['2027-03-28', 23]);
    const autumn = scheduledPeriod('daily', new Date('2026-10-26T07:00:00Z'), 'Europe/London');
    expect([autumn.label, hours(autumn)]).toEqual(['2026-10-25', 25]);
  });

  it('weekly: the previous ISO week (Monday start), in the schedule zone', () => {
    // Monday 2026-11-02 09:00 in Sydney is Sunday 22:00 UTC: still the local Monday.
    expect(iso(scheduledPeriod('weekly', new Date('2026-11-01T22:00:00Z'), 'Australia/Sydney'))).toEqual([
      '2026-W44',
      '2026-10-25T13:00:00.000Z',
      '2026-11-01T13:00:00.000Z',
    ]);
    // The week of the 2027 New York spring-forward is 167 hours; ISO week-year 2026 ends in January 2027.
    expect(hours(scheduledPeriod('weekly', new Date('2027-03-16T14:00:00Z'), 'America/New_York'))).toBe(167);
    expect(scheduledPeriod('weekly', new Date('2027-01-04T12:00:00Z'), 'Europe/London').label).toBe(
      '2026-W53',
    );
  });

  it('monthly: the previous calendar month', () => {
    expect(iso(scheduledPeriod('monthly', new Date('2026-11-01T06:00:00Z'), 'Europe/London'))).toEqual([
      '2026-10',
      '2026-09-30T23:00:00.000Z',
      '2026-11-01T00:00:00.000Z', // October ends in GMT: 744 hours
    ]);
    expect(scheduledPeriod('monthly', new Date('2027-01-15T05:00:00Z'), 'Europe/Berlin').label).toBe(
      '2026-12',
    );
  });

  it('the same scheduled time gives the same period (a retry builds the same report)', () => {
    const at = new Date('2026-11-23T07:00:00Z');
    expect(scheduledPeriod('daily', at, 'Europe/London')).toEqual(
      scheduledPeriod('daily', at, 'Europe/London'),
    );
  });

  it('periods by hand: month, ISO week, day, from/to inclusive; bad input names the option', () => {
    expect(iso(requestedPeriod({ period: '2026-10' }, 'America/New_York'))).toEqual([
      '2026-10',
      '2026-10-01T04:00:00.000Z',
      '2026-11-01T04:00:00.000Z',
    ]);
    expect(requestedPeriod({ period: '2026-W40' }, 'UTC').from.toISOString()).toBe(
      '2026-09-28T00:00:00.000Z',
    );
    expect(iso(requestedPeriod({ period: '2026-10-05' }, 'UTC'))).toEqual([
      '2026-10-05',
      '2026-10-05T00:00:00.000Z',
      '2026-10-06T00:00:00.000Z',
    ]);
    expect(iso(requestedPeriod({ from: '2026-10-01', to: '2026-10-15' }, 'UTC'))).toEqual([
      '2026-10-01..2026-10-15',
      '2026-10-01T00:00:00.000Z',
      '2026-10-16T00:00:00.000Z',
    ]);
    expect(() => requestedPeriod({ period: 'october' }, 'UTC')).toThrow(PeriodError);
    expect(() => requestedPeriod({ period: '2026-13' }, 'UTC')).toThrow(/--period/);
    expect(() => requestedPeriod({ from: '2026-10-05', to: '2026-10-01' }, 'UTC')).toThrow(/--to/);
    expect(() => requestedPeriod({ from: '2026-02-30', to: '2026-03-01' }, 'UTC')).toThrow(/--from/);
  });
});
