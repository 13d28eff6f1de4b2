import type { EmulatorClock } from './types';

/** The clock's default start: seeded history spans the ~6 months before it. */
export const DEFAULT_NOW = new Date(Date.UTC(2026, 10, 1, 12, 0, 0));

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the platform's date format. */
export function formatDateTime(d: Date): string {
  return (
    `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ` +
    `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`
  );
}

/** A controllable clock: emulator time only moves when told to, so runs are reproducible. */
export function createClock(start: Date = DEFAULT_NOW): EmulatorClock {
  let ms = start.getTime();
  return {
    now: () => new Date(ms),
    advance: (delta: number) => {
      ms += delta;
    },
    set: (d: Date) => {
      ms = d.getTime();
    },
    nowString: () => formatDateTime(new Date(ms)),
  };
}
