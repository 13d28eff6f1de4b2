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

/**
 * A controllable clock starting at `start`. Fixed (the default), emulator time only moves when told to, so
 * runs are reproducible; real-time, it also follows the wall clock, so the emulator's dates agree with the
 * dates its clients stamp (cursors, lag, call logs, callback tasks). Either way it can be set and advanced.
 */
export function createClock(start: Date = DEFAULT_NOW, opts: { realTime?: boolean } = {}): EmulatorClock {
  const wall = opts.realTime === true ? () => Date.now() : () => 0;
  let offset = start.getTime() - wall();
  const now = (): Date => new Date(wall() + offset);
  return {
    now,
    advance: (delta: number) => {
      offset += delta;
    },
    set: (d: Date) => {
      offset = d.getTime() - wall();
    },
    nowString: () => formatDateTime(now()),
  };
}
