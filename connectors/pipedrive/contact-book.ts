// Pipedrive persons for the two-way contact sync (v2 persons,
// https://developers.pipedrive.com/docs/api/v1/Persons): read in pages of 500 by cursor (all of
// them, or those whose update_time is at or after the cursor, oldest first), found by number and
// e-mail with the Search API (as findContactsByPhone finds callers), written one at a time (Pipedrive
// has no batch create or update of persons). Every request goes through the connector's client and
// its rate gates. A delete the platform saw sets the "callsync deleted" field or deletes the person.
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
import { CrmError } from '../crm/errors';
import type { PipedriveClient } from './client';
import {
  changedItems,
  contactPersonSchema,
  nameOf,
  onePersonSchema,
  newItems,
  PERSON_FIELDS,
  personRecord,
  type ContactPerson,
} from './contact-records';
import { DESTINATION, statusOf } from './errors';
import { ensurePersonFields, type PersonFieldKeys } from './person-fields';
import { IDS_PER_LIST, searchPersonHits, V2_PAGE } from './persons';
import { phoneQuery } from './records';
import { oneSchema, pageOf, parseAnswer, v2Pages } from './responses';

/** Answers that refuse one record's data (validation), which the sync reports and goes on. */
const REFUSED = new Set([400, 422]);

export class PipedriveContactBook implements CrmContactBook {
  readonly destination = DESTINATION;
  readonly fields = PERSON_FIELDS;
  readonly batchSize = 1;
  readonly createKind = 'contact';
  private keys: Promise<PersonFieldKeys> | null = null;

  constructor(
    private readonly client: PipedriveClient,
    private readonly country: CountryCode,
  ) {}

  writable(): readonly ContactField[] {
    return this.fields;
  }

  /** Finds (or creates) the link key and deleted mark fields, once per book. */
  async prepare(): Promise<void> {
    await this.fieldKeys();
  }

  private fieldKeys(): Promise<PersonFieldKeys> {
    this.keys ??= ensurePersonFields(this.client).catch((err: unknown) => {
      this.keys = null;
      throw err;
    });
    return this.keys;
  }

  /** Persons page by page, as the list's filters and order say. */
  private async *persons(filter: {
    updated_since?: string;
    ids?: string;
    sort_by: 'id' | 'update_time';
  }): AsyncIterable<SideRecord[]> {
    const keys = await this.fieldKeys();
    const pages = v2Pages(async (cursor) =>
      parseAnswer(
        pageOf(contactPersonSchema),
        await this.client.call('list persons', (a) =>
          a.persons.getPersons({
            ...filter,
            sort_direction: 'asc',
            limit: V2_PAGE,
            ...(cursor ? { cursor } : {}),
          }),
        ),
        'list persons',
      ),
    );
    for await (const page of pages) yield page.map((p) => personRecord(p, keys, this.country));
  }

  listAll(): AsyncIterable<SideRecord[]> {
    return this.persons({ sort_by: 'id' });
  }

