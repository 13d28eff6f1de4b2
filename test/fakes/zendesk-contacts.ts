// What the two-way contact sync asks of the fake Zendesk, beside zendesk-users.ts: the users list
// with cursor pagination, the Incremental User Export (cursor based), user updates, and user fields.
// Each rule cites its page where it is enforced. The exports' own rate limit (10 a minute) is counted
// by the server (zendesk-server.ts), besides the account's.
import { badRequest, invalid, notFound, userJson, type FakeUser, type ZendeskState } from './zendesk-state';

type Json = Record<string, unknown>;

/**
 * Cursor pagination: page[size] at most 100 (https://developer.zendesk.com/api-reference/introduction/pagination/#using-cursor-pagination).
 */
export const LIST_PAGE_MAX = 100;
/** Incremental exports: at most 1,000 items a page (per_page), the default too. */
export const EXPORT_PAGE_MAX = 1000;
/**
 * "Any items that were created or changed within the minute prior to your request are excluded"
 * (https://developer.zendesk.com/documentation/ticketing/managing-tickets/using-the-incremental-export-api).
 */
export const EXPORT_EXCLUDES_MS = 60_000;

export interface FakeUserField {
  id: number;
  key: string;
  type: string;
  title: string;
  description: string;
  active: boolean;
}

const USER_FIELD_TYPES = [
  'checkbox',
  'date',
  'decimal',
  'dropdown',
  'integer',
  'lookup',
  'multiselect',
  'regexp',
  'text',
  'textarea',
];

const timeOf = (u: FakeUser): number => Date.parse(u.updated_at);

/** A user's place in the export: its change time, then the order of changes, then its id. */
interface Place {
  t: number;
  seq: number;
  id: number;
}
const encode = (p: Place): string => Buffer.from(`${p.t}:${p.seq}:${p.id}`).toString('base64url');
function decode(cursor: string): Place {
  const [t, seq, id] = Buffer.from(cursor, 'base64url').toString('utf8').split(':').map(Number);
  if (!Number.isFinite(t) || !Number.isFinite(seq) || !Number.isFinite(id))
    throw badRequest('InvalidCursor', 'cursor is invalid');
  return { t: t!, seq: seq!, id: id! };
}
const compare = (a: Place, b: Place): number => a.t - b.t || a.seq - b.seq || a.id - b.id;

export class FakeContacts {
  readonly userFields: FakeUserField[] = [];
  /**
   * The order of changes made through the API or by an agent (changed()): updated_at has whole
   * seconds, and a change made after an export must come after its cursor even within its second.
   */
  private readonly seqOf = new WeakMap<FakeUser, number>();
  private seq = 0;

  constructor(
    private readonly state: ZendeskState,
    /** How long a change stays out of the export (Zendesk: a minute); tests may shorten it. */
    private readonly exportExcludesMs: number = EXPORT_EXCLUDES_MS,
  ) {}

  private page(query: URLSearchParams, key: string, max: number): number {
    const size = query.get(key);
    const n = size === null ? max : Number(size);
    if (!Number.isInteger(n) || n < 1 || n > max)
      throw badRequest('InvalidPaginationParameter', `${key} must be between 1 and ${max}`);
    return n;
  }

  /**
   * GET /api/v2/users?role=end-user, cursor paginated by id
   * (https://developer.zendesk.com/api-reference/ticketing/users/users/#list-users): active users only
   * (deleted users are listed by /api/v2/deleted_users).
   */
  list(query: URLSearchParams, origin: string): Json {
    const role = query.get('role');
    const n = this.page(query, 'page[size]', LIST_PAGE_MAX);
    const after = Number(query.get('page[after]') ?? 0);
    const all = [...this.state.users.values()]
      .filter((u) => u.active && (role === null || u.role === role))
      .sort((a, b) => a.id - b.id);
    const page = all.filter((u) => u.id > after).slice(0, n);
    const last = page.at(-1);
    const hasMore = last !== undefined && all.some((u) => u.id > last.id);
    const params = { ...(role ? { role } : {}), 'page[size]': String(n), 'page[after]': String(last?.id) };
    return {
      users: page.map(userJson),
      meta: { has_more: hasMore, after_cursor: hasMore ? String(last.id) : null, before_cursor: null },
      links: {
        next: hasMore ? `${origin}/api/v2/users.json?${new URLSearchParams(params).toString()}` : null,
        prev: null,
      },
    };
  }

