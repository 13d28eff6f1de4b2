// Durations in config files: `500ms`, `30s`, `5m`, `1h`, `2d`, or a number of milliseconds.
import { z } from 'zod';

const durationPattern = /^(\d+)(ms|s|m|h|d)$/;

/** A duration written as `500ms`, `30s`, `5m`, `1h` or `2d`, parsed to milliseconds. */
export const durationMs = z
  .union([z.number().int().positive(), z.string().regex(durationPattern, 'must look like 30s, 5m, 1h or 2d')])
  .transform((v) => {
    if (typeof v === 'number') return v;
    const [, n, unit] = durationPattern.exec(v) as RegExpExecArray;
    const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
      unit as 'ms' | 's' | 'm' | 'h' | 'd'
    ];
    return Number(n) * factor;
  });
