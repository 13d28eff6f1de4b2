// Zendesk end users for the two-way contact sync, through the connector's request core (rate gate,
// token renewal) and node-zendesk:
//   - the whole book: GET /api/v2/users?role=end-user with cursor pagination (100 a page, the most:
//     https://developer.zendesk.com/api-reference/introduction/pagination/), following links.next;
//   - changes: the Incremental User Export, cursor based (GET /api/v2/incremental/users/cursor,
//     1,000 a page, oldest first, under the exports' own 10 requests a minute:
//     https://developer.zendesk.com/api-reference/ticketing/ticket-management/incremental_exports/).
//     The export leaves out what changed in the minute before each request
//     (https://developer.zendesk.com/documentation/ticketing/managing-tickets/using-the-incremental-export-api),
//     so it starts that minute (config exportLagSeconds) before the sync's cursor, which keeps its own
//     margin for clocks: what the last run could not see yet is read now, and what comes again is a
//     no-op (its hash);
//   - people by number: the connector's phone search (users.ts), by e-mail the users search;
//   - writes: 100 users a request (POST /api/v2/users/create_many, PUT /api/v2/users/update_many),
//     each a job whose status is read until it is done (jobs.ts): a refused user fails alone, with
//     its own result.
// The link key is the user's external_id, set only on users the sync creates: Zendesk keeps it
// unique and reads it directly (show_many), not through the lagging search index, so a create whose
// answer was lost is refused when sent again and found by its key (the call path's unknown callers
// carry `<account>:contact:<E.164>` there, which names no platform contact). See contact-records.ts
// for names, fields and the deletion mark.
// Lists, the export and bulk writes are sent with node-zendesk's transporter (the client's own URL,
// auth and JSON): its resource calls answer only the named part of a body (`users`), without the
// cursor, end_of_stream or job_status a page or job needs.
import type { CountryCode } from 'libphonenumber-js';
import { z } from 'zod';
import type { ContactField } from '../../config/contact-sync';
import type { SideRecord } from '../crm/contact-model';
import type {
  ContactCreate,
  ContactUpdate,
  CreateOutcome,
  CrmContactBook,
  UpdateOutcome,
} from '../crm/contact-book';
import { CrmError } from '../crm/errors';
import type { ZendeskApi } from './api';
import {
  DELETED_FIELD,
  MOBILE_FIELD,
  USER_FIELDS,
  WRITABLE_FIELDS,
  contactUserSchema,
  isPerson,
  joinName,
  userBody,
  userRecord,
} from './contact-records';
import { DESTINATION, isNotFound } from './errors';
import { failed, runJob } from './jobs';
import type { ZendeskUsers } from './users';

/** Users one create_many or update_many takes (https://developer.zendesk.com/api-reference/ticketing/users/users/#create-many-users). */
const BATCH = 100;

const listPageSchema = z.looseObject({
  users: z.array(z.unknown()),
  meta: z.looseObject({ has_more: z.boolean().nullish() }).nullish(),
  links: z.looseObject({ next: z.string().nullish() }).nullish(),
});

const exportPageSchema = z.looseObject({
  users: z.array(z.unknown()),
  after_url: z.string().nullish(),
  after_cursor: z.string().nullish(),
  end_of_stream: z.boolean(),
});

/** The user fields the sync writes. */
const CUSTOM_FIELDS = [
  {
    type: 'text',
    key: MOBILE_FIELD,
    title: 'Mobile',
    description: "The person's mobile number (E.164), kept in step with the phone system by callsync.",
  },
  {
    type: 'checkbox',
    key: DELETED_FIELD,
    title: 'callsync: deleted on the phone system',
    description: 'Set by callsync when the linked platform contact was deleted.',
  },
];

const userFieldsSchema = z.looseObject({
  user_fields: z.array(z.looseObject({ key: z.string() })),
});

/** The after_cursor of the last export read to its end, and the sync cursor it was read for. */
export interface ExportPosition {
  last: { since: string; cursor: string } | null;
}

export class ZendeskContactBook implements CrmContactBook {
  readonly destination = DESTINATION;
  readonly fields = USER_FIELDS;
  readonly batchSize = BATCH;
  readonly createKind = 'contact';

