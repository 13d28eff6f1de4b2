// Dataverse contacts for the two-way contact sync: read with the Web API's query of contacts, all of
// them or those whose modifiedon is at or after the cursor, oldest first, in pages of up to 5,000 rows
// with @odata.nextLink (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/query/page-results);
// found by number as the connector finds callers (phone-filter.ts) and by e-mail with the In query
// function; written in $batch requests of up to 1,000 operations (batch.ts: POST with
// return=representation, PATCH with If-Match: *, DELETE), each on its own, so a record Dataverse
// refuses (400) is refused alone. A create whose answer was lost is found again by the link-key
// column (link-column.ts) the next read brings back.
// Every request goes through the connector's request core (rate gate, service protection, tokens).
import type { CountryCode } from 'libphonenumber-js';
import type { ContactField } from '../../config/contact-sync';
import type { SideRecord } from '../crm/contact-model';
import type {
  ContactCreate,
  ContactUpdate,
  CreateOutcome,
  CrmContactBook,
  UpdateOutcome,
} from '../crm/contact-book';
import { MAX_BATCH, partError, sendBatch } from './batch';
import {
  ACTIVE,
  columnValues,
  INACTIVE,
  LINK_COLUMN,
  SELECT,
  sideRecordOf,
  SYNCED_FIELDS,
  type SyncedContactRow,
} from './contact-records';
import { DESTINATION } from './errors';
import { ensureLinkColumn, type WebApiCall } from './link-column';
import { odataString, phoneFilter, phoneQuery } from './phone-filter';

/** Rows one page holds at most (the odata.maxpagesize Dataverse honours). */
export const MAX_PAGE = 5000;
/** E-mails one In filter lists (the URL stays far below the 2,000 characters dynamics-web-api sends as GET). */
const EMAILS_PER_QUERY = 20;
/** Oldest first; the id breaks ties, so pages of one instant keep their order. */
const ORDER = ['modifiedon asc', 'contactid asc'];

/** An OData DateTimeOffset literal (unquoted; Dataverse keeps whole seconds). */
function dateTimeLiteral(iso: string): string {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Why Dataverse refused a record (a column's value: 400), as recorded in contact_ambiguities. */
function reasonOf(p: { code: string | undefined; message: string }): string {
  return `${p.code ?? '400'}: ${p.message}`;
}

/** The columns that hold a value (a new record leaves the others empty). */
function present(values: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => e[1] !== null));
}

export class DynamicsContactBook implements CrmContactBook {
  readonly destination = DESTINATION;
  readonly fields: readonly ContactField[] = SYNCED_FIELDS;
  /** Operations one $batch takes. */
  readonly batchSize = MAX_BATCH;
  readonly createKind = 'contact';

  constructor(
    private readonly api: WebApiCall,
    private readonly country: CountryCode,
    /** Rows a page (tests page with fewer). */
    private readonly pageSize = MAX_PAGE,
  ) {}

  writable(): readonly ContactField[] {
    return this.fields;
  }

  prepare(): Promise<void> {
    return ensureLinkColumn(this.api);
  }

  /** Contacts matching `filter` (all when null), page by page through @odata.nextLink. */
  private async *query(filter: string | null, orderBy: string[] | null): AsyncIterable<SideRecord[]> {
    const request = {
      collection: 'contacts',
      select: SELECT,
      maxPageSize: this.pageSize,
      ...(filter === null ? {} : { filter }),
      ...(orderBy === null ? {} : { orderBy }),
    };
    let next: string | undefined;
    do {
      const link = next;
      const page = await this.api.call((c) => c.retrieveMultiple<SyncedContactRow>(request, link));
      yield page.value.map((row) => sideRecordOf(row, this.country));
      next = page.oDataNextLink;
    } while (next);
  }

  listAll(): AsyncIterable<SideRecord[]> {
    return this.query(null, ORDER);
  }

