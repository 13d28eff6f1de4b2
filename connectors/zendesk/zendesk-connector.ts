// Zendesk Support destination through node-zendesk: callers are end users (found by phone, created
// for unknown callers), each call is a solved ticket requested by its caller, each callback a
// follow-up ticket of type task (open, solved when reached, solved and tagged when expired), each
// SMS or voicemail a ticket of its contact. callsync's key is each ticket's external_id: GET
// /api/v2/tickets?external_id= finds it again (https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/#list-tickets),
// so a create whose answer was lost is recovered instead of duplicated.
//
// Why tickets through the Tickets API rather than Talk Partner Edition's voice tickets
// (POST /api/v2/channels/voice/tickets): that API requires a Talk Partner Edition subscription, and
// its voice comment is written once with the recording; callsync's recording and transcript arrive
// minutes after the call and update it in place, and every Zendesk plan has the Tickets API.
import type { CountryCode } from 'libphonenumber-js';
import { z } from 'zod';
import { realTime, type TimeSource } from '../../lib/rate-limiter';
import { WindowLimiter } from '../../lib/window-limiter';
import type {
  CallbackTask,
  CallLog,
  ContactBookOptions,
  CrmConnector,
  CrmContact,
  MessageLog,
} from '../crm/crm-connector';
import { RateGate, type TokenSourceFactory } from '../crm/rate-gate';
import { ZendeskApi } from './api';
import { zendeskOrigin, type ZendeskConfig } from './config';
import { ZendeskContactBook, type ExportPosition } from './contact-book';
import { credentialSource, type TokenStoreFactory } from './credentials';
import { DESTINATION, isNotFound } from './errors';
import { zendeskDestinationId } from './identity';
import {
  callbackTicket,
  callTicket,
  CALLSYNC_TAG,
  createBody,
  messageTicket,
  updateBody,
  type HeldTicket,
  type TicketWrite,
} from './tickets';
import { ZendeskUsers } from './users';

export interface ZendeskConnectorOptions {
  /** Country assumed for numbers Zendesk holds without a country code (crm.defaultCountry). */
  country?: CountryCode;
  time?: TimeSource;
  /** Rate windows shared by every worker (PostgreSQL); default: this process's own bucket. */
  limiters?: TokenSourceFactory;
  /** Where `auth: oauth` keeps the current tokens (PostgreSQL, shared by every worker). */
  tokenStore?: TokenStoreFactory;
  onTokenRefreshFailed?: () => void;
}

/** Requests a minute the incremental exports take (Zendesk's own limit for them). */
const EXPORTS_PER_MINUTE = 10;

const ticketSchema = z.looseObject({
  id: z.number(),
  status: z.string(),
  subject: z.string().nullish(),
  tags: z.array(z.string()).default([]),
  requester_id: z.number().nullish(),
  due_at: z.string().nullish(),
  external_id: z.string().nullish(),
});

export class ZendeskConnector implements CrmConnector {
  readonly name = DESTINATION;
  readonly destinationId: string;
  readonly api: ZendeskApi;
  private readonly users: ZendeskUsers;
  private readonly origin: string;
  /** Where the contact sync's last user export left off, for the next one (contact-book.ts). */
  private readonly exportPosition: ExportPosition = { last: null };

  constructor(
    private readonly config: ZendeskConfig,
    opts: ZendeskConnectorOptions = {},
  ) {
    this.destinationId = zendeskDestinationId(config);
    this.origin = zendeskOrigin(config);
    // Zendesk counts requests per minute: shared by every worker, a window of that minute; in this
    // process alone, a bucket at 90% of the rate with a tenth as burst, which never sends more than
    // requestsPerMinute in any minute either.
    const rpm = config.requestsPerMinute;
    const windowMs = config.rateWindowSeconds * 1000;
    const perSecond = (rpm * 0.9 * 1000) / windowMs;
    const burst = Math.max(1, Math.floor(rpm / 10));
    const gate = new RateGate({
      destination: DESTINATION,
      requestsPerSecond: perSecond,
      burst,
      ...(opts.time ? { time: opts.time } : {}),
      ...(opts.limiters
        ? { limiter: opts.limiters.window(`${config.subdomain} requests`, { max: rpm, windowMs }) }
        : {}),
    });
    const credentials = credentialSource(config, {
      tokenStore: opts.tokenStore,
      onRefreshFailed: opts.onTokenRefreshFailed,
    });
    // The incremental exports' own limit: 10 requests a minute, a window of its own among the
    // workers (https://developer.zendesk.com/api-reference/ticketing/ticket-management/incremental_exports/#rate-limits),
    // or in this process alone. A place frees a minute after its request's answer; one request of
    // headroom for how Zendesk rounds its minute.
    const exportWindow = { max: EXPORTS_PER_MINUTE - 1, windowMs: 60_000 };
    const exportGate = new RateGate({
      destination: DESTINATION,
      requestsPerSecond: exportWindow.max / 60,
      burst: exportWindow.max,
      ...(opts.time ? { time: opts.time } : {}),
      limiter: opts.limiters
        ? opts.limiters.window(`${config.subdomain} incremental exports`, exportWindow)
        : new WindowLimiter(exportWindow, opts.time ?? realTime),
    });
    this.api = new ZendeskApi(config, gate, credentials, exportGate);
    this.users = new ZendeskUsers(this.api, opts.country ?? 'GB');
  }

  /** The contact sync's view of the account's end users, through this connector's rate gates. */
  contactBook({ country }: Pick<ContactBookOptions, 'country'>): ZendeskContactBook {
    return new ZendeskContactBook(
      this.api,
      new ZendeskUsers(this.api, country),
      country,
      this.config.exportLagSeconds * 1000,
      this.exportPosition,
    );
  }

