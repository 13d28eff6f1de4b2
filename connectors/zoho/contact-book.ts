// Zoho CRM Contacts for the two-way contact sync, through the connector's request core (its rate
// gate, concurrency limit and token renewal) and the official SDK. Read with COQL in pages of 200 by
// Modified_Time, oldest first (https://www.zoho.com/crm/developer/docs/api/v8/COQL-Overview.html):
// COQL reads the records themselves, so callsync's own writes come back at once, link key included.
// New platform contacts are looked up with the search API's `phone` and `email` parameters, as
// callers are matched; Contacts deleted in Zoho are listed by the deleted records API
// (get-deleted-records.html). Written with insert and update of 100 records a request
// (https://www.zoho.com/crm/developer/docs/api/v8/insert-records.html, update-records.html), each
// record answered on its own. The link key lives in the connector's key field (`Callsync_Key`), on
// Contacts too; the deletion mark in `Callsync_Deleted`.
import type { CountryCode } from 'libphonenumber-js';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { ContactField } from '../../config/contact-sync';
import { email, number, numbersOf, text, type ContactState, type SideRecord } from '../crm/contact-model';
import type {
  ContactCreate,
  ContactUpdate,
  CreateOutcome,
  CrmContactBook,
  UpdateOutcome,
} from '../crm/contact-book';
import { CrmError } from '../crm/errors';
import { DESTINATION } from './errors';
import { searchDigits, type Fields } from './fields';
import { coqlDateTime } from './outcomes';
import { createMany, deleteMany, deletedPage, updateMany } from './record-batches';
import type { ZohoClient } from './zoho-client';

/** Most records an insert, update or delete request takes (insert-records.html: up to 100). */
const BATCH = 100;
/** Rows a COQL page asks for (1 API credit up to 200; COQL-Overview.html). */
const PAGE = 200;
const MODULE = 'Contacts';

/** The custom datetime field on Contacts callsync sets when the linked platform contact was deleted. */
export const DELETED_FIELD = 'Callsync_Deleted';

/** The synced fields as Contacts' fields. Account_Name (the company) is a lookup to Accounts: not synced. */
const FIELD: Partial<Record<ContactField, string>> = {
  firstName: 'First_Name',
  lastName: 'Last_Name',
  email: 'Email',
  phone: 'Phone',
  mobile: 'Mobile',
  notes: 'Description',
};
/** Every phone field of a Contact: all of them count for matching. */
const PHONES = ['Phone', 'Mobile', 'Home_Phone', 'Other_Phone'];

/** Why Zoho refused one record of a request (its `data[]` entry). */
function reasonOf(entry: Record<string, unknown> | undefined): string {
  if (!entry) return 'no answer for the record';
  const details = entry.details as { api_name?: unknown } | undefined;
  const field = typeof details?.api_name === 'string' ? ` (${details.api_name})` : '';
  return `${text(entry.code) ?? 'ERROR'}: ${text(entry.message) ?? ''}${field}`.trim();
}

const succeeded = (entry: Record<string, unknown> | undefined) => entry?.status === 'success';

/**
 * A record that no longer exists: Zoho answers its id as invalid (update-records.html), the id itself
 * in `details` and no field named (a refused field value names its field in `api_name`).
 */
function gone(entry: Record<string, unknown> | undefined): boolean {
  const details = entry?.details as { id?: unknown; api_name?: unknown } | undefined;
  if (entry?.code !== 'INVALID_DATA') return false;
  return details?.api_name === 'id' || (details?.id !== undefined && details.api_name === undefined);
}

/** The national forms an agent may have typed a number in (digits only), for the phone search. */
function typedForms(e164: string): string[] {
  const parsed = parsePhoneNumberFromString(e164);
  const forms = [searchDigits(e164)];
  if (parsed) forms.push(parsed.formatNational().replace(/\D/g, ''));
  return [...new Set(forms)];
}

export class ZohoContactBook implements CrmContactBook {
  readonly destination = DESTINATION;
  readonly fields = Object.keys(FIELD) as ContactField[];
  readonly batchSize = BATCH;
  readonly createKind = 'contact';
  private readonly select: string;

  constructor(
    private readonly client: ZohoClient,
    /** The connector's key field (config keyField): on Contacts it holds the link key. */
    private readonly keyField: string,
    private readonly country: CountryCode,
  ) {
    this.select = [
      ...Object.values(FIELD),
      'Home_Phone',
      'Other_Phone',
      'Modified_Time',
      keyField,
      DELETED_FIELD,
    ]
      .filter((f, i, all) => all.indexOf(f) === i)
      .join(', ');
  }

