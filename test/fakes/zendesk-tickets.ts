// The Tickets API of the fake Zendesk: create, show, update, delete and list by external_id, checked
// as https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/ documents them.
import { SlidingWindowLimit } from './vendor-limits';
import {
  badRequest,
  invalid,
  notFound,
  ticketJson,
  TICKET_STATUSES,
  ZendeskFakeError,
  type FakeTicket,
  type TicketStatus,
  type ZendeskState,
} from './zendesk-state';

/**
 * "A ticket can contain up to 5000 comments in total … additional attempts to add comments results in
 * a 422 error" (https://developer.zendesk.com/api-reference/ticketing/tickets/ticket_comments/).
 */
const MAX_COMMENTS = 5000;
/**
 * Update Ticket: 30 updates per 10 minutes per user per ticket
 * (https://developer.zendesk.com/api-reference/introduction/rate-limits/, "Endpoint rate limits").
 */
export const TICKET_UPDATES = { max: 30, windowMs: 600_000 };
/** Cursor pagination: page[size] at most 100 (https://developer.zendesk.com/api-reference/introduction/pagination/). */
export const MAX_PAGE_SIZE = 100;

type Json = Record<string, unknown>;

function obj(v: unknown): Json | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
}

/** Tags as Zendesk keeps them: lowercased, each once. One with a space or comma (Zendesk makes several of it) is refused here: callsync never sends one. */
function normaliseTags(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((t) => typeof t !== 'string' || /[\s,]/.test(t)))
    throw invalid('tags', 'Tags: is invalid');
  return [...new Set((v as string[]).map((t) => t.toLowerCase()).filter(Boolean))];
}

export class FakeTickets {
  private readonly updateWindows = new Map<string, SlidingWindowLimit>();

  constructor(private readonly state: ZendeskState) {}

  private live(id: number): FakeTicket {
    const t = this.state.tickets.get(id);
    if (!t || t.deleted) throw notFound();
    return t;
  }

  private checkUser(field: 'requester_id' | 'assignee_id', v: unknown, agentsOnly: boolean): number {
    const u = typeof v === 'number' ? this.state.users.get(v) : undefined;
    if (!u || !u.active || (agentsOnly && u.role === 'end-user')) {
      throw invalid(
        field.replace('_id', ''),
        `${field === 'assignee_id' ? 'Assignee' : 'Requester'}: is invalid`,
      );
    }
    return u.id;
  }

  private status(v: unknown, current: TicketStatus | null): TicketStatus {
    if (!TICKET_STATUSES.includes(v as TicketStatus)) throw invalid('status', 'Status: is not valid');
    const s = v as TicketStatus;
    // Only Zendesk closes tickets (automatically, days after solved); `new` is only before anyone acts.
    if (s === 'closed') throw invalid('status', 'Status: closed is not allowed through this API');
    if (s === 'new' && current !== null && current !== 'new')
      throw invalid('status', 'Status: cannot go back to new');
    return s;
  }

  create(body: unknown, apiUserId: number): FakeTicket {
    const t = obj(obj(body)?.ticket);
    if (!t) throw badRequest('InvalidEndpoint', 'Parameter ticket is required');
    const comment = obj(t.comment);
    const text = typeof comment?.body === 'string' ? comment.body.trim() : '';
    // The first comment is the ticket's description, which is required.
    if (!text) throw invalid('description', 'Description: cannot be blank');
    const now = this.state.now();
    const ticket: FakeTicket = {
      id: this.state.nextId(),
      subject: typeof t.subject === 'string' ? t.subject : null,
      description: text,
      comments: [],
      status: t.status === undefined ? 'new' : this.status(t.status, null),
      type: t.type === undefined ? null : (t.type as FakeTicket['type']),
      due_at: typeof t.due_at === 'string' ? t.due_at : null,
      external_id: typeof t.external_id === 'string' ? t.external_id : null,
      tags: normaliseTags(t.tags),
      requester_id:
        t.requester_id === undefined ? apiUserId : this.checkUser('requester_id', t.requester_id, false),
      submitter_id: apiUserId,
      assignee_id: t.assignee_id === undefined ? null : this.checkUser('assignee_id', t.assignee_id, true),
      group_id: typeof t.group_id === 'number' ? t.group_id : null,
      created_at: now,
      updated_at: now,
      deleted: false,
    };
    if (ticket.type !== null && !['problem', 'incident', 'question', 'task'].includes(ticket.type))
      throw invalid('type', 'Type: is not valid');
    if (ticket.type === 'task' && !ticket.due_at) throw invalid('due_at', 'Due date: is required for tasks');
    ticket.comments.push({
      id: this.state.nextId(),
      body: text,
      public: comment?.public !== false,
      author_id: apiUserId,
      created_at: now,
    });
    this.state.tickets.set(ticket.id, ticket);
    return ticket;
  }

