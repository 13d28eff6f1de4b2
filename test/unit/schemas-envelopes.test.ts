import { z } from 'zod';
import {
  cdrSchema,
  collectionEnvelope,
  errorBodySchema,
  formatZodIssues,
  singleEnvelope,
  userSchema,
} from '../../connectors/platform/schemas';

describe('collectionEnvelope', () => {
  const cdrPage = collectionEnvelope(cdrSchema);

  it('reads data and total, parsing each item', () => {
    const page = cdrPage.parse({
      data: [
        { id: 1, type: 'I', calldate: '2026-10-30 09:15:02' },
        { id: '2', type: 2, calldate: '2026-10-30 09:16:40' },
      ],
      total: '1532',
    });
    expect(page.total).toBe(1532);
    expect(page.data.map((c) => [c.id, c.type])).toEqual([
      [1, 'I'],
      [2, 'M'],
    ]);
  });

  it('reads data: null as an empty page and tolerates a missing total', () => {
    expect(cdrPage.parse({ data: null })).toEqual({ data: [] });
  });

  it('names the bad item and field', () => {
    const r = cdrPage.safeParse({ data: [{ id: 1 }, { calldate: '2026-10-30 09:15:02' }], total: 2 });
    expect(r.success).toBe(false);
    expect(formatZodIssues(r.error!)).toEqual(['data[1].id: required']);
  });

  it('requires data', () => {
    const r = cdrPage.safeParse({ total: 0 });
    expect(formatZodIssues(r.error!)).toEqual(['data: required']);
  });

  it('lets callers take items raw, to quarantine bad records one by one', () => {
    const raw = collectionEnvelope(z.unknown()).parse({ data: [{ id: 1 }, { calldate: {} }], total: 2 });
    expect(raw.data.map((item) => cdrSchema.safeParse(item).success)).toEqual([true, false]);
  });
});

describe('singleEnvelope', () => {
  const single = singleEnvelope(userSchema);

  it('reads data and links', () => {
    const r = single.parse({ data: { id: 12, customer: 3 }, links: { self: '/users/12' } });
    expect(r.data.customer_id_id).toBe(3);
    expect(r.links).toEqual({ self: '/users/12' });
  });

  it('defaults missing links and PHP-style [] links to {}', () => {
    expect(single.parse({ data: { id: 12 } }).links).toEqual({});
    expect(single.parse({ data: { id: 12 }, links: [] }).links).toEqual({});
  });

  it('rejects links that are not an object', () => {
    expect(formatZodIssues(single.safeParse({ data: { id: 1 }, links: 'x' }).error!)).toEqual([
      'links: must be an object',
    ]);
  });
});

describe('errorBodySchema', () => {
  it('reads message and string or object errors', () => {
    const body = {
      message: 'Validation error',
      errors: ['to: must be an E.164 number', { field: 'message' }],
    };
    expect(errorBodySchema.parse(body)).toEqual(body);
  });

  it('defaults errors to [] and message to ""', () => {
    expect(errorBodySchema.parse({ message: 'Access denied' })).toEqual({
      message: 'Access denied',
      errors: [],
    });
    expect(errorBodySchema.parse({})).toEqual({ message: '', errors: [] });
  });

  it('wraps an errors object in a list', () => {
    expect(errorBodySchema.parse({ message: 'x', errors: { to: ['invalid'] } }).errors).toEqual([
      { to: ['invalid'] },
    ]);
  });
});
