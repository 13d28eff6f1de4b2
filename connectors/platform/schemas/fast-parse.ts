// Record schemas with a hand-written fast path, for parsing thousands of records of one schema (a
// collection page). A page's records almost always arrive with every field already of its target
// type; for those the fast path builds the same output zod would, without zod's per-field
// machinery. Anything else (a numeric string, a zero date, a missing id…) is handed to the schema
// itself, so results, issues and messages are exactly the schema's.
import { z } from 'zod';
import { fastFieldOf, type FastField } from './primitives';

const INVALID: unknown = z.INVALID;

interface ObjectDef {
  type: string;
  shape: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  checks?: unknown[];
}

/**
 * The fast path of a `z.looseObject` whose fields all come from primitives.ts builders: the
 * parsed record, or `z.INVALID` to leave the record to the schema. Undefined for any other schema.
 */
export function fastRecordParser(schema: z.ZodType): ((input: unknown) => unknown) | undefined {
  const def = schema._zod.def as unknown as ObjectDef;
  // A loose object's catchall is z.unknown(): extra keys are kept as sent.
  if (def.type !== 'object' || def.catchall?._zod.def.type !== 'unknown') return undefined;
  // The fast path stands in for the whole parse, so the object must have no checks of its own.
  if ((def.checks?.length ?? 0) > 0) return undefined;
  const keys = Object.keys(def.shape);
  if (Object.getOwnPropertySymbols(def.shape).length > 0 || keys.includes('__proto__')) return undefined;
  const fields: FastField[] = [];
  const optional: boolean[] = [];
  for (const key of keys) {
    const field = def.shape[key] as z.ZodType;
    const fast = fastFieldOf(field);
    if (!fast) return undefined;
    fields.push(fast);
    // Absent optional fields stay absent, as in zod's output.
    optional.push(field._zod.optin === 'optional' && field._zod.optout === 'optional');
  }
  const known = new Set(keys);
  // Generated, so every property access names its key and stays a monomorphic inline cache (a
  // loop over keys makes each access a slow keyed lookup, which costs more than the checks).
  // A page's records almost always arrive with every field already in its parsed form: then the
  // record itself is the result (zod would return a copy with the same keys and values), which
  // spares a page a second object per record. Otherwise the result is built as zod builds it.
  const checks = keys.map((key, i) => {
    const k = JSON.stringify(key);
    const absent = optional[i] ? '' : ' else return INVALID;';
    return `if (${k} in input) { x = input[${k}]; v = f${i}(x); if (v === INVALID) return INVALID; if (v !== x) same = false; }${absent}`;
  });
  const copies = keys.map((key, i) => {
    const k = JSON.stringify(key);
    return `if (${k} in input) out[${k}] = f${i}(input[${k}]);`;
  });
  const body = [
    'return function fastRecord(input) {',
    "if (typeof input !== 'object' || input === null || Array.isArray(input)) return INVALID;",
    'let same = Object.getPrototypeOf(input) === Object.prototype && !hasOwn(input, "__proto__");',
    'let x, v;',
    ...checks,
    'if (same) return input;',
    'const out = {};',
    ...copies,
    // Extra keys, in the order zod copies them (for…in, known keys and __proto__ skipped).
    "for (const key in input) { if (known.has(key) || key === '__proto__') continue; out[key] = input[key]; }",
    'return out;',
    '};',
  ].join('\n');
  const names = ['INVALID', 'known', 'hasOwn', ...fields.map((_, i) => `f${i}`)];
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from the schema's own keys
  const make = new Function(...names, body) as (...args: unknown[]) => (input: unknown) => unknown;
  return make(INVALID, known, Object.hasOwn, ...fields);
}

const compiled = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The schema with a fast path for bulk parsing, made once per schema: the hand-written one when
 * `fastRecordParser` can build it, else zod's generated one (`z.compile`). Either falls back to the
 * schema's own parser for any input its fast path does not accept.
 */
export function bulkSchema<S extends z.ZodType>(schema: S): S {
  let out = compiled.get(schema);
  if (!out) {
    const parser = fastRecordParser(schema);
    out = parser ? z.withParser(schema, parser as (input: unknown) => z.output<S>) : z.compile(schema);
    compiled.set(schema, out);
  }
  return out as S;
}
