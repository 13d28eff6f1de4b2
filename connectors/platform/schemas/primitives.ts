// Field builders for platform RESPONSES. Real responses differ from the spec's model in small ways
// (numbers as numeric strings, integer codes for string enums, lists as strings, nulls, "" for
// absent values), so each builder coerces where the meaning is clear and fails otherwise.
// Every builder except the id builders yields an optional, nullable field: responses omit absent
// fields or send null. Error messages name the problem only, never the value (it may be a secret).
import { z } from 'zod';

/** A string enum that stays open: known values autocomplete, unknown ones are kept as strings. */
export type OpenEnum<V extends string> = V | (string & Record<never, never>);

const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
// Loose on purpose: the spec's `YYYY-MM-DD H:I:S` plus date-only and ISO 8601 variants.
const DATE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const DATE_PROBLEM = 'must be a date (YYYY-MM-DD HH:MM:SS)';
// MySQL's "zero date" means "no date"; it is not a time anyone can use.
const ZERO_DATE = /^0000-00-00(?:[ T]00:00(?::00)?)?$/;

/**
 * A field's fast path: the parsed value for the inputs it can decide cheaply (almost every value a
 * real response sends), or `z.INVALID` to leave the input to the field's zod schema. Where it
 * answers, it answers exactly what the schema would (test/unit/schemas-fast-parse.test.ts checks
 * this); record parsers use it through `fastRecordParser` (fast-parse.ts).
 */
export type FastField = (value: unknown) => unknown;

// Keyed by the schema's definition, which `.meta()` and `.describe()` clones share; any other
// wrapper (`.optional()`, `.refine()`…) makes a new definition, so the wrapped schema has no fast path.
const fastFields = new WeakMap<object, FastField>();

function withFast<S extends z.ZodType>(schema: S, fast: FastField): S {
  fastFields.set(schema._zod.def, fast);
  return schema;
}

/** The fast path of a field built by this module, if it has one. */
export function fastFieldOf(schema: z.ZodType): FastField | undefined {
  return fastFields.get(schema._zod.def);
}

const INVALID: unknown = z.INVALID;

/** Builds a zod error callback: "required" for absent input, the given problem otherwise. */
export function problem(expected: string): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === undefined || issue.input === null ? 'required' : expected);
}

function blankToNull(v: unknown): unknown {
  return typeof v === 'string' && v.trim() === '' ? null : v;
}

function toNumber(v: unknown): unknown {
  const b = blankToNull(v);
  return typeof b === 'string' && NUMERIC.test(b.trim()) ? Number(b) : b;
}

function toText(v: unknown): unknown {
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return v;
}

function toBoolean(v: unknown): unknown {
  if (v === 1 || v === 0) return v === 1;
  if (typeof v !== 'string') return v;
  const s = v.trim().toLowerCase();
  if (s === '1' || s === 'true') return true;
  if (s === '0' || s === 'false') return false;
  return s === '' ? null : v;
}

function toList(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const s = v.trim();
  if (s === '') return [];
  if (s.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(s);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // not JSON: fall through to the comma-separated form
    }
  }
  return s
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

const integer = () => z.number({ error: problem('must be an integer') }).int({ error: 'must be an integer' });
const text = () => z.string({ error: problem('must be a string') });

/** Required integer id; accepts a numeric string. */
export function intId() {
  return withFast(z.preprocess(toNumber, integer()), (v) => (Number.isSafeInteger(v) ? v : INVALID));
}

/** Required string id (DDI e164, Me); accepts a number and keeps it as its string form. */
export function strId() {
  return withFast(z.preprocess(toText, text().min(1, { error: 'required' })), (v) =>
    typeof v === 'string' && v.length > 0 ? v : INVALID,
  );
}

/** Required id kept as sent, number or string (ids whose kind the spec leaves open). */
export function anyId() {
  return withFast(
    z.union([integer(), text().min(1, { error: 'required' })], { error: problem('must be an id') }),
    (v) => (Number.isSafeInteger(v) || (typeof v === 'string' && v.length > 0) ? v : INVALID),
  );
}

/** Integer; accepts a numeric string; "" and null become null. */
export function int() {
  return withFast(z.preprocess(toNumber, integer().nullable()).optional(), (v) =>
    v === null || Number.isSafeInteger(v) ? v : INVALID,
  );
}

