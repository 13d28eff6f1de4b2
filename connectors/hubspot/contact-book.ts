// HubSpot contacts for the two-way contact sync: read in pages of 100 (the general limit), changes
// found by search on lastmodifieddate (the search limit, 200 a page, 10,000 a query), written with
// batch create/update/archive of 100. Requests go through the connector's rate gates.
import type { Client } from '@hubspot/api-client';
import type { FilterOperatorEnum } from '@hubspot/api-client/lib/codegen/crm/contacts';
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
import { SEARCH_PAGE, rereadMargin, searchModifiedSince } from './modified-search';
import { splitBySearchBody } from './search-body';

/** Most inputs HubSpot takes in one batch request, and records in one list page. */
const BATCH = 100;

/** The custom contact properties the sync writes. */
export const LINK_PROPERTY = 'callsync_contact';
export const DELETED_PROPERTY = 'callsync_deleted';

const PROPERTY: Partial<Record<ContactField, string>> = {
  firstName: 'firstname',
  lastName: 'lastname',
  company: 'company',
  email: 'email',
  phone: 'phone',
  mobile: 'mobilephone',
};
const READ = [...Object.values(PROPERTY), 'lastmodifieddate', LINK_PROPERTY, DELETED_PROPERTY];

/** How the book sends requests: through the connector's general gate, or its search gate too. */
export interface HubSpotTransport {
  client: Client;
  call<T>(send: () => Promise<T>): Promise<T>;
  search<T>(send: () => Promise<T>): Promise<T>;
  /** How long HubSpot's search may take to see a write (HubSpotConfig.searchLagSeconds). */
  searchLagMs: number;
  /** Property reads and creates the connector's prepare() already does for calls and tasks. */
  ensureProperty(objectType: 'contacts', name: string, label: string, description: string): Promise<void>;
}

interface HubSpotContact {
  id: string;
  properties: Record<string, string | null>;
  updatedAt?: Date | string;
}

export class HubSpotContactBook implements CrmContactBook {
  readonly destination = DESTINATION;
  readonly fields = Object.keys(PROPERTY) as ContactField[];
  readonly batchSize = BATCH;
  readonly createKind = 'contact';

  constructor(
    private readonly t: HubSpotTransport,
    private readonly country: CountryCode,
  ) {}

  writable(): readonly ContactField[] {
    return this.fields;
  }

  async prepare(): Promise<void> {
    await this.t.ensureProperty(
      'contacts',
      LINK_PROPERTY,
      'callsync contact',
      'The platform contact callsync created this contact for; do not edit.',
    );
    await this.t.ensureProperty(
      'contacts',
      DELETED_PROPERTY,
      'callsync: deleted on the phone system',
      'Set by callsync when the linked platform contact was deleted.',
    );
  }

  private record(c: HubSpotContact): SideRecord {
    const p = c.properties;
    const state: ContactState = {
      firstName: text(p.firstname),
      lastName: text(p.lastname),
      company: text(p.company),
      email: email(p.email),
      phone: number(p.phone, this.country),
      mobile: number(p.mobilephone, this.country),
      notes: null,
    };
    const modified = p.lastmodifieddate ?? c.updatedAt ?? null;
    return {
      id: c.id,
      state,
      numbers: numbersOf([p.phone, p.mobilephone], this.country),
      modifiedAt: modified === null ? null : new Date(modified).toISOString(),
      kind: 'contact',
      linkKey: text(p[LINK_PROPERTY]),
      markedDeleted: text(p[DELETED_PROPERTY]) !== null,
    };
  }

  async *listAll(): AsyncIterable<SideRecord[]> {
    let after: string | undefined;
    do {
      const page = await this.t.call(() => this.t.client.crm.contacts.basicApi.getPage(BATCH, after, READ));
      yield page.results.map((c) => this.record(c));
      after = page.paging?.next?.after;
    } while (after);
  }

  async *changedSince(since: string): AsyncIterable<SideRecord[]> {
    // Past the search's 10,000 results a new query starts at the last modification time seen
    // (records of that instant come again; their hash makes them no-ops). The read starts a margin
    // behind the cursor: search sees writes late and out of order (rereadMargin); the
    // records that come again are no-ops too. Search only says which contacts changed: their
    // properties are read by id (reads by id see every write at once), since a lagging index answers
    // with the values from before a write (callsync's own included), which would be taken for a change
    // in HubSpot and written back over the platform's newer ones.
    const { searchApi, batchApi } = this.t.client.crm.contacts;
    const pages = searchModifiedSince({
      what: 'contacts',
      property: 'lastmodifieddate',
      from: Math.max(0, Date.parse(since) - rereadMargin(this.t.searchLagMs)),
      properties: READ,
      search: (request) =>
        this.t.search(() => searchApi.doSearch(request as Parameters<typeof searchApi.doSearch>[0])),
    });
    for await (const page of pages) {
      // Batch reads take 100 ids at most (a search page holds 200).
      for (let i = 0; i < page.length; i += BATCH) {
        const ids = page.slice(i, i + BATCH).map((c) => ({ id: c.id }));
        const read = await this.t.call(() =>
          batchApi.read({ inputs: ids, properties: READ, propertiesWithHistory: [] }),
        );
        // A contact archived since the search is missing here: the deletion read sees it.
        yield read.results.map((c) => this.record(c as HubSpotContact));
      }
    }
  }