  /**
   * GET /api/v2/incremental/users/cursor?start_time= | cursor= (Incremental User Export, Cursor
   * Based: https://developer.zendesk.com/api-reference/ticketing/ticket-management/incremental_exports/#incremental-user-export-cursor-based):
   * users of every role (the fake lists deleted ones too, active false: a reader must not take every
   * exported user for a live one), oldest change first, up to per_page (1,000);
   * after_url/after_cursor go on, end_of_stream says nothing more has changed yet.
   */
  exportCursor(query: URLSearchParams, origin: string): Json {
    const n = this.page(query, 'per_page', EXPORT_PAGE_MAX);
    const cursor = query.get('cursor');
    const startTime = query.get('start_time');
    let from: Place;
    if (cursor !== null) from = decode(cursor);
    else if (startTime !== null && /^\d+$/.test(startTime))
      from = { t: Number(startTime) * 1000, seq: -1, id: -1 };
    else throw badRequest('InvalidValue', 'start_time or cursor is required');
    const until = Date.now() - this.exportExcludesMs;
    const all = [...this.state.users.values()]
      .filter((u) => timeOf(u) <= until && compare(this.placeOf(u), from) > 0)
      .sort((a, b) => compare(this.placeOf(a), this.placeOf(b)));
    const page = all.slice(0, n);
    const last = page.at(-1);
    const after = encode(last ? this.placeOf(last) : from);
    const afterUrl = `${origin}/api/v2/incremental/users/cursor.json?${new URLSearchParams({
      cursor: after,
      ...(query.has('per_page') ? { per_page: String(n) } : {}),
    }).toString()}`;
    return {
      users: page.map(userJson),
      after_cursor: after,
      after_url: afterUrl,
      before_cursor: null,
      before_url: null,
      end_of_stream: all.length <= n,
    };
  }

  /**
   * PUT /api/v2/users/{id} (https://developer.zendesk.com/api-reference/ticketing/users/users/#update-user):
   * the properties given change, updated_at moves. `email` is writable on create only ("On update, a
   * secondary email is added"): the primary stays. user_fields values are kept for keys a user field has.
   */
  update(id: number, body: unknown): FakeUser {
    const u = this.state.users.get(id);
    if (!u || !u.active) throw notFound();
    const given = (body as { user?: Json } | null)?.user;
    if (typeof given !== 'object' || given === null)
      throw badRequest('InvalidEndpoint', 'Parameter user is required');
    if ('name' in given && (typeof given.name !== 'string' || !given.name.trim()))
      throw invalid('name', 'Name: is too short (minimum one character)');
    if (typeof given.name === 'string') u.name = given.name;
    if ('phone' in given) u.phone = typeof given.phone === 'string' ? given.phone : null;
    if ('notes' in given) u.notes = typeof given.notes === 'string' ? given.notes : null;
    if (typeof given.email === 'string' && u.email === null) u.email = given.email.toLowerCase();
    this.setUserFields(u, body);
    this.changed(u);
    return u;
  }

  /** A user changed now (through the API, or by an agent in the UI): updated_at moves. */
  changed(u: FakeUser): void {
    u.updated_at = this.state.now();
    this.seqOf.set(u, ++this.seq);
  }

  private placeOf(u: FakeUser): Place {
    return { t: timeOf(u), seq: this.seqOf.get(u) ?? 0, id: u.id };
  }

  /** A create's or update's user_fields: values kept for keys a user field has, null clears. */
  setUserFields(u: FakeUser, body: unknown): void {
    const fields = (body as { user?: { user_fields?: unknown } } | null)?.user?.user_fields;
    if (typeof fields !== 'object' || fields === null) return;
    for (const [key, value] of Object.entries(fields as Json)) {
      if (!this.userFields.some((f) => f.key === key)) continue;
      if (value === null || value === '') delete u.user_fields[key];
      else u.user_fields[key] = value;
    }
  }

  /** GET /api/v2/user_fields (https://developer.zendesk.com/api-reference/ticketing/users/user_fields/#list-user-fields). */
  listFields(): Json {
    return {
      user_fields: this.userFields,
      next_page: null,
      previous_page: null,
      count: this.userFields.length,
    };
  }

  /**
   * POST /api/v2/user_fields (https://developer.zendesk.com/api-reference/ticketing/users/user_fields/#create-user-field):
   * type, key and title are required; a key is unique.
   */
  createField(body: unknown): FakeUserField {
    const f = (body as { user_field?: Json } | null)?.user_field;
    if (typeof f !== 'object' || f === null)
      throw badRequest('InvalidEndpoint', 'Parameter user_field is required');
    if (typeof f.type !== 'string' || !USER_FIELD_TYPES.includes(f.type))
      throw invalid('type', 'Type: is invalid');
    if (typeof f.key !== 'string' || !/^[a-z0-9_]+$/i.test(f.key)) throw invalid('key', 'Key: is invalid');
    if (typeof f.title !== 'string' || !f.title.trim()) throw invalid('title', 'Title: cannot be blank');
    if (this.userFields.some((x) => x.key === f.key)) throw invalid('key', 'Key: has already been taken');
    const field: FakeUserField = {
      id: this.state.nextId(),
      key: f.key,
      type: f.type,
      title: f.title,
      description: typeof f.description === 'string' ? f.description : '',
      active: true,
    };
    this.userFields.push(field);
    return field;
  }
}
