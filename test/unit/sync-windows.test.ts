import { MAX_WINDOWS, splitWindows } from '../../sync/windows';
import { parsePlatformTime } from '../../sync/time';

const DAY = 86_400_000;

describe('splitWindows', () => {
  it('covers the range with consecutive [from, to) windows, the last one shorter', () => {
    expect(splitWindows('2026-01-01', '2026-01-03 12:00:00', DAY)).toEqual([
      { from: '2026-01-01 00:00:00', to: '2026-01-02 00:00:00' },
      { from: '2026-01-02 00:00:00', to: '2026-01-03 00:00:00' },
      { from: '2026-01-03 00:00:00', to: '2026-01-03 12:00:00' },
    ]);
  });

  it('gives every day 24 hours across daylight-saving changes and month ends', () => {
    const windows = splitWindows('2026-03-28', '2026-04-02', DAY);
    expect(windows.map((w) => w.from)).toEqual([
      '2026-03-28 00:00:00',
      '2026-03-29 00:00:00',
      '2026-03-30 00:00:00',
      '2026-03-31 00:00:00',
      '2026-04-01 00:00:00',
    ]);
    for (const w of windows) expect(parsePlatformTime(w.to) - parsePlatformTime(w.from)).toBe(DAY);
  });

  it('makes one window of a range shorter than a window', () => {
    expect(splitWindows('2026-02-28 23:00:00', '2026-03-01 01:00:00', DAY)).toEqual([
      { from: '2026-02-28 23:00:00', to: '2026-03-01 01:00:00' },
    ]);
  });

  it('never makes an empty window: platform times have whole seconds', () => {
    const windows = splitWindows('2026-01-01 00:00:00', '2026-01-01 00:00:03', 400);
    expect(windows).toEqual([
      { from: '2026-01-01 00:00:00', to: '2026-01-01 00:00:01' },
      { from: '2026-01-01 00:00:01', to: '2026-01-01 00:00:02' },
      { from: '2026-01-01 00:00:02', to: '2026-01-01 00:00:03' },
    ]);
  });

  it('stretches windows so that a long range stays within MAX_WINDOWS, leaving no gap', () => {
    const windows = splitWindows('2016-01-01', '2026-01-01', 60_000);
    expect(windows.length).toBeLessThanOrEqual(MAX_WINDOWS);
    expect(windows[0]!.from).toBe('2016-01-01 00:00:00');
    expect(windows.at(-1)!.to).toBe('2026-01-01 00:00:00');
    for (let i = 1; i < windows.length; i++) expect(windows[i]!.from).toBe(windows[i - 1]!.to);
  });

  it('rejects an empty or reversed range, a bad window and impossible dates, naming the field', () => {
    expect(() => splitWindows('2026-01-02', '2026-01-02', DAY)).toThrow('to: must be after from');
    expect(() => splitWindows('2026-01-02', '2026-01-01', DAY)).toThrow('to: must be after from');
    expect(() => splitWindows('2026-01-01', '2026-01-02', 0)).toThrow('windowMs: must be positive');
    expect(() => splitWindows('2026-02-30', '2026-03-02', DAY)).toThrow('from: not a real date');
    expect(() => splitWindows('2026-01-01', 'soon', DAY)).toThrow(/^to: must be/);
  });
});
