// The records a fake Zendesk account holds, and the error answers it gives, in Zendesk's shapes
// (https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/,
// https://developer.zendesk.com/api-reference/ticketing/users/users/,
// https://developer.zendesk.com/documentation/api-basics/best-practices/error-handling/).

export type UserRole = 'end-user' | 'agent' | 'admin';

export interface FakeUser {
  id: number;
  name: string;
  email: string | null;
  /** As it was given: Zendesk does not normalise phones. */
  phone: string | null;
  role: UserRole;
  active: boolean;
  /** Unique among the account's users when set. */
  external_id: string | null;
  notes: string | null;
  /** Values of the account's user fields, by key. */
  user_fields: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  /** When the search index sees the user (ms since the epoch); not part of Zendesk's JSON. */
  indexedAt: number;
}

export interface FakeComment {
  id: number;
  body: string;
  public: boolean;
  author_id: number;
  created_at: string;
}

export type TicketStatus = 'new' | 'open' | 'pending' | 'hold' | 'solved' | 'closed';
export const TICKET_STATUSES: readonly TicketStatus[] = [
  'new',
  'open',
  'pending',
  'hold',
  'solved',
  'closed',
];

export interface FakeTicket {
  id: number;
  subject: string | null;
  description: string;
  comments: FakeComment[];
  status: TicketStatus;
  type: 'problem' | 'incident' | 'question' | 'task' | null;
  due_at: string | null;
  external_id: string | null;
  tags: string[];
  requester_id: number;
  submitter_id: number;
  assignee_id: number | null;
  group_id: number | null;
  created_at: string;
  updated_at: string;
  /** Soft-deleted (DELETE /tickets/{id}): gone from lists and reads, in deleted_tickets. */
  deleted: boolean;
}

/** The account's records and id sequence. */
export interface ZendeskState {
  users: Map<number, FakeUser>;
  tickets: Map<number, FakeTicket>;
  nextId(): number;
  now(): string;
}

export function newState(): ZendeskState {
  let id = 360_000_000;
  return {
    users: new Map(),
    tickets: new Map(),
    nextId: () => ++id,
    now: () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

/** An error answer: status, body, and headers (Retry-After). */
export class ZendeskFakeError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

export const notFound = (): ZendeskFakeError =>
  new ZendeskFakeError(404, { error: 'RecordNotFound', description: 'Not found' });

/** 422 RecordInvalid with per-field details, as Zendesk answers a failed validation. */
export function invalid(field: string, description: string): ZendeskFakeError {
  return new ZendeskFakeError(422, {
    error: 'RecordInvalid',
    description: 'Record validation errors',
    details: { [field]: [{ description, error: 'InvalidValue' }] },
  });
}

export function badRequest(error: string, description: string): ZendeskFakeError {
  return new ZendeskFakeError(400, { error, description });
}

export function userJson(u: FakeUser): Record<string, unknown> {
  const { indexedAt: _indexedAt, ...rest } = u;
  return { ...rest, url: `/api/v2/users/${u.id}.json` };
}

export function ticketJson(t: FakeTicket): Record<string, unknown> {
  const { comments: _comments, deleted: _deleted, ...rest } = t;
  return { ...rest, url: `/api/v2/tickets/${t.id}.json`, via: { channel: 'api' } };
}
