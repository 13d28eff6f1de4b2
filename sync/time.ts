// Platform times are `YYYY-MM-DD HH:MM:SS` in UTC. Pure helpers, safe in workflow code.

const PLATFORM_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** Parses `YYYY-MM-DD[ HH:MM[:SS]]` (UTC) to epoch ms; throws naming the bad value's field. */
export function parsePlatformTime(value: string, field = 'time'): number {
  const m = PLATFORM_TIME.exec(value.trim());
  if (!m) throw new Error(`${field}: must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (UTC), got "${value}"`);
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(ms)) throw new Error(`${field}: not a real date: "${value}"`);
  return ms;
}

/** Formats epoch ms as the platform's `YYYY-MM-DD HH:MM:SS` (UTC). */
export function formatPlatformTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** `value` moved back by `ms`, in platform format. */
export function minusMs(value: string, ms: number): string {
  return formatPlatformTime(parsePlatformTime(value) - ms);
}

/** The later of two platform times (null counts as earliest). */
export function laterOf(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a >= b ? a : b;
}