  show(id: number): Json {
    return { ticket: ticketJson(this.live(id)) };
  }

  update(id: number, body: unknown, apiUserId: number, now = Date.now()): FakeTicket {
    const ticket = this.live(id);
    const t = obj(obj(body)?.ticket);
    if (!t) throw badRequest('InvalidEndpoint', 'Parameter ticket is required');
    // "closed" tickets can't be updated (https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/#json-format).
    if (ticket.status === 'closed') throw invalid('status', 'Status: closed prevents ticket update');
    const key = `${apiUserId}:${id}`;
    let window = this.updateWindows.get(key);
    if (!window)
      this.updateWindows.set(
        key,
        (window = new SlidingWindowLimit(TICKET_UPDATES.max, TICKET_UPDATES.windowMs)),
      );
    if (!window.take(now)) {
      throw new ZendeskFakeError(
        429,
        {
          error: 'TooManyRequests',
          description:
            'Rate limit for ticket updates exceeded, please wait before updating this ticket again',
        },
        { 'Retry-After': String(Math.ceil(TICKET_UPDATES.windowMs / 1000)) },
      );
    }
    const next: FakeTicket = { ...ticket, tags: [...ticket.tags], comments: [...ticket.comments] };
    if (t.subject !== undefined) next.subject = typeof t.subject === 'string' ? t.subject : null;
    if (t.status !== undefined) next.status = this.status(t.status, ticket.status);
    if (t.requester_id !== undefined)
      next.requester_id = this.checkUser('requester_id', t.requester_id, false);
    if (t.assignee_id !== undefined)
      next.assignee_id = t.assignee_id === null ? null : this.checkUser('assignee_id', t.assignee_id, true);
    if (t.due_at !== undefined) next.due_at = typeof t.due_at === 'string' ? t.due_at : null;
    if (t.tags !== undefined) next.tags = normaliseTags(t.tags);
    const add = normaliseTags(t.additional_tags);
    const remove = new Set(normaliseTags(t.remove_tags));
    next.tags = [...new Set([...next.tags, ...add])].filter((tag) => !remove.has(tag));
    const comment = obj(t.comment);
    if (comment) {
      const text = typeof comment.body === 'string' ? comment.body.trim() : '';
      if (!text) throw invalid('comment', 'Comment: cannot be blank');
      if (next.comments.length >= MAX_COMMENTS) throw invalid('comment', 'Comments: limit reached');
      next.comments.push({
        id: this.state.nextId(),
        body: text,
        public: comment.public !== false,
        author_id: apiUserId,
        created_at: this.state.now(),
      });
    }
    next.updated_at = this.state.now();
    this.state.tickets.set(id, next);
    return next;
  }

  /** DELETE /api/v2/tickets/{id}: 204; the ticket moves to deleted tickets (gone from reads and lists). */
  delete(id: number): void {
    this.live(id).deleted = true;
  }

  /**
   * DELETE /api/v2/deleted_tickets/{id}: a deleted ticket is scrubbed for good, by a job
   * (https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/#delete-ticket-permanently);
   * a ticket not deleted first is not found there.
   */
  deletePermanently(id: number): Json {
    const t = this.state.tickets.get(id);
    if (!t?.deleted) throw notFound();
    this.state.tickets.delete(id);
    const job = this.state.nextId();
    return { job_status: { id: String(job), status: 'queued', url: `/api/v2/job_statuses/${job}.json` } };
  }

  /**
   * GET /api/v2/tickets?external_id=…: cursor pagination with page[size] (at most 100), or offset
   * pagination (per_page, at most 100) without it.
   */
  list(query: URLSearchParams, origin: string): Json {
    const externalId = query.get('external_id');
    const all = [...this.state.tickets.values()]
      .filter((t) => !t.deleted && (externalId === null || t.external_id === externalId))
      .sort((a, b) => a.id - b.id);
    const size = query.get('page[size]') ?? query.get('per_page');
    const n = size === null ? 100 : Number(size);
    if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_SIZE)
      throw badRequest('InvalidPaginationParameter', `page size must be between 1 and ${MAX_PAGE_SIZE}`);
    const after = Number(query.get('page[after]') ?? 0);
    const page = all.filter((t) => t.id > after).slice(0, n);
    const last = page.at(-1);
    const hasMore = last !== undefined && all.some((t) => t.id > last.id);
    const next = hasMore
      ? `${origin}/api/v2/tickets.json?${new URLSearchParams({ ...(externalId ? { external_id: externalId } : {}), 'page[size]': String(n), 'page[after]': String(last.id) }).toString()}`
      : null;
    return {
      tickets: page.map(ticketJson),
      meta: { has_more: hasMore, after_cursor: hasMore ? String(last.id) : null, before_cursor: null },
      links: { next, prev: null },
    };
  }
}
