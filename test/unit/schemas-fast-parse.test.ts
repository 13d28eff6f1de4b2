// The bulk fast path of record schemas (fast-parse.ts, the fast paths of primitives.ts) must give
// exactly what the schema gives: same success, same output (values, key presence, key order).
import { z } from 'zod';
import * as schemas from '../../connectors/platform/schemas';
import {
  anyId,
  anyValue,
  bool,
  bulkSchema,
  cdrSchema,
  code,
  date,
  fastFieldOf,
  fastRecordParser,
  int,
  intId,
  list,
  num,
  str,
  strEnum,
  strId,
} from '../../connectors/platform/schemas';

// Values of every kind a response can send, the awkward ones included.
const VALUES: unknown[] = [
  undefined,
  null,
  0,
  -0,
  1,
  -7,
  42,
  1.5,
  2 ** 53 - 1,
  2 ** 53,
  -(2 ** 53),
  1e21,
  NaN,
  Infinity,
  -Infinity,
  true,
  false,
  '',
  ' ',
  'x',
  '42',
  ' 7 ',
  '1.5',
  'abc',
  'in',
  'IN',
  'out',
  'In ',
  'CONNECTED',
  'connected',
  'true',
  '0',
  '2026-10-30 09:15:02',
  '2026-10-30',
  '2026-10-30T09:15:02Z',
  ' 2026-10-30 09:15:02',
  '2026-10-30 09:15:02\n',
  '0000-00-00 00:00:00',
  '0000-00-00',
  '0000-00-00 12:00:00',
  '2026-13-45 99:99:99',
  [],
  ['a'],
  {},
  { a: 1 },
];

const BUILDERS: [string, () => z.ZodType][] = [
  ['intId', intId],
  ['strId', strId],
  ['anyId', anyId],
  ['int', int],
  ['num', num],
  ['str', str],
  ['bool', bool],
  ['date', date],
  ['strEnum', () => strEnum(['in', 'out', 'CONNECTED'], { 0: 'in', 1: 'out', 7: 'CONNECTED' })],
  ['code', code],
  ['anyValue', anyValue],
  ['deprecated int', () => int().meta({ deprecated: true })],
];

/** What a schema makes of `input`, in a comparable form (undefined and -0 kept apart). */
function outcome(schema: z.ZodType, input: unknown): unknown {
  const r = schema.safeParse(input);
  if (!r.success) return { ok: false, issues: r.error.issues.map((i) => [i.path.join('.'), i.message]) };
  // Keys in any order: the fast path hands back a record that needs no change as it came (zod
  // would copy it, known keys first), and nothing reads a record's key order.
  const data = r.data as Record<string, unknown>;
  const keys = Object.keys(data).sort();
  return { ok: true, keys, values: keys.map((k) => shown(data[k])) };
}

function shown(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (Object.is(v, -0)) return '-0';
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return `${typeof v}:${JSON.stringify(v)}`;
}

describe('field fast paths', () => {
  it.each(BUILDERS)('%s: answers only what the schema answers', (_name, build) => {
    const schema = build();
    const fast = fastFieldOf(schema);
    expect(fast).toBeDefined();
    let answered = 0;
    for (const value of VALUES) {
      const answer = (fast as (v: unknown) => unknown)(value);
      if (answer === z.INVALID) continue;
      answered++;
      const r = z.looseObject({ f: schema }).safeParse({ f: value });
      expect({ value, ok: r.success }).toEqual({ value, ok: true });
      expect(shown(answer)).toBe(shown((r.data as { f?: unknown }).f));
    }
    expect(answered).toBeGreaterThan(1);
  });

  it('wrapped fields have no fast path', () => {
    expect(fastFieldOf(int().nullable())).toBeUndefined();
    expect(fastFieldOf(list())).toBeUndefined();
  });
});

describe('record fast path', () => {
  const record = z.looseObject({
    id: intId(),
    n: int(),
    s: str(),
    d: date(),
    b: bool(),
    e: strEnum(['in', 'out'], { 0: 'in', 1: 'out' }),
    any: anyValue(),
  });
  const bulk = bulkSchema(record);

  it('is built for loose objects of builder fields only', () => {
    expect(fastRecordParser(record)).toBeDefined();
    expect(fastRecordParser(cdrSchema)).toBeDefined();
    expect(fastRecordParser(z.object({ id: intId() }))).toBeUndefined();
    expect(fastRecordParser(z.looseObject({ id: intId(), l: list() }))).toBeUndefined();
    expect(fastRecordParser(record.refine(() => true))).toBeUndefined();
    expect(bulkSchema(record)).toBe(bulk);
  });

  it('gives the schema’s result for every mix of values, absent and extra keys', () => {
    const keys = ['id', 'n', 's', 'd', 'b', 'e', 'any'];
    const inputs: unknown[] = [null, 1, 'x', [], [{ id: 1 }]];
    for (let i = 0; i < VALUES.length; i++) {
      const input: Record<string, unknown> = { extra: i, id: 5 };
      for (let k = 0; k < keys.length; k++) {
        const v = VALUES[(i * 7 + k * 3) % VALUES.length];
        if ((i + k) % 5 !== 0) input[keys[k] as string] = v;
      }
      inputs.push(input);
      // Each field alone, with every value, on an otherwise valid record.
      for (const key of keys) inputs.push({ z: 1, id: 1, [key]: VALUES[i], a: 2 });
    }
    for (const input of inputs) expect(outcome(bulk, input)).toEqual(outcome(record, input));
  });

  it('hands back a record that needs no change as it came, and copies one that does', () => {
    const clean = JSON.parse('{"id":7,"n":3,"s":"x","extra":{"a":1}}') as object;
    expect(bulk.parse(clean)).toBe(clean);
    const coerced = JSON.parse('{"id":"7","n":3}') as object;
    const parsed = bulk.parse(coerced);
    expect(parsed).not.toBe(coerced);
    expect(parsed).toEqual({ id: 7, n: 3 });
    // An own __proto__ key (JSON.parse makes one) is never handed on, as zod drops it.
    const proto = JSON.parse('{"id":7,"__proto__":{"polluted":true}}') as object;
    const safe = bulk.parse(proto) as Record<string, unknown>;
    expect(safe).not.toBe(proto);
    expect(Object.hasOwn(safe, '__proto__')).toBe(false);
  });

  it('gives the schema’s result for every resource schema the warehouse reads', () => {
    const modelCdr = {
      id: 100234,
      duration: 74,
      type: 'O',
      calldate: '2026-10-30 09:15:02',
      disposition: 'CONNECTED',
      destination: 'out',
      rate: 0.035,
      charge: 0.245,
      is_root: true,
      extra_field: { nested: [1, 2] },
    };
    const variants = [modelCdr, { ...modelCdr, type: 1, calldate: '0000-00-00 00:00:00', rate: '0.5' }];
    for (const [name, schema] of Object.entries(schemas)) {
      if (!(schema instanceof z.ZodType) || !fastRecordParser(schema)) continue;
      for (const v of variants)
        expect([name, outcome(bulkSchema(schema), v)]).toEqual([name, outcome(schema, v)]);
    }
  });
});