  async findByNumbersOrEmails(numbers: readonly string[], emails: readonly string[]): Promise<SideRecord[]> {
    const found = new Map<string, SideRecord>();
    // HubSpot's calculated searchable numbers hold the digits as typed without the country code:
    // with or without the national trunk prefix (7946 0404 typed as 020 7946 0404 keeps its 0).
    const nationalForms = (n: string): string[] => {
      const parsed = parsePhoneNumberFromString(n);
      if (!parsed) return [];
      return [...new Set([parsed.nationalNumber, parsed.formatNational().replace(/\D/g, '')])];
    };
    // As many numbers and addresses a search as its body holds (HubSpot takes 3,000 characters).
    const wanted = [
      ...numbers.map((value) => ({ number: true, value })),
      ...emails.map((value) => ({ number: false, value })),
    ];
    const searches = splitBySearchBody(wanted, (run) => {
      const nums = run.filter((w) => w.number).map((w) => w.value);
      const nats = [...new Set(nums.flatMap(nationalForms))];
      const mails = run.filter((w) => !w.number).map((w) => w.value);
      const groups = [
        ['phone', nums],
        ['mobilephone', nums],
        ['hs_searchable_calculated_phone_number', nats],
        ['hs_searchable_calculated_mobile_number', nats],
        ['email', mails],
      ] as const;
      const filterGroups = groups
        .filter(([, values]) => values.length > 0)
        .map(([propertyName, values]) => ({
          filters: [{ propertyName, operator: 'IN' as FilterOperatorEnum, values: [...values] }],
        }));
      return { filterGroups, properties: READ, limit: SEARCH_PAGE };
    });
    for (const { body } of searches) {
      let after: string | undefined;
      do {
        const request = { ...body, ...(after ? { after } : {}) };
        const page = await this.t.search(() => this.t.client.crm.contacts.searchApi.doSearch(request));
        for (const c of page.results) found.set(c.id, this.record(c));
        after = page.paging?.next?.after;
      } while (after);
    }
    return [...found.values()];
  }

  private properties(state: ContactState, fields: readonly ContactField[]): Record<string, string> {
    const props: Record<string, string> = {};
    for (const f of fields) {
      const name = PROPERTY[f];
      if (name) props[name] = state[f] ?? '';
    }
    return props;
  }

  async create(inputs: readonly ContactCreate[]): Promise<CreateOutcome> {
    const ids = new Map<string, string>();
    // HubSpot's batch create is all or nothing: an error throws, nothing is refused alone.
    const out = { ids, rejected: new Map<string, string>() };
    if (inputs.length === 0) return out;
    const res = await this.t.call(() =>
      this.t.client.crm.contacts.batchApi.create({
        inputs: inputs.map((i) => ({
          properties: { ...this.properties(i.state, this.fields), [LINK_PROPERTY]: i.linkKey },
          associations: [],
        })),
      }),
    );
    // Results come in any order: the link key says which input each one is.
    for (const r of res.results) {
      const key = r.properties[LINK_PROPERTY];
      if (key) ids.set(key, r.id);
    }
    return out;
  }

  async update(inputs: readonly ContactUpdate[]): Promise<UpdateOutcome> {
    const rejected = new Map<string, string>();
    if (inputs.length === 0) return { missing: [], rejected };
    const res = await this.t.call(() =>
      this.t.client.crm.contacts.batchApi.update({
        inputs: inputs.map((i) => ({ id: i.id, properties: this.properties(i.state, i.fields) })),
      }),
    );
    const errors = 'errors' in res ? (res.errors ?? []) : [];
    const missing: string[] = [];
    for (const e of errors) {
      if (e.category !== 'OBJECT_NOT_FOUND') {
        throw new CrmError({
          destination: DESTINATION,
          status: 207,
          code: e.category,
          message: `contact batch update: ${e.message}`,
          retryable: false,
        });
      }
      missing.push(...(e.context?.ids ?? []));
    }
    return { missing, rejected };
  }

  async markDeleted(records: readonly { id: string }[]): Promise<void> {
    if (records.length === 0) return;
    const at = new Date().toISOString();
    await this.t.call(() =>
      this.t.client.crm.contacts.batchApi.update({
        inputs: records.map((r) => ({ id: r.id, properties: { [DELETED_PROPERTY]: at } })),
      }),
    );
  }

  async remove(records: readonly { id: string }[]): Promise<void> {
    if (records.length === 0) return;
    await this.t.call(() =>
      this.t.client.crm.contacts.batchApi.archive({ inputs: records.map((r) => ({ id: r.id })) }),
    );
  }
}
