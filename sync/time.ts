// Platform times are `YYYY-MM-DD HH:MM:SS` in UTC. Pure helpers, safe in workflow code.

// The spec's form, plus what record schemas let through from live deployments: date only, `T`,
// no seconds, fractional seconds, and an explicit `Z` or offset (converted to UTC).
const PLATFORM_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Offset of `Z`, `+01:00` or `-0530` in ms east of UTC. */
function offsetMs(zone: string | undefined): number {
  if (zone === undefined || zone === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
}

/** Parses `YYYY-MM-DD[ HH:MM[:SS]]` (UTC) to epoch ms; throws naming the bad value's field. */
export function parsePlatformTime(value: string, field = 'time'): number {
  const m = PLATFORM_TIME.exec(value.trim());
  if (!m) throw new Error(`${field}: must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (UTC), got "${value}"`);
  const [, y, mo, d, h = '0', mi = '0', s = '0', zone] = m;
  const fields = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)] as const;
  const wall = new Date(Date.UTC(...fields));
  // Date.UTC rolls over (February 30th is March 2nd): a field that moved was out of range.
  const back = [
    wall.getUTCFullYear(),
    wall.getUTCMonth(),
    wall.getUTCDate(),
    wall.getUTCHours(),
    wall.getUTCMinutes(),
    wall.getUTCSeconds(),
  ];
  if (back.some((v, i) => v !== fields[i])) throw new Error(`${field}: not a real date: "${value}"`);
  return wall.getTime() - offsetMs(zone);
}

/** Like parsePlatformTime, but undefined for a value that is not a real platform time. */
export function platformTimeOrUndefined(value: string): number | undefined {
  try {
    return parsePlatformTime(value);
  } catch {
    return undefined;
  }
}

/** A platform time (`YYYY-MM-DD HH:MM:SS` UTC) as ISO 8601; null when it is not one. */
export function isoOfPlatformTime(value: string | null | undefined): string | null {
  const ms = value ? platformTimeOrUndefined(value) : undefined;
  return ms === undefined ? null : new Date(ms).toISOString();
}

/** Formats epoch ms as the platform's `YYYY-MM-DD HH:MM:SS` (UTC). */
export function formatPlatformTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** `value` moved back by `ms`, in platform format. */
export function minusMs(value: string, ms: number): string {
  return formatPlatformTime(parsePlatformTime(value) - ms);
}
