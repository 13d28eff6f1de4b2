// The parts of Pipedrive's answers the connector reads, as zod schemas (a schema failure is a
// CrmError naming the request, not a crash deep in the connector).
import { z } from 'zod';
import { CrmError } from '../crm/errors';
import { DESTINATION } from './errors';

const id = z.number().int();

export const activitySchema = z.object({
  id,
  type: z.string().nullish(),
  note: z.string().nullish(),
  person_id: id.nullish(),
  update_time: z.string().nullish(),
});

/** A page of a v2 list: its items and the next page's cursor. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item).nullish(),
    additional_data: z.object({ next_cursor: z.string().nullish() }).nullish(),
  });
}

/** A page of a v1 list: its items and whether more follow. */
export function v1PageOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item).nullish(),
    additional_data: z
      .object({
        pagination: z
          .object({ more_items_in_collection: z.boolean().nullish(), next_start: z.number().nullish() })
          .nullish(),
      })
      .nullish(),
  });
}

export const oneSchema = z.object({ data: z.object({ id }) });
/** One activity (GET /api/v2/activities/{id}). */
export const activityAnswerSchema = z.object({ data: activitySchema });

export const personHitSchema = z.object({
  item: z.object({
    id,
    name: z.string().nullish(),
    phones: z.array(z.string()).nullish(),
    emails: z.array(z.string()).nullish(),
    owner: z.object({ id }).nullish(),
  }),
});

export const searchPageSchema = z.object({
  data: z.object({ items: z.array(personHitSchema).nullish() }).nullish(),
  additional_data: z.object({ next_cursor: z.string().nullish() }).nullish(),
});

export const personSchema = z.object({
  id,
  name: z.string().nullish(),
  owner_id: id.nullish(),
  update_time: z.string().nullish(),
});

export const noteSchema = z.object({ id, content: z.string().nullish() });

export const callLogSchema = z.object({ id: z.string(), activity_id: id.nullish() });

export const userSchema = z.object({ id, email: z.string().nullish(), active_flag: z.boolean().nullish() });

/** `body` parsed by `schema`, or a CrmError naming the request. */
export function parseAnswer<T extends z.ZodType>(schema: T, body: unknown, what: string): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new CrmError({
    destination: DESTINATION,
    message: `${what}: unexpected answer (${parsed.error.issues[0]?.path.join('.') ?? '?'}: ${parsed.error.issues[0]?.message ?? ''})`,
    retryable: false,
  });
}

/** Pipedrive's update_time ("YYYY-MM-DD HH:MM:SS" UTC, or ISO 8601) as ISO 8601. */
export function isoOf(time: string | null | undefined): string | null {
  if (!time) return null;
  const ms = Date.parse(/^\d{4}-\d\d-\d\d \d/.test(time) ? `${time.replace(' ', 'T')}Z` : time);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

type Maybe<T> = T | null | undefined;

/** A page of a v1 list as parsed. */
interface V1PageLike<T> {
  data?: Maybe<T[]>;
  additional_data?: Maybe<{
    pagination?: Maybe<{ more_items_in_collection?: Maybe<boolean>; next_start?: Maybe<number> }>;
  }>;
}

/** A page of a v2 list as parsed. */
interface V2PageLike<T> {
  data?: Maybe<T[]>;
  additional_data?: Maybe<{ next_cursor?: Maybe<string> }>;
}

/** A v1 list's pages (start and limit) as an async iterable of their items. */
export async function* v1Pages<T>(load: (start: number) => Promise<V1PageLike<T>>): AsyncGenerator<T[]> {
  for (let start = 0; ;) {
    const page = await load(start);
    yield page.data ?? [];
    const next = page.additional_data?.pagination;
    if (!next?.more_items_in_collection || next.next_start == null) return;
    start = next.next_start;
  }
}

/** A v2 list's pages (opaque cursor) as an async iterable of their items. */
export async function* v2Pages<T>(
  load: (cursor: string | undefined) => Promise<V2PageLike<T>>,
): AsyncGenerator<T[]> {
  let cursor: string | undefined;
  do {
    const page = await load(cursor);
    yield page.data ?? [];
    cursor = page.additional_data?.next_cursor ?? undefined;
  } while (cursor);
}