  constructor(
    private readonly api: ZendeskApi,
    private readonly users: ZendeskUsers,
    private readonly country: CountryCode,
    /** How long the export leaves out the latest changes (Zendesk: a minute). */
    private readonly exportLagMs: number,
    /** Where the last export that read to its end left off (the connector's: books come and go). */
    private readonly position: ExportPosition = { last: null },
  ) {}

  writable(): readonly ContactField[] {
    return WRITABLE_FIELDS;
  }

  /**
   * The user fields of the mobile number and the deletion mark (GET/POST /api/v2/user_fields, admins
   * only: https://developer.zendesk.com/api-reference/ticketing/users/user_fields/). The link key
   * needs nothing: external_id is a field of every user.
   */
  async prepare(): Promise<void> {
    const listed = userFieldsSchema.parse(
      await this.api.send('list user fields', (c) => c.users.transporter.request('GET', ['user_fields'])),
    );
    for (const field of CUSTOM_FIELDS) {
      if (listed.user_fields.some((f) => f.key === field.key)) continue;
      try {
        await this.api.send(`create the user field ${field.key}`, (c) =>
          c.userfields.create({ user_field: field }),
        );
      } catch (err) {
        // Another worker created it since the list (its key is taken): it exists.
        if (!(err instanceof CrmError && err.status === 422)) throw err;
      }
    }
  }

  private records(users: readonly unknown[]): SideRecord[] {
    return users
      .map((u) => contactUserSchema.parse(u))
      .filter(isPerson)
      .map((u) => userRecord(u, this.country));
  }

  async *listAll(): AsyncIterable<SideRecord[]> {
    let next: string | (string | Record<string, string>)[] | null = ['users', { role: 'end-user' }];
    while (next !== null) {
      const path = next;
      // node-zendesk adds page[size]=100 to the users list; links.next is a whole URL it sends as is.
      const page = listPageSchema.parse(
        await this.api.send('list end users', (c) => c.users.transporter.request('GET', path)),
      );
      yield this.records(page.users);
      next = page.meta?.has_more && page.links?.next ? page.links.next : null;
    }
  }

  /**
   * Changes at or after `since`. The export's after_cursor is where the next export goes on (Zendesk's
   * own way to use it): when the last export read to its end for an earlier cursor of the sync, that
   * run finished (the sync's cursor moves only then) and took in everything the export gave it, so
   * the next goes on from its after_cursor rather than reading the last minute's changes again; a
   * run read again for the same cursor (the one before failed) starts over from start_time.
   */
  async *changedSince(since: string): AsyncIterable<SideRecord[]> {
    const last = this.position.last;
    const start = Math.max(0, Math.floor((Date.parse(since) - this.exportLagMs) / 1000));
    let next: string | (string | Record<string, number | string>)[] =
      last !== null && Date.parse(since) > Date.parse(last.since)
        ? ['incremental', 'users', 'cursor', { cursor: last.cursor }]
        : ['incremental', 'users', 'cursor', { start_time: start }];
    for (;;) {
      const path = next;
      const page = exportPageSchema.parse(
        await this.api.sendExport('export users', (c) => c.users.transporter.request('GET', path)),
      );
      yield this.records(page.users);
      if (page.end_of_stream || !page.after_url) {
        this.position.last = page.after_cursor ? { since, cursor: page.after_cursor } : null;
        return;
      }
      next = page.after_url;
    }
  }

  async findByNumbersOrEmails(numbers: readonly string[], emails: readonly string[]): Promise<SideRecord[]> {
    const found = new Map<string, SideRecord>();
    const add = (users: readonly unknown[]) => {
      for (const r of this.records(users)) found.set(r.id, r);
    };
    for (const n of numbers) add(await this.users.searchByPhone(n));
    for (const e of emails) add(await this.users.searchByEmail(e));
    return [...found.values()];
  }

  /** The users created under these link keys (external_id), read directly rather than searched. */
  private async byLinkKeys(keys: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    // show_many takes 100 external ids a request (a batch is at most 100).
    const result = await this.api.send('find end users by external_id', (c) =>
      c.users.get(['users', 'show_many', { external_ids: keys.join(',') }]),
    );
    for (const u of z.array(contactUserSchema).parse(result)) {
      if (u.external_id && keys.includes(u.external_id) && u.active !== false)
        found.set(u.external_id, String(u.id));
    }
    return found;
  }

