// The dashboard's query parameters, checked before any query runs: a repeated parameter (an array),
// a control character such as %00, or a date PostgreSQL cannot hold is answered 400 with the
// parameter's name, never handed to the database (whose error would be a 500 with its text).
import { z } from 'zod';

/** The platform's CDR dispositions (spec: INITIAL, RINGING, CONNECTED, ON_HOLD, VM). */
export const OUTCOMES = ['CONNECTED', 'RINGING', 'VM', 'ON_HOLD', 'INITIAL'] as const;

/** Earliest and latest dates the pages accept (PostgreSQL holds more; no call is outside these). */
const MIN_YEAR = 1900;
const MAX_YEAR = 9999;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

const text = (max: number) =>
  z
    .string({ error: 'must be given once, as text' })
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !CONTROL.test(s), 'must not contain control characters');

function inRange(d: Date): boolean {
  const y = d.getUTCFullYear();
  return !Number.isNaN(d.getTime()) && y >= MIN_YEAR && y <= MAX_YEAR;
}

/** YYYY-MM-DD, a real day between 1900 and 9999 (or empty). */
const dayParam = text(10).refine((s) => {
  if (s === '') return true;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return inRange(d) && d.toISOString().startsWith(s);
}, `must be a date YYYY-MM-DD between ${MIN_YEAR} and ${MAX_YEAR}`);

/** The call list's keyset cursor: `<ISO calldate>_<id>`. */
const beforeParam = text(64).refine((s) => {
  if (s === '') return true;
  const m = /^(\d{4}-\d{2}-\d{2}T[\d:.]+Z)_(\d{1,15})$/.exec(s);
  return m !== null && inRange(new Date(m[1]!));
}, 'must be a cursor <ISO time>_<id> from an "Older calls" link');

export const callListQuerySchema = z.object({
  number: text(64).optional(),
  user: text(200)
    .refine((s) => s === '' || /^[^:]+:\d{1,15}$/.test(s), 'must be <account>:<user id>')
    .optional(),
  outcome: text(20)
    .refine(
      (s) => s === '' || (OUTCOMES as readonly string[]).includes(s),
      `must be one of ${OUTCOMES.join(', ')}`,
    )
    .optional(),
  from: dayParam.optional(),
  to: dayParam.optional(),
  before: beforeParam.optional(),
});
export type CallListQuery = z.infer<typeof callListQuerySchema>;

const count = text(15).refine((s) => s === '' || /^\d{1,15}$/.test(s), 'must be a whole number');

export const quarantineQuerySchema = z.object({
  account: text(200).optional(),
  stream: text(40)
    .refine((s) => /^[a-z_]*$/.test(s), 'must name a stream')
    .optional(),
  offset: text(7)
    .refine((s) => s === '' || /^\d{1,7}$/.test(s), 'must be a whole number below 10000000')
    .optional(),
  stored: count.optional(),
  still: count.optional(),
  skipped: count.optional(),
  running: text(200).optional(),
  error: text(400).optional(),
});
export type QuarantineQuery = z.infer<typeof quarantineQuerySchema>;

/** What a Retry on a call's page did (the call page's flash after the form's redirect). */
export const CALL_RETRY_RESULTS = [
  'started',
  'already-retried',
  'not-failed',
  'no-failure',
  'error',
] as const;

export const callPageQuerySchema = z.object({
  retry: z.enum(CALL_RETRY_RESULTS, { error: `must be one of ${CALL_RETRY_RESULTS.join(', ')}` }).optional(),
});
export type CallPageQuery = z.infer<typeof callPageQuerySchema>;

/** The query's values, or a message naming the first parameter that will not do. */
export function parseQuery<T>(
  schema: z.ZodType<T>,
  raw: unknown,
): { ok: true; value: T } | { ok: false; message: string } {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, message: `query parameter "${issue.path.join('.')}" ${issue.message}` };
}
