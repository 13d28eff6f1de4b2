// What callsync writes into Zendesk, as pure functions: every call, callback and message is a ticket
// (https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/) carrying callsync's key in
// its external_id, its text in a private comment, and tags saying what it is. Comments cannot be
// edited (https://developer.zendesk.com/api-reference/ticketing/tickets/ticket_comments/), so a
// changed text is added as a new private comment, and a tag holding the text's digest tells an
// update whether this text was written already (a retried update adds no second comment).
import { createHash } from 'node:crypto';
import { callLogBody } from '../crm/call-log-body';
import type { CallbackTask, CallLog, MessageLog } from '../crm/crm-connector';

/** Ticket statuses callsync sets (`new`, `pending`, `hold` and `closed` are the agents' and Zendesk's). */
export type TicketStatus = 'open' | 'solved';

/** Tag on every ticket callsync creates. */
export const CALLSYNC_TAG = 'callsync';
/** Tag of a callback callsync gave up on (callbacks.expireAfter): solved, not reached. */
export const EXPIRED_TAG = 'callsync_expired';
const DIGEST_PREFIX = 'callsync_v_';

export type TicketKind = 'call' | 'callback' | 'sms' | 'voicemail';

/** The ticket fields callsync owns, for a create or an update. */
export interface TicketWrite {
  kind: TicketKind;
  externalId: string;
  subject: string;
  /** The text, written as a private comment (the ticket's description when created). */
  body: string;
  status: TicketStatus;
  /** The end user the ticket is about (its requester); null: the API user. */
  requesterId: number | null;
  assigneeId: number | null;
  /** Callbacks are tickets of type task, which carry a due date. */
  dueAt: string | null;
  tags: string[];
}

/** The tag naming a text's digest. */
export function digestTag(body: string): string {
  return `${DIGEST_PREFIX}${createHash('sha256').update(body).digest('hex').slice(0, 12)}`;
}

export function isDigestTag(tag: string): boolean {
  return tag.startsWith(DIGEST_PREFIX);
}

function kindTags(kind: TicketKind, extra: readonly string[]): string[] {
  return [CALLSYNC_TAG, `callsync_${kind}`, ...extra];
}

function idOf(crmId: string | null | undefined): number | null {
  if (!crmId) return null;
  const n = Number(crmId);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

function minutes(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m > 0 ? `${m} min ${s} s` : `${s} s`;
}

/** A call's comment: what happened, then the call log body (IVR, summary, transcript, recording). */
export function callComment(log: CallLog): string {
  const head = [
    `${log.direction === 'inbound' ? 'Inbound' : 'Outbound'} call, ${log.status}, ${minutes(log.durationSeconds)}`,
    `From: ${log.fromNumber ?? 'unknown'}  To: ${log.toNumber ?? 'unknown'}`,
    `Started: ${log.startedAt}`,
  ].join('\n');
  const body = callLogBody(log);
  return body ? `${head}\n\n${body}` : head;
}

/** A call as a ticket: solved at once (a record of the call; missed calls get callback tickets). */
export function callTicket(
  log: CallLog,
  assigneeId: number | null,
  extraTags: readonly string[],
): TicketWrite {
  return {
    kind: 'call',
    externalId: log.key,
    subject: log.title,
    body: callComment(log),
    status: 'solved',
    requesterId: idOf(log.contact?.crmId),
    assigneeId,
    dueAt: null,
    tags: kindTags('call', extraTags),
  };
}

/**
 * A callback as a follow-up ticket of type task with the due time: open while nobody reached the
 * caller, solved when someone did, solved and tagged callsync_expired when callsync gave up.
 */
export function callbackTicket(
  task: CallbackTask,
  assigneeId: number | null,
  extraTags: readonly string[],
): TicketWrite {
  return {
    kind: 'callback',
    externalId: task.key,
    subject: task.subject,
    body: task.body || task.subject,
    status: task.status === 'open' ? 'open' : 'solved',
    requesterId: idOf(task.contact?.crmId),
    assigneeId,
    dueAt: task.dueAt,
    tags: [...kindTags('callback', extraTags), ...(task.status === 'expired' ? [EXPIRED_TAG] : [])],
  };
}

/** An SMS or voicemail as a ticket of its contact: open when it came in, solved when it went out. */
export function messageTicket(
  log: MessageLog,
  assigneeId: number | null,
  extraTags: readonly string[],
): TicketWrite {
  return {
    kind: log.channel,
    externalId: log.key,
    subject: log.title,
    body: log.body || log.title,
    status: log.direction === 'inbound' ? 'open' : 'solved',
    requesterId: idOf(log.contact.crmId),
    assigneeId,
    dueAt: null,
    tags: kindTags(log.channel, extraTags),
  };
}

/** The body of POST /api/v2/tickets. */
export function createBody(w: TicketWrite, groupId: number | undefined): { ticket: Record<string, unknown> } {
  return {
    ticket: {
      subject: w.subject,
      comment: { body: w.body, public: false },
      external_id: w.externalId,
      status: w.status,
      tags: [...w.tags, digestTag(w.body)],
      ...(w.requesterId !== null ? { requester_id: w.requesterId } : {}),
      ...(w.assigneeId !== null ? { assignee_id: w.assigneeId } : {}),
      ...(groupId !== undefined ? { group_id: groupId } : {}),
      ...(w.kind === 'callback' ? { type: 'task', due_at: w.dueAt } : {}),
    },
  };
}

/**
 * Whether a ticket's status already says what callsync means: any state of work in progress (new,
 * open, pending, on hold: the agents' choice) is open. Only callbacks change status after their
 * create: a call or message ticket an agent reopened stays reopened.
 */
function satisfies(held: string, wanted: TicketStatus): boolean {
  return wanted === 'solved'
    ? held === 'solved' || held === 'closed'
    : held !== 'solved' && held !== 'closed';
}

/** What an update compares against: the ticket as Zendesk holds it now. */
export interface HeldTicket {
  status: string;
  subject: string | null;
  tags: string[];
  requester_id: number | null;
  due_at: string | null;
}

/**
 * The body of PUT /api/v2/tickets/{id} bringing `held` to `w`, or null when nothing changed. A text
 * not written yet is added as a private comment; tags are added and removed one by one
 * (additional_tags, remove_tags) so the agents' own tags stay.
 */
export function updateBody(held: HeldTicket, w: TicketWrite): { ticket: Record<string, unknown> } | null {
  const ticket: Record<string, unknown> = {};
  if (held.subject !== w.subject) ticket.subject = w.subject;
  if (w.kind === 'callback' && !satisfies(held.status, w.status)) ticket.status = w.status;
  if (w.requesterId !== null && held.requester_id !== w.requesterId) ticket.requester_id = w.requesterId;
  if (w.dueAt !== null && (held.due_at === null || Date.parse(held.due_at) !== Date.parse(w.dueAt)))
    ticket.due_at = w.dueAt;
  const digest = digestTag(w.body);
  const add = [...w.tags, digest].filter((t) => !held.tags.includes(t));
  const remove = held.tags.filter(
    (t) => (isDigestTag(t) && t !== digest) || (t === EXPIRED_TAG && !w.tags.includes(EXPIRED_TAG)),
  );
  if (!held.tags.includes(digest)) ticket.comment = { body: w.body, public: false };
  if (add.length > 0) ticket.additional_tags = add;
  if (remove.length > 0) ticket.remove_tags = remove;
  return Object.keys(ticket).length > 0 ? { ticket } : null;
}
