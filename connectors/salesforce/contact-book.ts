// Salesforce Contacts and Leads (unconverted) for the two-way contact sync: read with SOQL and
// queryMore (all of them, or those whose SystemModstamp moved since the cursor), deletes read from the
// recycle bin with queryAll (IsDeleted), numbers found with one SOSL search over the phone fields,
// written with sObject Collections of 200 (allOrNone false: a record Salesforce refuses fails alone
// and comes back with its reason; a create the org's duplicate rule refuses comes back with the
// records the rule named, read back, never forced through with allowSave). Requests go through the
// connector's rate gate; the records and their fields are in contact-records.ts.
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
import {
  CUSTOM_FIELDS,
  DELETED_FIELD,
  FIELD,
  LEAD_FILTER,
  LINK_FIELD,
  NO_COMPANY,
  SELECT,
  TYPE,
  convertedSchema,
  fieldValues,
  personSchema,
  sideRecordOf,
  type Kind,
  type SalesforcePersonType,
} from './contact-records';
import { provisionCustomFields, type CustomFieldSpec } from './custom-fields';
import { DESTINATION } from './errors';
import { duplicateMatches, soqlString, type DuplicateMatch } from './fields';
import { PHONES, searchNumbers } from './phone-search';
import type { SalesforceTransport } from './transport';

/** Most records one sObject Collections request takes. */
const COLLECTION = 200;
/** E-mails (or ids) per SOQL IN list (the query text stays far below its limits). */
const EMAILS_PER_QUERY = 100;

const queryPageSchema = z.looseObject({
  done: z.boolean(),
  nextRecordsUrl: z.string().optional(),
  records: z.array(z.unknown()),
});
const saveResultSchema = z.looseObject({
  id: z.string().nullish(),
  success: z.boolean(),
  errors: z
    .array(z.looseObject({ statusCode: z.string().optional(), message: z.string().optional() }))
    .default([]),
});
type SaveResult = z.infer<typeof saveResultSchema>;

