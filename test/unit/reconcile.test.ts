// Which CDRs the sync hands to call workflows: recent calls, once each.
import { recentCallIds } from '../../activities/reconcile';
import type { Cdr } from '../../connectors/platform';

const HOUR = 3_600_000;
const cdr = (id: number, liveId: number | null, calldate: string | null, duration?: number): Cdr => ({
  id,
  live_id: liveId,
  calldate,
  ...(duration !== undefined ? { duration } : {}),
});

describe('recentCallIds', () => {
  it('takes the calls that started within the window before the newest CDR, the boundary included', () => {
    const cdrs = [
      cdr(1, 501, '2026-11-01 10:00:00'),
      cdr(2, 502, '2026-10-31 10:00:00'), // exactly 24 h before newest
      cdr(3, 503, '2026-10-31 09:59:59'), // a second too old
    ];
    expect(recentCallIds(cdrs, '2026-11-01 10:00:00', 24 * HOUR)).toEqual([501, 502]);
  });

  it('takes a call once however many legs (CDRs) it has', () => {
    const cdrs = [
      cdr(1, 600, '2026-11-01 09:00:00'),
      cdr(2, 600, '2026-11-01 09:00:05'),
      cdr(3, 601, '2026-11-01 09:01:00'),
    ];
    expect(recentCallIds(cdrs, '2026-11-01 09:01:00', HOUR)).toEqual([600, 601]);
  });

  it('takes a late-arriving CDR when its call is recent, and leaves an old call that arrives late alone', () => {
    // A page of the late-arrival re-read: a long call written at hangup, dated at its start.
    const cdrs = [cdr(1, 700, '2026-11-01 07:30:00'), cdr(2, 701, '2026-10-30 07:30:00')];
    expect(recentCallIds(cdrs, '2026-11-01 10:00:00', 24 * HOUR)).toEqual([700]);
  });

  it('measures a call from its end: a 6-hour call whose CDR was just written is recent', () => {
    // Read by id the moment it was written: started 6 h before the newest CDR, ended at it.
    const cdrs = [cdr(1, 710, '2026-11-01 04:00:00', 6 * 3600), cdr(2, 711, '2026-11-01 04:00:00', 60)];
    expect(recentCallIds(cdrs, '2026-11-01 10:00:00', 2 * HOUR)).toEqual([710]);
  });

  it('measures the window in UTC hours across a month end and a daylight-saving change', () => {
    const monthEnd = [cdr(1, 800, '2026-03-31 23:30:00'), cdr(2, 801, '2026-03-31 23:29:59')];
    expect(recentCallIds(monthEnd, '2026-04-01 00:30:00', HOUR)).toEqual([800]);
    // London skips 01:00-02:00 local on 29 March; UTC does not, so two hours back is 00:30.
    const changeover = [cdr(1, 802, '2026-03-29 00:30:00'), cdr(2, 803, '2026-03-29 00:29:59')];
    expect(recentCallIds(changeover, '2026-03-29 02:30:00', 2 * HOUR)).toEqual([802]);
  });

  it('compares times sent with an offset as instants', () => {
    const cdrs = [cdr(1, 900, '2026-07-01T10:30:00+01:00'), cdr(2, 901, '2026-07-01T11:30:00+01:00')];
    // 09:30 and 10:30 UTC; the window starts at 10:00 UTC.
    expect(recentCallIds(cdrs, '2026-07-01 11:00:00', HOUR)).toEqual([901]);
  });

  it('skips CDRs without a call id or a date, and an empty page or an empty stream yields nothing', () => {
    const cdrs = [cdr(1, null, '2026-11-01 10:00:00'), cdr(2, 0, '2026-11-01 10:00:00'), cdr(3, 1000, null)];
    expect(recentCallIds(cdrs, '2026-11-01 10:00:00', HOUR)).toEqual([]);
    expect(recentCallIds([], '2026-11-01 10:00:00', HOUR)).toEqual([]);
    expect(recentCallIds([cdr(1, 1001, '2026-11-01 10:00:00')], null, HOUR)).toEqual([]);
  });

  it('names a newest time it cannot read', () => {
    expect(() => recentCallIds([], 'later', HOUR)).toThrow(/^newest: must be/);
  });
});
