import { isBusinessTime, msUntilBusinessTime } from '../../lib/business-hours';

const london = { timezone: 'Europe/London', days: [1, 2, 3, 4, 5], start: '09:00', end: '17:30' };
const at = (iso: string) => Date.parse(iso);

describe('business hours', () => {
  it('knows open and closed times in the zone, across daylight saving', () => {
    expect(isBusinessTime(at('2026-11-23T09:00:00Z'), london)).toBe(true); // Monday 09:00 GMT
    expect(isBusinessTime(at('2026-11-23T17:30:00Z'), london)).toBe(false);
    expect(isBusinessTime(at('2026-07-06T08:30:00Z'), london)).toBe(true); // Monday 09:30 BST
    expect(isBusinessTime(at('2026-07-06T16:45:00Z'), london)).toBe(false); // 17:45 BST
    expect(isBusinessTime(at('2026-11-22T12:00:00Z'), london)).toBe(false); // Sunday
  });

  it('waits until the next opening', () => {
    expect(msUntilBusinessTime(at('2026-11-23T10:00:00Z'), london)).toBe(0);
    // Friday 18:00 → Monday 09:00
    expect(msUntilBusinessTime(at('2026-11-27T18:00:00Z'), london)).toBe(
      at('2026-11-30T09:00:00Z') - at('2026-11-27T18:00:00Z'),
    );
    const tokyo = { ...london, timezone: 'Asia/Tokyo' };
    expect(msUntilBusinessTime(at('2026-11-22T23:59:30Z'), tokyo)).toBe(30_000); // 08:59:30 JST Monday
    expect(msUntilBusinessTime(Date.now(), { ...london, days: [] })).toBeNull();
  });
});
