// Users and search in the fake Zendesk: create and delete users
// (https://developer.zendesk.com/api-reference/ticketing/users/users/), search users by e-mail or
// name (GET /api/v2/users/search), and the Search API's user queries (GET /api/v2/search) with the
// phone syntax Talk Partner Edition documents
// (https://developer.zendesk.com/documentation/voice/talk-partner-edition/retrieving-the-zendesk-user-id-of-a-caller/):
// `phone:<digits>` matches a phone whose digits are exactly those, `phone:*<digits>` one whose digits
// end with them; a '+', space or other non-digit in the number matches nothing.
import {
  ZendeskFakeError,
  badRequest,
  invalid,
  notFound,
  userJson,
  type FakeUser,
  type UserRole,
  type ZendeskState,
} from './zendesk-state';

/** Search results per page: per_page at most 100 (https://developer.zendesk.com/api-reference/ticketing/ticket-management/search/). */
export const SEARCH_PAGE_MAX = 100;
/**
 * The Search API returns at most 1,000 results per query; a page past them is a 422 (same page).
 * "It can take up to a few minutes for new tickets, users, and other resources to be indexed for
 * search" (same page): users created through the API are found after `searchLagMs`.
 */
export const SEARCH_RESULTS_MAX = 1000;

const ROLES: readonly UserRole[] = ['end-user', 'agent', 'admin'];

type Json = Record<string, unknown>;

const digitsOf = (phone: string | null): string => (phone ?? '').replace(/\D/g, '');

export class FakeUsers {
  constructor(
    private readonly state: ZendeskState,
    /** How long a user created through the API stays out of search results. */
    private readonly searchLagMs: number,
  ) {}

  /** A user as an agent made it (indexed already), or through the API (`indexed: false`). */
  add(input: {
    name: string;
    email?: string | null;
    phone?: string | null;
    role?: UserRole;
    updatedAt?: string;
    indexed?: boolean;
    externalId?: string | null;
    notes?: string | null;
  }): FakeUser {
    const now = this.state.now();
    const user: FakeUser = {
      id: this.state.nextId(),
      name: input.name,
      email: input.email ?? null,
      phone: input.phone ?? null,
      role: input.role ?? 'end-user',
      active: true,
      external_id: input.externalId ?? null,
      notes: input.notes ?? null,
      user_fields: {},
      created_at: now,
      updated_at: input.updatedAt ?? now,
      indexedAt: input.indexed === false ? Date.now() + this.searchLagMs : 0,
    };
    this.state.users.set(user.id, user);
    return user;
  }

  /** POST /api/v2/users: name is required; an e-mail another user has is refused. */
  create(body: unknown): FakeUser {
    const u = (body as { user?: Json } | null)?.user;
    if (typeof u !== 'object' || u === null)
      throw badRequest('InvalidEndpoint', 'Parameter user is required');
    if (typeof u.name !== 'string' || !u.name.trim())
      throw invalid('name', 'Name: is too short (minimum one character)');
    const role = (u.role ?? 'end-user') as UserRole;
    if (!ROLES.includes(role)) throw invalid('role', 'Role: is invalid');
    const email = typeof u.email === 'string' ? u.email.toLowerCase() : null;
    if (email && [...this.state.users.values()].some((x) => x.active && x.email === email))
      throw invalid('email', 'Email: is already being used by another user');
    // "external_id … must be unique" among the account's users (https://developer.zendesk.com/api-reference/ticketing/users/users/).
    const externalId = typeof u.external_id === 'string' ? u.external_id : null;
    if (externalId !== null && [...this.state.users.values()].some((x) => x.external_id === externalId))
      throw invalid('external_id', 'External: has already been taken');
    return this.add({
      name: u.name,
      email,
      phone: typeof u.phone === 'string' ? u.phone : null,
      role,
      indexed: false,
      externalId,
      notes: typeof u.notes === 'string' ? u.notes : null,
    });
  }