  writable(): readonly ContactField[] {
    return this.fields;
  }

  /**
   * Makes sure Contacts has the key field (single line, unique) and the deletion mark (date/time):
   * a missing one is created through the fields API, named by its label (Zoho turns "Callsync Key"
   * into Callsync_Key), and the names read again. What is still missing (no field-create scope, a key
   * field name no label gives) stops the sync with a non-retryable CrmError naming what to create.
   */
  async prepare(): Promise<void> {
    const wanted = [
      { name: this.keyField, dataType: 'text' as const, length: 255, unique: true },
      { name: DELETED_FIELD, dataType: 'datetime' as const },
    ];
    const absent = async () => {
      const names = await this.client.fieldNames(MODULE);
      return wanted.filter((f) => !names.includes(f.name));
    };
    let missing = await absent();
    if (missing.length === 0) return;
    let refused: string | undefined;
    for (const { name, ...spec } of missing) {
      try {
        const entry = await this.client.createField(MODULE, { label: name.replace(/_/g, ' '), ...spec });
        if (!succeeded(entry)) refused = reasonOf(entry);
      } catch (err) {
        if (!(err instanceof CrmError) || err.retryable) throw err;
        refused = err.message;
      }
    }
    missing = await absent();
    if (missing.length === 0) return;
    throw new CrmError({
      destination: DESTINATION,
      code: 'KEY_FIELD_MISSING',
      message:
        `Contacts has no field ${missing.map((f) => f.name).join(' or ')}: for contact sync create in ` +
        `Contacts (Setup → Modules and Fields) a single-line field with the API name ${this.keyField} ` +
        `("Do not allow duplicate values" ticked) and a date/time field with the API name ${DELETED_FIELD}` +
        (refused ? ` (callsync could not create them: ${refused})` : ''),
      retryable: false,
    });
  }

  private record(row: Record<string, unknown>): SideRecord {
    const state: ContactState = {
      firstName: text(row.First_Name),
      lastName: text(row.Last_Name),
      company: null,
      email: email(row.Email),
      phone: number(row.Phone, this.country),
      mobile: number(row.Mobile, this.country),
      notes: text(row.Description),
    };
    const modified = text(row.Modified_Time);
    return {
      id: String(row.id),
      state,
      numbers: numbersOf(
        PHONES.map((f) => row[f]),
        this.country,
      ),
      modifiedAt: modified === null ? null : new Date(modified).toISOString(),
      kind: 'contact',
      linkKey: text(row[this.keyField]),
      markedDeleted: text(row[DELETED_FIELD]) !== null,
    };
  }

  /**
   * Contacts modified at or after `since` (all of them for null), oldest first. Each query starts at
   * the last second read (Modified_Time has whole seconds), not at an offset: a record modified while
   * the pages are read moves to the end and shifts later offsets, which would skip one. The records of
   * that second come again and are left out; only a page all of one second pages on by offset.
   */
  private async *read(since: string | null): AsyncIterable<SideRecord[]> {
    let from = since === null ? null : coqlDateTime(since);
    let offset = 0;
    let seen = new Set<string>();
    for (;;) {
      const where = from === null ? 'id is not null' : `Modified_Time >= ${from}`;
      const rows = await this.client.coql(
        `select ${this.select} from ${MODULE} where ${where} order by Modified_Time asc limit ${offset}, ${PAGE}`,
      );
      const records = rows.map((r) => this.record(r)).filter((r) => !seen.has(r.id));
      if (records.length > 0) yield records;
      if (rows.length < PAGE) return;
      const secondOf = (r: Record<string, unknown>) => coqlDateTime(String(r.Modified_Time));
      const last = secondOf(rows.at(-1)!);
      const atLast = rows.filter((r) => secondOf(r) === last);
      if (last === from) offset += rows.length;
      else {
        offset = atLast.length === rows.length ? rows.length : 0;
        from = last;
        seen = new Set();
      }
      for (const r of atLast) seen.add(String(r.id));
    }
  }

  listAll(): AsyncIterable<SideRecord[]> {
    return this.read(null);
  }

  changedSince(since: string): AsyncIterable<SideRecord[]> {
    return this.read(since);
  }

