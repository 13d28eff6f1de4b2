// Business hours in a time zone. Pure (Intl only), so workflow code can use it.

export interface BusinessHours {
  /** IANA time zone, e.g. Europe/London. */
  timezone: string;
  /** ISO weekdays open (1 = Monday … 7 = Sunday). */
  days: readonly number[];
  /** Opening and closing time, HH:MM, local. */
  start: string;
  end: string;
}

const WEEKDAY: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

function localParts(ms: number, timezone: string): { weekday: number; minutes: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { weekday: WEEKDAY[get('weekday')] ?? 0, minutes: Number(get('hour')) * 60 + Number(get('minute')) };
}

function toMinutes(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** True when `ms` falls inside business hours. */
export function isBusinessTime(ms: number, hours: BusinessHours): boolean {
  const { weekday, minutes } = localParts(ms, hours.timezone);
  return hours.days.includes(weekday) && minutes >= toMinutes(hours.start) && minutes < toMinutes(hours.end);
}

/** Milliseconds from `ms` until business hours (0 when open now; null when never open). */
export function msUntilBusinessTime(ms: number, hours: BusinessHours): number | null {
  if (isBusinessTime(ms, hours)) return 0;
  // Walk minute boundaries for up to eight days; a quarter-hour step would miss HH:05 openings.
  const start = Math.ceil(ms / 60_000) * 60_000;
  for (let t = start; t <= ms + 8 * 86_400_000; t += 60_000) {
    if (isBusinessTime(t, hours)) return t - ms;
  }
  return null;
}