  changedSince(since: string): AsyncIterable<SideRecord[]> {
    // RFC 3339 to the second (the documented form), rounded down: the records of that second come
    // again and their hash makes them no-ops.
    const from = new Date(Math.floor(Date.parse(since) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    return this.persons({ updated_since: from, sort_by: 'update_time' });
  }

  async findByNumbersOrEmails(numbers: readonly string[], emails: readonly string[]): Promise<SideRecord[]> {
    // The Search API finds ids (a number's national digits, then each hit's numbers checked as
    // findContactsByPhone does; an e-mail whole); the list reads the found persons by id.
    const ids = new Set<number>();
    for (const n of numbers) {
      const q = phoneQuery(n);
      for (const h of await searchPersonHits(this.client, q.term, 'phone', (x) => x.phones.some(q.holds)))
        ids.add(h.id);
    }
    for (const e of emails) {
      if (e.length < 2) continue;
      const hits = await searchPersonHits(this.client, e, 'email', (x) =>
        x.emails.some((m) => m.trim().toLowerCase() === e),
      );
      for (const h of hits) ids.add(h.id);
    }
    const all = [...ids];
    const found: SideRecord[] = [];
    for (let i = 0; i < all.length; i += IDS_PER_LIST) {
      const chunk = all.slice(i, i + IDS_PER_LIST).join(',');
      for await (const page of this.persons({ ids: chunk, sort_by: 'id' })) found.push(...page);
    }
    return found;
  }

  async create(inputs: readonly ContactCreate[]): Promise<CreateOutcome> {
    const keys = await this.fieldKeys();
    const out: CreateOutcome = { ids: new Map(), rejected: new Map() };
    for (const input of inputs) {
      try {
        const body = await this.client.call('create person', (a) =>
          a.persons.addPerson({
            AddPersonRequest: {
              name: nameOf(input.state),
              ...newItems(input.state),
              custom_fields: { [keys.link]: input.linkKey },
            },
          }),
        );
        out.ids.set(input.linkKey, String(parseAnswer(oneSchema, body, 'create person').data.id));
      } catch (err) {
        // Anything but a refusal (a lost answer, say) is thrown: the run is retried, and the engine
        // finds a person whose answer was lost by its link key.
        if (!refused(err)) throw err;
        out.rejected.set(input.linkKey, err.message);
      }
    }
    return out;
  }

  async update(inputs: readonly ContactUpdate[]): Promise<UpdateOutcome> {
    const out: UpdateOutcome = { missing: [], rejected: new Map() };
    for (const input of inputs) {
      try {
        // Numbers and e-mails are arrays Pipedrive replaces whole: the person's others are kept.
        const items = input.fields.some((f) => f === 'phone' || f === 'mobile' || f === 'email')
          ? changedItems(await this.person(input.id), input.state, input.fields)
          : {};
        const named = input.fields.includes('firstName') || input.fields.includes('lastName');
        await this.client.call('update person', (a) =>
          a.persons.updatePerson({
            id: Number(input.id),
            UpdatePersonRequest: { ...(named ? { name: nameOf(input.state) } : {}), ...items },
          }),
        );
      } catch (err) {
        if (statusOf(err) === 404 || statusOf(err) === 410) out.missing.push(input.id);
        else if (refused(err)) out.rejected.set(input.id, err.message);
        else throw err;
      }
    }
    return out;
  }

  private async person(id: string): Promise<ContactPerson> {
    const body = await this.client.call('get person', (a) => a.persons.getPerson({ id: Number(id) }));
    return parseAnswer(onePersonSchema, body, 'get person').data;
  }

  async markDeleted(records: readonly { id: string; kind: 'contact' | 'lead' }[]): Promise<void> {
    const keys = await this.fieldKeys();
    const at = new Date().toISOString();
    for (const r of records) {
      await this.gone(() =>
        this.client.call('mark person deleted', (a) =>
          a.persons.updatePerson({
            id: Number(r.id),
            UpdatePersonRequest: { custom_fields: { [keys.deleted]: at } },
          }),
        ),
      );
    }
  }

  async remove(records: readonly { id: string; kind: 'contact' | 'lead' }[]): Promise<void> {
    for (const r of records)
      await this.gone(() =>
        this.client.call('delete person', (a) => a.persons.deletePerson({ id: Number(r.id) })),
      );
  }

  /** A write where "already gone" (404, 410) counts as done. */
  private async gone(send: () => Promise<unknown>): Promise<void> {
    try {
      await send();
    } catch (err) {
      const status = statusOf(err);
      if (status !== 404 && status !== 410) throw err;
    }
  }
}

/** Pipedrive refused one record's data (the others go on). */
function refused(err: unknown): err is CrmError {
  return err instanceof CrmError && err.status !== undefined && REFUSED.has(err.status);
}