/** Finite number (rates, charges, balances); accepts a numeric string. */
export function num() {
  return withFast(
    z.preprocess(toNumber, z.number({ error: problem('must be a number') }).nullable()).optional(),
    (v) => (v === null || Number.isFinite(v) ? v : INVALID),
  );
}

/** String; numbers and booleans are kept as their string form. */
export function str() {
  return withFast(z.preprocess(toText, text().nullable()).optional(), (v) =>
    v === null || typeof v === 'string' ? v : INVALID,
  );
}

/** Boolean; accepts 0/1, "0"/"1" and "true"/"false" (any case); "" becomes null. */
export function bool() {
  return withFast(
    z.preprocess(toBoolean, z.boolean({ error: problem('must be a boolean') }).nullable()).optional(),
    (v) => (v === null || typeof v === 'boolean' ? v : INVALID),
  );
}

/** Date-time kept as the platform's string (`YYYY-MM-DD HH:MM:SS`, UTC); the zero date becomes null. */
export function date() {
  const schema = z
    .preprocess(
      (v) => (typeof v === 'string' && ZERO_DATE.test(v.trim()) ? null : blankToNull(v)),
      z
        .string({ error: problem(DATE_PROBLEM) })
        .regex(DATE, { error: DATE_PROBLEM })
        .nullable(),
    )
    .optional();
  // A string DATE matches has no surrounding blanks; zero dates are left to the schema.
  return withFast(schema, (v) =>
    v === null || (typeof v === 'string' && DATE.test(v) && !v.startsWith('0000-00-00')) ? v : INVALID,
  );
}

/**
 * String enum that also accepts an integer code (or numeric string) mapped through `codes`.
 * Conservative by design: an unmapped code is kept as its string form and an unknown string is kept
 * as sent (case-normalised when it matches a known value), because code meanings are not in the spec.
 */
export function strEnum<const V extends readonly [string, ...string[]]>(
  values: V,
  codes: Readonly<Record<number, V[number]>> = {},
) {
  const byLower = new Map<string, string>(values.map((v) => [v.toLowerCase(), v]));
  const normalise = (v: unknown): unknown => {
    const n = toNumber(v);
    if (typeof n === 'number' && Number.isInteger(n)) return codes[n] ?? String(n);
    if (typeof n === 'string') return byLower.get(n.trim().toLowerCase()) ?? n;
    return n;
  };
  const schema = z
    .preprocess(
      normalise,
      text().transform((s) => s as OpenEnum<V[number]>),
    )
    .nullable()
    .optional();
  // Values normalise maps to themselves: non-blank, not numeric, and their own case-normalised form.
  const canonical = new Set(
    [...byLower.values()].filter((v) => v.trim() !== '' && !NUMERIC.test(v.trim()) && normalise(v) === v),
  );
  return withFast(schema, (v) => {
    if (v === null) return v;
    if (typeof v === 'string') return canonical.has(v) ? v : INVALID;
    return Number.isInteger(v) ? normalise(v) : INVALID;
  });
}

/**
 * Integer code whose meaning the spec does not show (fax status, DDI flag, queue ring_strategy…):
 * numbers and numeric strings become numbers; other strings are kept, since request bodies send
 * some of these as strings.
 */
export function code() {
  return withFast(
    z
      .preprocess(
        toNumber,
        z.union([integer(), text()], { error: problem('must be an integer code or a string') }).nullable(),
      )
      .optional(),
    (v) => (v === null || Number.isSafeInteger(v) ? v : INVALID),
  );
}

/** List; accepts an array, a JSON array string or a comma-separated string. Items default to strings. */
export function list<T extends z.ZodType = ReturnType<typeof listItem>>(item?: T) {
  const element = (item ?? listItem()) as T;
  return z.preprocess(toList, z.array(element, { error: problem('must be a list') }).nullable()).optional();
}

function listItem() {
  return z.preprocess(toText, text());
}

/** A string or a list kept as sent (fields the resource types as string but request bodies as arrays). */
export function textOrList() {
  return z
    .preprocess(
      toText,
      z.union([text(), z.array(z.unknown())], { error: problem('must be a string or a list') }).nullable(),
    )
    .optional();
}

/** Any JSON value (fields whose type the spec leaves unspecified). */
export function anyValue() {
  return withFast(z.unknown().optional(), (v) => v);
}