  async create(inputs: readonly ContactCreate[]): Promise<CreateOutcome> {
    const out: CreateOutcome = { ids: new Map(), rejected: new Map() };
    const sent: { linkKey: string; user: Record<string, unknown> }[] = [];
    for (const i of inputs) {
      const name = joinName(i.state);
      if (name === null) {
        // Zendesk requires a name: a person with no name, e-mail or phone it keeps is not created.
        out.rejected.set(i.linkKey, 'Zendesk needs a name, e-mail or phone for a user');
        continue;
      }
      sent.push({
        linkKey: i.linkKey,
        user: {
          ...userBody(i.state, WRITABLE_FIELDS),
          name,
          ...(i.state.email ? { email: i.state.email } : {}),
          role: 'end-user',
          external_id: i.linkKey,
        },
      });
    }
    if (sent.length === 0) return out;
    const users = sent.map((s) => s.user);
    const results = await runJob(this.api, 'create end users', (c) =>
      c.users.transporter.request('POST', ['users', 'create_many'], { users }),
    );
    const refused = new Map<string, string>();
    sent.forEach(({ linkKey }, n) => {
      const r = results[n];
      if (!failed(r) && typeof r?.id === 'number') out.ids.set(linkKey, String(r.id));
      else refused.set(linkKey, `Zendesk refused the user: ${r?.error ?? 'no result'}`);
    });
    if (refused.size === 0) return out;
    // An external_id already taken is an earlier create of the same person whose answer was lost:
    // that user is this person's. What else Zendesk refused is each person's alone.
    const ours = await this.byLinkKeys([...refused.keys()]);
    for (const [linkKey, reason] of refused) {
      const id = ours.get(linkKey);
      if (id) out.ids.set(linkKey, id);
      else out.rejected.set(linkKey, reason);
    }
    return out;
  }

  async update(inputs: readonly ContactUpdate[]): Promise<UpdateOutcome> {
    const out: UpdateOutcome = { missing: [], rejected: new Map() };
    const sent = inputs
      .map((i) => ({ id: i.id, body: userBody(i.state, i.fields) }))
      .filter((s) => Object.keys(s.body).length > 0);
    if (sent.length === 0) return out;
    const users = sent.map((s) => ({ id: Number(s.id), ...s.body }));
    const results = await runJob(this.api, 'update end users', (c) =>
      c.users.transporter.request('PUT', ['users', 'update_many'], { users }),
    );
    sent.forEach(({ id }, n) => {
      const r = results[n];
      if (!failed(r)) return;
      if (r?.error && /notfound/i.test(r.error)) out.missing.push(id);
      else out.rejected.set(id, `Zendesk refused the update: ${r?.error ?? 'no result'}`);
    });
    return out;
  }

  /** Ticks the deletion mark of up to 100 users in one update_many job. */
  async markDeleted(records: readonly { id: string; kind: 'contact' | 'lead' }[]): Promise<void> {
    if (records.length === 0) return;
    const users = records.map((r) => ({ id: Number(r.id), user_fields: { [DELETED_FIELD]: true } }));
    const results = await runJob(this.api, 'mark end users deleted', (c) =>
      c.users.transporter.request('PUT', ['users', 'update_many'], { users }),
    );
    // A user deleted in Zendesk meanwhile needs no mark; any other refusal is an error.
    const refused = records
      .map((_, n) => results[n])
      .find((r) => failed(r) && !/notfound/i.test(r?.error ?? ''));
    if (refused) {
      throw new CrmError({
        destination: DESTINATION,
        code: refused.error ?? undefined,
        message: `marking deleted end users: Zendesk refused ${refused.error ?? 'one'}`,
        retryable: false,
      });
    }
  }

  /** Deletes the users (DELETE /api/v2/users/{id}: a soft delete, listed among deleted users). */
  async remove(records: readonly { id: string; kind: 'contact' | 'lead' }[]): Promise<void> {
    for (const r of records) {
      try {
        await this.api.send('delete end user', (c) => c.users.delete(Number(r.id)));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }
}