  /**
   * GET /api/v2/users/show_many?external_ids=a,b: the users with those external ids, read directly
   * (not through search), at most 100 (https://developer.zendesk.com/api-reference/ticketing/users/users/#show-many-users).
   */
  showMany(query: URLSearchParams): Json {
    const ids = (query.get('external_ids') ?? '').split(',').filter((s) => s !== '');
    if (ids.length === 0 || ids.length > 100)
      throw badRequest('InvalidEndpoint', 'ids or external_ids: between 1 and 100 values are required');
    const found = [...this.state.users.values()].filter(
      (u) => u.external_id !== null && ids.includes(u.external_id),
    );
    return { users: found.map(userJson) };
  }

  show(id: number): FakeUser {
    const u = this.state.users.get(id);
    if (!u || !u.active) throw notFound();
    return u;
  }

  /** DELETE /api/v2/users/{id}: the user is deactivated (soft-deleted) and answered. */
  delete(id: number): Json {
    const u = this.show(id);
    u.active = false;
    u.updated_at = this.state.now();
    return { user: userJson(u) };
  }

  /**
   * DELETE /api/v2/deleted_users/{id}: a deleted user is erased for good
   * (https://developer.zendesk.com/api-reference/ticketing/users/users/#permanently-delete-user);
   * an active user must be deleted first.
   */
  deletePermanently(id: number): Json {
    const u = this.state.users.get(id);
    if (!u || u.active) throw notFound();
    this.state.users.delete(id);
    return { deleted_user: { id, name: u.name, active: false } };
  }

  /** GET /api/v2/users/search?query=: users whose e-mail is the query or whose name contains it. */
  searchUsers(query: URLSearchParams): Json {
    const q = (query.get('query') ?? '').toLowerCase();
    if (!q) throw badRequest('InvalidEndpoint', 'query or external_id is required');
    const users = [...this.state.users.values()].filter(
      (u) => u.active && (u.email === q || u.name.toLowerCase().includes(q)),
    );
    return { users: users.map(userJson), next_page: null, previous_page: null, count: users.length };
  }

  /** GET /api/v2/search?query=type:user [role:…] phone:[*]digits, offset pagination. */
  search(query: URLSearchParams): Json {
    const q = query.get('query');
    if (!q) throw badRequest('InvalidSearchQuery', 'query is required');
    const perPage = Number(query.get('per_page') ?? SEARCH_PAGE_MAX);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > SEARCH_PAGE_MAX)
      throw badRequest('InvalidPaginationParameter', `per_page must be between 1 and ${SEARCH_PAGE_MAX}`);
    const page = Number(query.get('page') ?? 1);
    if (!Number.isInteger(page) || page < 1 || (page - 1) * perPage >= SEARCH_RESULTS_MAX)
      throw new ZendeskFakeError(422, {
        error: 'InsufficientResourceError',
        description: 'Page out of range',
      });
    const now = Date.now();
    let type: string | null = null;
    let role: string | null = null;
    let phone: { digits: string; suffix: boolean } | null = null;
    for (const term of q.trim().split(/\s+/)) {
      const [k, v] = term.split(/:(.*)/s) as [string, string | undefined];
      if (k === 'type' && v) type = v;
      else if (k === 'role' && v) role = v;
      else if (k === 'phone' && v) phone = { digits: v.replace(/^\*/, ''), suffix: v.startsWith('*') };
      // Only what callsync asks for is modelled: anything else is a mistake in the connector.
      else throw badRequest('InvalidSearchQuery', `the fake does not model the search term ${k}`);
    }
    if (type !== 'user') throw badRequest('InvalidSearchQuery', 'the fake models user searches only');
    const matches = [...this.state.users.values()]
      .filter((u) => u.active && u.indexedAt <= now && (role === null || u.role === role))
      .filter((u) => {
        if (!phone) return true;
        if (!/^\d+$/.test(phone.digits)) return false;
        const held = digitsOf(u.phone);
        return phone.suffix ? held.endsWith(phone.digits) : held === phone.digits;
      })
      .slice(0, SEARCH_RESULTS_MAX);
    const slice = matches.slice((page - 1) * perPage, page * perPage);
    return {
      results: slice.map((u) => ({ ...userJson(u), result_type: 'user' })),
      count: matches.length,
      next_page: page * perPage < matches.length ? `page=${page + 1}` : null,
      previous_page: null,
      facets: null,
    };
  }
}
