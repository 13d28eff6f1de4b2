// Local wall-clock time in an IANA zone, for the places that need local fields rather than text:
// XLSX cells (Excel dates have no zone) and the chart's buckets.

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let f = offsetFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormats.set(timeZone, f);
  }
  return f;
}

/** The local fields of an instant in `timeZone`, as a Date whose UTC fields are those local fields. */
export function wallClock(instant: Date, timeZone: string): Date {
  const p: Record<string, number> = {};
  for (const part of partsFormat(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  return new Date(
    Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0) +
      (instant.getTime() % 1000),
  );
}

/**
 * A wall-clock converter for many instants, in epoch milliseconds: zone offsets only change on
 * quarter hours, so one Intl call per quarter hour serves every instant in it (a million-row XLSX
 * stays fast).
 */
export function wallClockMsConverter(timeZone: string): (epochMs: number) => number {
  const QUARTER = 15 * 60_000;
  const cache = new Map<number, number>();
  return (ms) => {
    const quarter = Math.floor(ms / QUARTER);
    let offset = cache.get(quarter);
    if (offset === undefined) {
      const start = quarter * QUARTER;
      offset = wallClock(new Date(start), timeZone).getTime() - start;
      if (cache.size > 10_000) cache.clear();
      cache.set(quarter, offset);
    }
    return ms + offset;
  };
}

/** wallClockMsConverter for Dates. */
export function wallClockConverter(timeZone: string): (instant: Date) => Date {
  const toLocalMs = wallClockMsConverter(timeZone);
  return (instant) => new Date(toLocalMs(instant.getTime()));
}

/** Local bucket labels (`2026-10-25` or `2026-10-25 01:00`) of every hour in [from, to), in order, once each. */
export function localBuckets(from: Date, to: Date, timeZone: string, unit: 'day' | 'hour'): string[] {
  const labels: string[] = [];
  for (let ms = from.getTime(); ms < to.getTime(); ms += 3_600_000) {
    const iso = wallClock(new Date(ms), timeZone).toISOString();
    const label = unit === 'day' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 13)}:00`;
    if (labels[labels.length - 1] !== label && !labels.includes(label)) labels.push(label);
  }
  return labels;
}
