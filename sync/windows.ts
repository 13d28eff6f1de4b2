// Splits a backfill range into windows. Pure, used by workflow code.
import { formatPlatformTime, parsePlatformTime } from './time';

export interface TimeWindow {
  from: string;
  to: string;
}

/** Most windows one backfill runs; longer ranges get longer windows so the history stays small. */
export const MAX_WINDOWS = 500;

/** Consecutive [from, to) windows of `windowMs` covering the range (the last one may be shorter). */
export function splitWindows(from: string, to: string, windowMs: number): TimeWindow[] {
  const start = parsePlatformTime(from, 'from');
  const end = parsePlatformTime(to, 'to');
  if (end <= start) throw new Error(`to: must be after from (${from} .. ${to})`);
  if (!(windowMs > 0)) throw new Error('windowMs: must be positive');
  // Whole seconds: platform times have no smaller unit, so a shorter window would print as empty.
  const size = Math.ceil(Math.max(windowMs, (end - start) / MAX_WINDOWS) / 1000) * 1000;
  const windows: TimeWindow[] = [];
  for (let t = start; t < end; t += size) {
    windows.push({ from: formatPlatformTime(t), to: formatPlatformTime(Math.min(t + size, end)) });
  }
  return windows;
}