  /**
   * Contacts deleted since `since` (Zoho's deleted records, newest first, 200 a page; a deletion made
   * while the pages are read pushes the others on and repeats one, never skips one).
   */
  async *deletedSince(since: string): AsyncIterable<string[]> {
    for (let page = 1; ; page++) {
      const { rows, more } = await deletedPage(this.client, MODULE, new Date(since), page);
      const ids = rows.map((r) => r.id).filter((id) => typeof id === 'string' || typeof id === 'number');
      if (ids.length > 0) yield ids.map(String);
      if (!more) return;
    }
  }

  async findByNumbersOrEmails(numbers: readonly string[], emails: readonly string[]): Promise<SideRecord[]> {
    const found = new Map<string, SideRecord>();
    // The search compares digits as stored: the E.164 digits, and the national form typed without them.
    for (const digits of [...new Set(numbers.flatMap(typedForms))]) {
      for (const row of await this.client.searchPhone(MODULE, digits)) {
        const r = this.record(row);
        found.set(r.id, r);
      }
    }
    for (const address of emails) {
      for (const row of await this.client.searchEmail(MODULE, address)) {
        const r = this.record(row);
        found.set(r.id, r);
      }
    }
    return [...found.values()];
  }

  /** The record's fields to write: `fields` of `state`; empty values clear (null) or, on create, are left out. */
  private values(state: ContactState, fields: readonly ContactField[], create: boolean): Fields {
    const out: Fields = {};
    for (const f of fields) {
      const name = FIELD[f];
      if (!name) continue;
      const value = state[f];
      if (value !== null || !create) out[name] = value;
    }
    return out;
  }

  async create(inputs: readonly ContactCreate[]): Promise<CreateOutcome> {
    const out: CreateOutcome = { ids: new Map(), rejected: new Map() };
    if (inputs.length === 0) return out;
    const entries = await createMany(
      this.client,
      MODULE,
      inputs.map((i) => ({ ...this.values(i.state, this.fields, true), [this.keyField]: i.linkKey })),
    );
    // Zoho answers the records in the order they were sent. A DUPLICATE_DATA on the key field is an
    // earlier create whose answer was lost: refused here, it is linked by its key when next read.
    inputs.forEach((input, n) => {
      const entry = entries[n];
      const id = (entry?.details as { id?: unknown } | undefined)?.id;
      if (succeeded(entry) && (typeof id === 'string' || typeof id === 'number'))
        out.ids.set(input.linkKey, String(id));
      else out.rejected.set(input.linkKey, reasonOf(entry));
    });
    return out;
  }

  async update(inputs: readonly ContactUpdate[]): Promise<UpdateOutcome> {
    const out: UpdateOutcome = { missing: [], rejected: new Map() };
    if (inputs.length === 0) return out;
    const entries = await updateMany(
      this.client,
      MODULE,
      inputs.map((i) => ({ id: i.id, fields: this.values(i.state, i.fields, false) })),
    );
    inputs.forEach((input, n) => {
      const entry = entries[n];
      if (succeeded(entry)) return;
      if (gone(entry)) out.missing.push(input.id);
      else out.rejected.set(input.id, reasonOf(entry));
    });
    return out;
  }

  async markDeleted(records: readonly { id: string; kind: 'contact' | 'lead' }[]): Promise<void> {
    if (records.length === 0) return;
    const at = new Date();
    const entries = await updateMany(
      this.client,
      MODULE,
      records.map((r) => ({ id: r.id, fields: { [DELETED_FIELD]: at } })),
    );
    // A record deleted in Zoho meanwhile needs no mark; any other refusal is an error.
    this.throwUnless(entries, 'marking deleted contacts');
  }

  async remove(records: readonly { id: string; kind: 'contact' | 'lead' }[]): Promise<void> {
    if (records.length === 0) return;
    const entries = await deleteMany(
      this.client,
      MODULE,
      records.map((r) => r.id),
    );
    this.throwUnless(entries, 'deleting contacts');
  }

  /** Throws the first refusal among `entries` other than a record already gone. */
  private throwUnless(entries: readonly Record<string, unknown>[], what: string): void {
    const failed = entries.find((e) => !succeeded(e) && !gone(e));
    if (!failed) return;
    throw new CrmError({
      destination: DESTINATION,
      status: 400,
      code: text(failed.code) ?? undefined,
      message: `${what}: ${reasonOf(failed)}`,
      retryable: false,
    });
  }
}
