import { z } from 'zod';
import {
  bool,
  code,
  date,
  formatZodIssues,
  int,
  intId,
  list,
  num,
  str,
  strEnum,
  strId,
  textOrList,
} from '../../connectors/platform/schemas';

/** Parses `value` as field `f` of an object, returning the field or the issue messages. */
function field(
  schema: z.ZodType,
  value: unknown,
): { ok: true; value: unknown } | { ok: false; errors: string[] } {
  const r = z.looseObject({ f: schema }).safeParse(value === undefined ? {} : { f: value });
  return r.success
    ? { ok: true, value: (r.data as { f?: unknown }).f }
    : { ok: false, errors: formatZodIssues(r.error) };
}

describe('int()', () => {
  it.each([
    [42, 42],
    ['42', 42],
    [' 7 ', 7],
    ['-3', -3],
    ['4.0', 4],
    ['', null],
    [null, null],
    [undefined, undefined],
  ])('reads %p as %p', (input, expected) => {
    expect(field(int(), input)).toEqual({ ok: true, value: expected });
  });

  it.each([['abc'], ['1.5'], [1.5], [true], [{}], [[1]], ['0x10']])(
    'rejects %p naming the field',
    (input) => {
      expect(field(int(), input)).toEqual({ ok: false, errors: ['f: must be an integer'] });
    },
  );
});

describe('num()', () => {
  it('reads numeric strings and numbers', () => {
    expect(field(num(), '0.0125')).toEqual({ ok: true, value: 0.0125 });
    expect(field(num(), 3)).toEqual({ ok: true, value: 3 });
    expect(field(num(), '1e-3')).toEqual({ ok: true, value: 0.001 });
  });
  it('rejects non-numbers', () => {
    expect(field(num(), '12 EUR')).toEqual({ ok: false, errors: ['f: must be a number'] });
  });
});

describe('str()', () => {
  it('keeps strings and stringifies numbers and booleans', () => {
    expect(field(str(), 'Alice')).toEqual({ ok: true, value: 'Alice' });
    expect(field(str(), 12)).toEqual({ ok: true, value: '12' });
    expect(field(str(), false)).toEqual({ ok: true, value: 'false' });
    expect(field(str(), '')).toEqual({ ok: true, value: '' });
  });
  it('rejects objects and arrays', () => {
    expect(field(str(), { a: 1 })).toEqual({ ok: false, errors: ['f: must be a string'] });
    expect(field(str(), ['a'])).toEqual({ ok: false, errors: ['f: must be a string'] });
  });
});

describe('bool()', () => {
  it.each([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    ['1', true],
    ['0', false],
    ['true', true],
    ['FALSE', false],
    ['', null],
    [null, null],
  ])('reads %p as %p', (input, expected) => {
    expect(field(bool(), input)).toEqual({ ok: true, value: expected });
  });
  it.each([[2], ['yes please'], [{}]])('rejects %p', (input) => {
    expect(field(bool(), input)).toEqual({ ok: false, errors: ['f: must be a boolean'] });
  });
});

describe('date()', () => {
  it('keeps the platform string as it is', () => {
    expect(field(date(), '2026-10-30 09:15:02')).toEqual({ ok: true, value: '2026-10-30 09:15:02' });
    expect(field(date(), '2026-10-30')).toEqual({ ok: true, value: '2026-10-30' });
    expect(field(date(), '2026-10-30T09:15:02Z')).toEqual({ ok: true, value: '2026-10-30T09:15:02Z' });
  });
  it('reads the zero date and "" as null', () => {
    expect(field(date(), '0000-00-00 00:00:00')).toEqual({ ok: true, value: null });
    expect(field(date(), '')).toEqual({ ok: true, value: null });
  });
  it('rejects what is not a date', () => {
    expect(field(date(), 'yesterday')).toEqual({
      ok: false,
      errors: ['f: must be a date (YYYY-MM-DD HH:MM:SS)'],
    });
    expect(field(date(), {})).toEqual({ ok: false, errors: ['f: must be a date (YYYY-MM-DD HH:MM:SS)'] });
  });
});

describe('strEnum()', () => {
  const direction = strEnum(['in', 'out'], { 0: 'in', 1: 'out' });
  it('maps integer codes and numeric strings through the code table', () => {
    expect(field(direction, 1)).toEqual({ ok: true, value: 'out' });
    expect(field(direction, '0')).toEqual({ ok: true, value: 'in' });
  });
  it('keeps unmapped codes as their string form and unknown strings as sent', () => {
    expect(field(direction, 9)).toEqual({ ok: true, value: '9' });
    expect(field(direction, 'sideways')).toEqual({ ok: true, value: 'sideways' });
  });
  it('normalises the case of known values', () => {
    expect(field(direction, 'OUT')).toEqual({ ok: true, value: 'out' });
  });
  it('rejects objects', () => {
    expect(field(direction, { v: 'in' })).toEqual({ ok: false, errors: ['f: must be a string'] });
  });
});

describe('code()', () => {
  it('turns numeric strings into numbers and keeps other strings', () => {
    expect(field(code(), '3')).toEqual({ ok: true, value: 3 });
    expect(field(code(), 'ringall')).toEqual({ ok: true, value: 'ringall' });
  });
  it('rejects objects', () => {
    expect(field(code(), {})).toEqual({ ok: false, errors: ['f: must be an integer code or a string'] });
  });
});

describe('list()', () => {
  it.each([
    [
      ['ROLE_ADMIN', 'ROLE_USER'],
      ['ROLE_ADMIN', 'ROLE_USER'],
    ],
    ['ROLE_ADMIN, ROLE_USER', ['ROLE_ADMIN', 'ROLE_USER']],
    ['["admin","phone"]', ['admin', 'phone']],
    ['', []],
    [
      [1, 2],
      ['1', '2'],
    ],
    [null, null],
  ])('reads %p as %p', (input, expected) => {
    expect(field(list(), input)).toEqual({ ok: true, value: expected });
  });
  it('rejects an object', () => {
    expect(field(list(), { a: 1 })).toEqual({ ok: false, errors: ['f: must be a list'] });
  });
});

describe('textOrList()', () => {
  it('keeps strings and arrays as sent', () => {
    expect(field(textOrList(), 'a@example.com,b@example.com')).toEqual({
      ok: true,
      value: 'a@example.com,b@example.com',
    });
    expect(field(textOrList(), ['a@example.com'])).toEqual({ ok: true, value: ['a@example.com'] });
  });
});

describe('id builders', () => {
  it('intId() requires an integer and reads numeric strings', () => {
    expect(field(intId(), '1042')).toEqual({ ok: true, value: 1042 });
    expect(field(intId(), undefined)).toEqual({ ok: false, errors: ['f: required'] });
    expect(field(intId(), null)).toEqual({ ok: false, errors: ['f: required'] });
  });
  it('strId() keeps numbers as strings and requires a value', () => {
    expect(field(strId(), 442071234567)).toEqual({ ok: true, value: '442071234567' });
    expect(field(strId(), '')).toEqual({ ok: false, errors: ['f: required'] });
  });
});