  findContactsByPhone(e164: string): Promise<CrmContact[]> {
    return this.users.findByPhone(e164);
  }

  createContact(input: { phone: string; name: string | null; key?: string }): Promise<CrmContact> {
    return this.users.create(input);
  }

  findContactByKey(key: string): Promise<CrmContact | null> {
    return this.users.findByKey(key);
  }

  contactPageUrl(contact: CrmContact): Promise<string> {
    return Promise.resolve(
      `${this.origin}/agent/users/${encodeURIComponent(contact.crmId)}/requested_tickets`,
    );
  }

  /** Zendesk's agent workspace has no "new user" form that takes a number: its user search does. */
  newContactPageUrl(e164: string): Promise<string> {
    return Promise.resolve(`${this.origin}/agent/search/1?q=${encodeURIComponent(e164)}`);
  }

  callLogPageUrl(crmId: string): string {
    return `${this.origin}/agent/tickets/${encodeURIComponent(crmId)}`;
  }

  /**
   * The agent a ticket is assigned to: the call's user, when Zendesk has an agent with that e-mail.
   * (No ownerId: end users have no owner in Zendesk, so the call_owner rule has nothing to match.)
   */
  private async assignee(email: string | null): Promise<number | null> {
    const id = await this.users.agentId(email);
    return id === null ? null : Number(id);
  }

  /** The oldest ticket of callsync's carrying `key` as external_id (deleted tickets are not listed). */
  private async findByKey(key: string): Promise<string | null> {
    const result = await this.api.send('find ticket by external_id', (c) =>
      c.tickets.get(['tickets', { external_id: key }]),
    );
    const tickets = z
      .array(ticketSchema)
      .parse(result)
      .filter((t) => t.external_id === key && t.tags.includes(CALLSYNC_TAG))
      .sort((a, b) => a.id - b.id);
    return tickets[0] ? String(tickets[0].id) : null;
  }

  private async create(w: TicketWrite): Promise<string> {
    const result = await this.api.send(`create ${w.kind} ticket`, (c) =>
      c.tickets.create(createBody(w, this.config.groupId)),
    );
    return String(ticketSchema.parse(result).id);
  }

  /**
   * Brings a ticket to `w` (a read, then one update when anything changed). A closed ticket cannot
   * be updated any more (Zendesk closes solved tickets after days): it keeps what it has.
   */
  private async update(id: string, w: TicketWrite): Promise<void> {
    const held = ticketSchema.parse(
      await this.api.send(`read ${w.kind} ticket`, (c) => c.tickets.show(Number(id))),
    );
    if (held.status === 'closed') return;
    const body = updateBody(toHeld(held), w);
    if (!body) return;
    await this.api.send(`update ${w.kind} ticket`, (c) => c.tickets.update(Number(id), body));
  }

  /**
   * Erasure of a ticket callsync created: deleted (Zendesk keeps deleted tickets, recoverable, for 30
   * days), then deleted permanently (DELETE /api/v2/deleted_tickets/{id}: a job that scrubs it;
   * https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/#delete-ticket-permanently).
   * A ticket already gone at either step counts as deleted.
   */
  private async destroy(id: string): Promise<void> {
    await ignoreGone(this.api.send('delete ticket', (c) => c.tickets.delete(Number(id))));
    await ignoreGone(
      this.api.send('delete ticket permanently', (c) =>
        c.tickets.request('DELETE', `deleted_tickets/${Number(id)}`),
      ),
    );
  }

  findCallLog(key: string): Promise<string | null> {
    return this.findByKey(key);
  }

  async createCallLog(log: CallLog): Promise<string> {
    return this.create(callTicket(log, await this.assignee(log.userEmail), this.config.tags));
  }

  async updateCallLog(crmId: string, log: CallLog): Promise<void> {
    await this.update(crmId, callTicket(log, await this.assignee(log.userEmail), this.config.tags));
  }

  findTask(key: string): Promise<string | null> {
    return this.findByKey(key);
  }

  async createTask(task: CallbackTask): Promise<string> {
    return this.create(callbackTicket(task, await this.assignee(task.assigneeEmail), this.config.tags));
  }

  async updateTask(crmId: string, task: CallbackTask): Promise<void> {
    await this.update(crmId, callbackTicket(task, await this.assignee(task.assigneeEmail), this.config.tags));
  }

  findMessageLog(key: string): Promise<string | null> {
    return this.findByKey(key);
  }

  async createMessageLog(log: MessageLog): Promise<string> {
    return this.create(messageTicket(log, await this.assignee(log.userEmail), this.config.tags));
  }

  async updateMessageLog(crmId: string, log: MessageLog): Promise<void> {
    await this.update(crmId, messageTicket(log, await this.assignee(log.userEmail), this.config.tags));
  }

  deleteCallLog(crmId: string): Promise<void> {
    return this.destroy(crmId);
  }

  deleteTask(crmId: string): Promise<void> {
    return this.destroy(crmId);
  }

  deleteMessageLog(crmId: string): Promise<void> {
    return this.destroy(crmId);
  }

  /** Erasure of an end user callsync created: deleted, then deleted permanently (users.ts). */
  async deleteContact(crmId: string): Promise<void> {
    await this.users.delete(crmId);
  }
}

/** Waits for a delete; "not found" means it is done already. */
async function ignoreGone(deleting: Promise<unknown>): Promise<void> {
  try {
    await deleting;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

function toHeld(t: z.infer<typeof ticketSchema>): HeldTicket {
  return {
    status: t.status,
    subject: t.subject ?? null,
    tags: t.tags,
    requester_id: t.requester_id ?? null,
    due_at: t.due_at ?? null,
  };
}
