import { z } from 'zod';
import { formatPath, formatZodIssues } from '../../connectors/platform/schemas';

describe('formatZodIssues', () => {
  it("rewrites zod's default type messages into field-named ones", () => {
    const schema = z.object({ name: z.string(), age: z.number(), tags: z.array(z.string()) });
    const r = schema.safeParse({ age: 'old', tags: ['a', 5] });
    expect(formatZodIssues(r.error!)).toEqual([
      'name: required',
      'age: must be a number',
      'tags[1]: must be a string',
    ]);
  });

  it('describes a failed union without echoing the input', () => {
    const r = z.object({ v: z.union([z.string(), z.number()]) }).safeParse({ v: { secret: 'hunter2' } });
    const messages = formatZodIssues(r.error!);
    expect(messages).toEqual(['v: does not match any accepted form']);
    expect(messages.join()).not.toContain('hunter2');
  });

  it('lists unknown keys of strict objects and drops duplicate messages', () => {
    const r = z.strictObject({ a: z.string() }).safeParse({ a: 'x', b: 1, c: 2 });
    expect(formatZodIssues(r.error!)).toEqual(['body: unknown field(s) b, c']);
    const dup = { issues: [...r.error!.issues, ...r.error!.issues] };
    expect(formatZodIssues(dup)).toHaveLength(1);
  });
});

describe('formatPath', () => {
  it('renders nested paths', () => {
    expect(formatPath([])).toBe('body');
    expect(formatPath(['to'])).toBe('to');
    expect(formatPath([0, 'id'])).toBe('[0].id');
    expect(formatPath(['data', 3, 'frequency', 'day_of_week', 0])).toBe('data[3].frequency.day_of_week[0]');
  });
});
