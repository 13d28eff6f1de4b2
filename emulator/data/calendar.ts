// Date helpers for generation: fast formatting of many epoch seconds, and wall-clock times in a time zone.

const DAY = 86_400;

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

let hmsTable: string[] | undefined;
const dayPrefixes = new Map<number, string>();

/** `YYYY-MM-DD HH:MM:SS` (UTC) of epoch seconds; cached per day, as it runs once per generated row. */
export function formatEpoch(sec: number): string {
  const s = Math.floor(sec);
  const day = Math.floor(s / DAY);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    const d = new Date(day * DAY * 1000);
    prefix = `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} `;
    dayPrefixes.set(day, prefix);
  }
  if (hmsTable === undefined) {
    hmsTable = new Array<string>(DAY);
    for (let i = 0; i < DAY; i++) {
      hmsTable[i] = `${pad2(Math.floor(i / 3600))}:${pad2(Math.floor(i / 60) % 60)}:${pad2(i % 60)}`;
    }
  }
  return prefix + (hmsTable[s - day * DAY] as string);
}

/** Epoch seconds of a `YYYY-MM-DD HH:MM:SS` UTC string. */
export function parseDateTime(s: string): number {
  return Date.parse(`${s.replace(' ', 'T')}Z`) / 1000;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** Offset of a time zone from UTC at an instant, in milliseconds. */
function zoneOffsetMs(ms: number, timeZone: string): number {
  let fmt = offsetFormats.get(timeZone);
  if (fmt === undefined) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormats.set(timeZone, fmt);
  }
  const parts: Record<string, number> = {};
  for (const p of fmt.formatToParts(new Date(ms))) parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return asUtc - (ms - (ms % 1000));
}

/** The UTC instant (ms) of a wall-clock time in a time zone (DST-aware). */
export function zonedToUtc(
  y: number,
  month0: number,
  d: number,
  h: number,
  min: number,
  timeZone: string,
): number {
  const wall = Date.UTC(y, month0, d, h, min, 0);
  let ms = wall - zoneOffsetMs(wall, timeZone);
  ms = wall - zoneOffsetMs(ms, timeZone);
  return ms;
}

/** The wall-clock date parts of an instant in a time zone. */
export function zonedParts(ms: number, timeZone: string): { y: number; m0: number; d: number; dow: number } {
  const local = new Date(ms + zoneOffsetMs(ms, timeZone));
  return {
    y: local.getUTCFullYear(),
    m0: local.getUTCMonth(),
    d: local.getUTCDate(),
    dow: local.getUTCDay(),
  };
}