  changedSince(since: string): AsyncIterable<SideRecord[]> {
    return this.query(`modifiedon ge ${dateTimeLiteral(since)}`, ORDER);
  }

  async findByNumbersOrEmails(numbers: readonly string[], emails: readonly string[]): Promise<SideRecord[]> {
    const found = new Map<string, SideRecord>();
    // Active contacts, as the connector's caller lookup finds them; one number a query (its forms fill the URL).
    for (const e164 of numbers) {
      const filter = `statecode eq ${ACTIVE} and (${phoneFilter(phoneQuery(e164))})`;
      // The filter compares whole texts; a row is kept when one of its columns reads as the number.
      for await (const page of this.query(filter, null))
        for (const r of page) if (r.numbers.includes(e164)) found.set(r.id, r);
    }
    for (let i = 0; i < emails.length; i += EMAILS_PER_QUERY) {
      const list = emails.slice(i, i + EMAILS_PER_QUERY).map(odataString);
      const filter = `statecode eq ${ACTIVE} and Microsoft.Dynamics.CRM.In(PropertyName='emailaddress1',PropertyValues=[${list.join(',')}])`;
      for await (const page of this.query(filter, null)) for (const r of page) found.set(r.id, r);
    }
    return [...found.values()];
  }

  async create(inputs: readonly ContactCreate[]): Promise<CreateOutcome> {
    const out: CreateOutcome = { ids: new Map(), rejected: new Map() };
    const answers = await sendBatch(this.api, inputs.length, (c) =>
      inputs.map((input) =>
        c.create<Record<string, unknown>, SyncedContactRow>({
          collection: 'contacts',
          data: { ...present(columnValues(input.state, this.fields)), [LINK_COLUMN]: input.linkKey },
          returnRepresentation: true,
          select: ['contactid', LINK_COLUMN],
        }),
      ),
    );
    // A lost answer throws (sendBatch): the engine's retry finds the records by their link key.
    answers.forEach((a, n) => {
      const key = inputs[n]!.linkKey;
      if (a.ok) {
        const id = (a.value as SyncedContactRow | undefined)?.contactid;
        if (typeof id === 'string') out.ids.set(key, id);
        else out.rejected.set(key, 'no contactid in the answer');
      } else if (a.status === 400) out.rejected.set(key, reasonOf(a));
      else throw partError(a, 'contact create');
    });
    return out;
  }

  async update(inputs: readonly ContactUpdate[]): Promise<UpdateOutcome> {
    const out: UpdateOutcome = { missing: [], rejected: new Map() };
    // If-Match: * (the client's default for update): a deleted contact is a 404, never created again.
    const answers = await sendBatch(this.api, inputs.length, (c) =>
      inputs.map((input) =>
        c.update({ collection: 'contacts', key: input.id, data: columnValues(input.state, input.fields) }),
      ),
    );
    answers.forEach((a, n) => {
      const id = inputs[n]!.id;
      if (a.ok) return;
      if (a.status === 404) out.missing.push(id);
      else if (a.status === 400) out.rejected.set(id, reasonOf(a));
      else throw partError(a, 'contact update');
    });
    return out;
  }

  /** Deactivates the contacts (kept, out of active views and caller lookups); one gone needs no mark. */
  async markDeleted(records: readonly { id: string }[]): Promise<void> {
    const answers = await sendBatch(this.api, records.length, (c) =>
      records.map((r) => c.update({ collection: 'contacts', key: r.id, data: { ...INACTIVE } })),
    );
    for (const a of answers) if (!a.ok && a.status !== 404) throw partError(a, 'deactivating a contact');
  }

  /** Deletes the contacts; one already gone counts as deleted. */
  async remove(records: readonly { id: string }[]): Promise<void> {
    const answers = await sendBatch(this.api, records.length, (c) =>
      records.map((r) => c.deleteRecord({ collection: 'contacts', key: r.id })),
    );
    for (const a of answers) if (!a.ok && a.status !== 404) throw partError(a, 'deleting a contact');
  }
}
