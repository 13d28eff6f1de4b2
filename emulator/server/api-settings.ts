// How the API lists collections beyond what the spec says (POST /_emulator/api): the order of a request
// that names no `sort`, and a cap on the rows of one page. Both are off by default (id ascending, pages as
// long as `limit`); the real platform's own CLI lists newest first, and a community tap that asks 10000
// rows gets 5000, so a client must not lean on either.
import { z } from 'zod';

/** The spec's maximum entries per page. */
export const MAX_LIMIT = 5000;

/** Body of POST /_emulator/api: only the fields given change. */
export const apiSettingsBody = z.strictObject({
  /** Order of a collection when the request gives neither `sort` nor `dir`: by id, ascending or descending. */
  default_order: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional(),
  /** At most this many rows per page whatever `limit` asks; null: pages are as long as `limit`. */
  page_cap: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(MAX_LIMIT, `must be at most ${MAX_LIMIT}`)
    .nullable()
    .optional(),
});
export type ApiSettingsInput = z.infer<typeof apiSettingsBody>;

/** How the API lists collections. */
export interface ApiSettings {
  default_order: 'asc' | 'desc';
  page_cap: number | null;
}

/** The spec's world: id ascending, pages as long as asked. */
export const DEFAULT_API_SETTINGS: Readonly<ApiSettings> = { default_order: 'asc', page_cap: null };

/** The settings after a change (fields left out keep their value). */
export function applyApiSettings(current: ApiSettings, input: ApiSettingsInput): ApiSettings {
  return {
    default_order: input.default_order ?? current.default_order,
    page_cap: input.page_cap !== undefined ? input.page_cap : current.page_cap,
  };
}