/** A SOQL datetime literal (whole seconds, UTC). */
function soqlDateTime(iso: string): string {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const typeOf = (hit: Record<string, unknown>): SalesforcePersonType =>
  (hit.attributes as { type?: string } | undefined)?.type === 'Lead' ? 'Lead' : 'Contact';

/** Why Salesforce refused a record, as recorded in contact_ambiguities. */
function reasonOf(r: SaveResult | undefined): string {
  const e = r?.errors[0];
  return e ? `${e.statusCode ?? 'ERROR'}: ${e.message ?? ''}`.trim() : 'no result for the record';
}

const GONE = new Set(['ENTITY_IS_DELETED', 'NOT_FOUND', 'INVALID_CROSS_REFERENCE_KEY']);

export class SalesforceContactBook implements CrmContactBook {
  readonly destination = DESTINATION;
  readonly fields: readonly ContactField[] = [
    'firstName',
    'lastName',
    'company',
    'email',
    'phone',
    'mobile',
    'notes',
  ];
  readonly batchSize = COLLECTION;
  readonly createKind: Kind;

  constructor(
    private readonly t: SalesforceTransport,
    private readonly country: CountryCode,
    createAs: SalesforcePersonType = 'Contact',
  ) {
    this.createKind = createAs === 'Lead' ? 'lead' : 'contact';
  }

  writable(kind: Kind): readonly ContactField[] {
    return Object.keys(FIELD[TYPE[kind]]) as ContactField[];
  }

  /**
   * Checks that this user can write what the sync writes on Contact and Lead. The two custom fields,
   * when missing, callsync creates and grants itself (custom-fields.ts); what is still not writable
   * after that throws a non-retryable CrmError naming what an admin must add or grant, with the
   * reason Salesforce gave for refusing callsync's own attempt.
   */
  async prepare(): Promise<void> {
    let missing = await this.unwritable();
    let refused: string | undefined;
    const custom = missing.filter((m) => m.custom !== undefined);
    if (custom.length > 0) {
      try {
        await provisionCustomFields(
          this.t,
          custom.map((m) => ({ object: m.object, spec: m.custom! })),
        );
      } catch (err) {
        if (!(err instanceof CrmError) || err.retryable) throw err;
        refused = err.message;
      }
      missing = await this.unwritable();
    }
    if (missing.length > 0) {
      throw new CrmError({
        destination: DESTINATION,
        status: 403,
        code: 'INSUFFICIENT_ACCESS',
        message:
          `contact sync cannot write ${missing.map((m) => `${m.object}.${m.field}`).join(', ')}: create the ` +
          `custom fields ${LINK_FIELD} (Text 255, External ID) and ${DELETED_FIELD} (Date/Time) on Contact ` +
          'and Lead, and give the integration user Edit access to these fields' +
          (refused ? ` (callsync could not do it itself: ${refused})` : ''),
        retryable: false,
      });
    }
  }

  /** Fields of Contact and Lead the sync writes that this user cannot create and update. */
  private async unwritable(): Promise<
    Array<{ object: SalesforcePersonType; field: string; custom?: CustomFieldSpec }>
  > {
    const missing: Array<{ object: SalesforcePersonType; field: string; custom?: CustomFieldSpec }> = [];
    for (const object of ['Contact', 'Lead'] as const) {
      const describe = await this.t.call(() => this.t.connection.sobject(object).describe());
      const fields = new Map(describe.fields.map((f) => [f.name, f]));
      for (const field of [...Object.values(FIELD[object]), LINK_FIELD, DELETED_FIELD]) {
        const f = fields.get(field);
        if (!f || !f.createable || !f.updateable) {
          const custom = CUSTOM_FIELDS.find((c) => c.name === field);
          missing.push({ object, field, ...(custom ? { custom } : {}) });
        }
      }
    }
    return missing;
  }

  /** A SOQL result page by page (queryMore past the first); `all` reads the recycle bin too. */
  private async *query(soql: string, all = false): AsyncIterable<unknown[]> {
    let page = queryPageSchema.parse(
      await this.t.call(async () => await this.t.connection.query(soql, { scanAll: all })),
    );
    yield page.records;
    while (!page.done && page.nextRecordsUrl) {
      const next = page.nextRecordsUrl;
      page = queryPageSchema.parse(await this.t.call(async () => await this.t.connection.queryMore(next)));
      yield page.records;
    }
  }

  private async *read(where: (type: SalesforcePersonType) => string | null): AsyncIterable<SideRecord[]> {
    for (const type of ['Contact', 'Lead'] as const) {
      const conditions = [type === 'Lead' ? LEAD_FILTER : null, where(type)].filter(Boolean);
      const soql =
        `SELECT ${SELECT[type]} FROM ${type}` +
        (conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '') +
        ' ORDER BY SystemModstamp ASC, Id ASC';
      for await (const rows of this.query(soql)) yield rows.map((r) => sideRecordOf(r, type, this.country));
    }
  }

  listAll(): AsyncIterable<SideRecord[]> {
    return this.read(() => null);
  }

  changedSince(since: string): AsyncIterable<SideRecord[]> {
    return this.read(() => `SystemModstamp >= ${soqlDateTime(since)}`);
  }

  /** Contacts and Leads deleted since `since` (in the recycle bin: queryAll, IsDeleted = true). */
  async *deletedSince(since: string): AsyncIterable<string[]> {
    for (const type of ['Contact', 'Lead'] as const) {
      const soql =
        `SELECT Id FROM ${type} WHERE IsDeleted = true AND SystemModstamp >= ${soqlDateTime(since)}` +
        ' ORDER BY SystemModstamp ASC, Id ASC';
      for await (const rows of this.query(soql, true)) {
        yield rows.map((r) => personSchema.pick({ Id: true }).parse(r).Id);
      }
    }
  }

  async *convertedSince(since: string): AsyncIterable<Array<{ leadId: string; contactId: string }>> {
    const soql =
      `SELECT Id, ConvertedContactId FROM Lead WHERE IsConverted = true AND SystemModstamp >= ${soqlDateTime(since)}` +
      ' ORDER BY SystemModstamp ASC, Id ASC';
    for await (const rows of this.query(soql, false)) {
      yield rows.flatMap((r) => {
        const lead = convertedSchema.parse(r);
        return lead.ConvertedContactId ? [{ leadId: lead.Id, contactId: lead.ConvertedContactId }] : [];
      });
    }
  }

  async findByNumbersOrEmails(numbers: readonly string[], emails: readonly string[]): Promise<SideRecord[]> {
    const found = new Map<string, SideRecord>();
    const hits = await searchNumbers(
      numbers,
      async (find) => {
        const sosl =
          `FIND {${find}} IN PHONE FIELDS RETURNING ` +
          `Contact(${SELECT.Contact}), Lead(${SELECT.Lead} WHERE ${LEAD_FILTER})`;
        const res = await this.t.call(() => this.t.connection.search(sosl));
        return res.searchRecords.map((r): Record<string, unknown> => ({ ...r }));
      },
      (hit) => PHONES[typeOf(hit)].map((f) => hit[f]),
    );
    for (const hit of [...hits.values()].flat()) {
      const r = sideRecordOf(hit, typeOf(hit), this.country);
      found.set(r.id, r);
    }
    for (let i = 0; i < emails.length; i += EMAILS_PER_QUERY) {
      const list = emails.slice(i, i + EMAILS_PER_QUERY).map(soqlString);
      for await (const page of this.read(() => `Email IN (${list.join(', ')})`)) {
        for (const r of page) found.set(r.id, r);
      }
    }
    return [...found.values()];
  }

  private async save(
    method: 'create' | 'update',
    type: SalesforcePersonType,
    records: Record<string, unknown>[],
  ): Promise<SaveResult[]> {
    if (records.length === 0) return [];
    const sobject = this.t.connection.sobject(type);
    const res = await this.t.call(async () =>
      method === 'create'
        ? await sobject.create(records, { allOrNone: false })
        : await sobject.update(records as { Id: string }[], { allOrNone: false }),
    );
    // Collections answer in request order.
    return z.array(saveResultSchema).parse(res);
  }

  async create(inputs: readonly ContactCreate[]): Promise<CreateOutcome> {
    const out: CreateOutcome = { ids: new Map(), rejected: new Map() };
    const type = TYPE[this.createKind];
    const fields = this.writable(this.createKind);
    const records = inputs.map((i) => {
      const values = Object.fromEntries(
        Object.entries(fieldValues(type, i.state, fields)).filter(([, v]) => v !== null),
      );
      if (type === 'Lead' && !values.Company) values.Company = NO_COMPANY;
      return { ...values, [LINK_FIELD]: i.linkKey };
    });
    const results = await this.save('create', type, records);
    // Creates the org's duplicate rule refused, with the records it named. No
    // Sforce-Duplicate-Rule-Header allowSave: the org's policy stands, the sync links the record.
    const named = new Map<string, { matches: DuplicateMatch[]; result: SaveResult | undefined }>();
    inputs.forEach((input, n) => {
      const r = results[n];
      const duplicate = r?.errors.find((e) => e.statusCode === 'DUPLICATES_DETECTED');
      const matches = duplicate ? duplicateMatches(duplicate) : [];
      if (r?.success && r.id) out.ids.set(input.linkKey, r.id);
      else if (matches.length > 0) named.set(input.linkKey, { matches, result: r });
      else out.rejected.set(input.linkKey, reasonOf(r));
    });
    if (named.size === 0) return out;
    const found = await this.readNamed([...named.values()].flatMap((n) => n.matches));
    out.duplicates = new Map();
    for (const [key, { matches, result }] of named) {
      // Gone or converted since the rule named them: refused as it was.
      const records = matches.flatMap((m) => found.get(m.id) ?? []);
      if (records.length > 0) out.duplicates.set(key, records);
      else out.rejected.set(key, reasonOf(result));
    }
    return out;
  }

  /** The Contacts and (unconverted) Leads a duplicate rule named, read back with SOQL by Id. */
  private async readNamed(matches: readonly DuplicateMatch[]): Promise<Map<string, SideRecord>> {
    const out = new Map<string, SideRecord>();
    for (const type of ['Contact', 'Lead'] as const) {
      const ids = [...new Set(matches.filter((m) => m.type === type).map((m) => m.id))];
      for (let i = 0; i < ids.length; i += EMAILS_PER_QUERY) {
        const list = ids.slice(i, i + EMAILS_PER_QUERY).map(soqlString);
        const conditions = [`Id IN (${list.join(', ')})`, ...(type === 'Lead' ? [LEAD_FILTER] : [])];
        const soql = `SELECT ${SELECT[type]} FROM ${type} WHERE ${conditions.join(' AND ')}`;
        for await (const rows of this.query(soql)) {
          for (const row of rows) {
            const r = sideRecordOf(row, type, this.country);
            out.set(r.id, r);
          }
        }
      }
    }
    return out;
  }

  async update(inputs: readonly ContactUpdate[]): Promise<UpdateOutcome> {
    const out: UpdateOutcome = { missing: [], rejected: new Map(), duplicates: new Map() };
    for (const kind of ['contact', 'lead'] as const) {
      const type = TYPE[kind];
      const mine = inputs.filter((i) => i.kind === kind);
      const records = mine.map((i) => ({ Id: i.id, ...fieldValues(type, i.state, i.fields) }));
      const results = await this.save('update', type, records);
      mine.forEach((input, n) => {
        const r = results[n];
        if (r?.success) return;
        if (r?.errors.some((e) => GONE.has(e.statusCode ?? ''))) {
          out.missing.push(input.id);
          return;
        }
        out.rejected.set(input.id, reasonOf(r));
        // The org's duplicate rule on edit (never bypassed with allowSave): the sync holds the edit.
        const duplicate = r?.errors.find((e) => e.statusCode === 'DUPLICATES_DETECTED');
        if (duplicate)
          out.duplicates!.set(
            input.id,
            duplicateMatches(duplicate).map((m) => m.id),
          );
      });
    }
    return out;
  }

  async markDeleted(records: readonly { id: string; kind: Kind }[]): Promise<void> {
    const at = new Date().toISOString();
    for (const kind of ['contact', 'lead'] as const) {
      const ids = records.filter((r) => r.kind === kind).map((r) => r.id);
      const results = await this.save(
        'update',
        TYPE[kind],
        ids.map((Id) => ({ Id, [DELETED_FIELD]: at })),
      );
      // A record deleted in Salesforce meanwhile needs no mark; any other refusal is an error.
      const failed = results.find((r) => !r.success && !r.errors.some((e) => GONE.has(e.statusCode ?? '')));
      if (failed) {
        throw new CrmError({
          destination: DESTINATION,
          status: 400,
          code: failed.errors[0]?.statusCode,
          message: `marking deleted contacts: ${reasonOf(failed)}`,
          retryable: false,
        });
      }
    }
  }

  async remove(records: readonly { id: string; kind: Kind }[]): Promise<void> {
    for (const kind of ['contact', 'lead'] as const) {
      const ids = records.filter((r) => r.kind === kind).map((r) => r.id);
      if (ids.length === 0) continue;
      await this.t.call(
        async () => await this.t.connection.sobject(TYPE[kind]).destroy(ids, { allOrNone: false }),
      );
    }
  }
}
