// The three response envelopes of the spec: collection, single resource, error.
import { z } from 'zod';
import { int, problem } from './primitives';

/**
 * Collection GET: `{data: item[], total}`. `total` may be absent or null (callers then stop on a
 * short page), and `data: null` is read as an empty page. Pass `z.unknown()` as the item to parse
 * records one by one and quarantine the bad ones instead of failing the page.
 */
export function collectionEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({
    data: z.preprocess((v) => (v === null ? [] : v), z.array(item, { error: problem('must be a list') })),
    total: int(),
  });
}

/** Single resource: `{data, links}`; missing links, or PHP's empty-array form `[]`, become `{}`. */
export function singleEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({
    data: item,
    links: z
      .preprocess(
        (v) => (v == null || (Array.isArray(v) && v.length === 0) ? {} : v),
        z.record(z.string(), z.unknown(), { error: problem('must be an object') }),
      )
      .optional()
      .transform((v) => v ?? {}),
  });
}

/**
 * Error body: `{message, errors}`. Entries of `errors` may be strings or objects (the spec does not
 * show them); a missing list becomes `[]`, a single entry or an object map is wrapped in a list.
 */
export const errorBodySchema = z.looseObject({
  message: z.preprocess(
    (v) => (v == null ? '' : typeof v === 'number' ? String(v) : v),
    z.string({ error: 'must be a string' }),
  ),
  errors: z.preprocess((v): unknown => (v == null ? [] : Array.isArray(v) ? v : [v]), z.array(z.unknown())),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
