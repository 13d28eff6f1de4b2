// Persons: found by phone through the Search API (fields=phone; a term of the national number, every
// hit's phones then compared with the E.164 number, records.ts phoneQuery), with their update times
// from the persons list for the "most recently updated" rule; created for unknown callers.
// https://developers.pipedrive.com/docs/api/v1/Persons
import type { CrmContact } from '../crm/crm-connector';
import type { PipedriveClient } from './client';
import { phoneQuery } from './records';
import { isoOf, pageOf, parseAnswer, personSchema, searchPageSchema, oneSchema } from './responses';

/** Largest page of Pipedrive's search and v2 lists (limit ≤ 500). */
export const V2_PAGE = 500;
/** Most ids one persons list takes (`ids`: up to 100). */
export const IDS_PER_LIST = 100;

/** A person the Search API found: its id, name, phones and e-mails as the hit lists them. */
export interface PersonHit {
  id: number;
  name: string | null;
  ownerId: number | null;
  phones: string[];
  emails: string[];
}

/** Every person the Search API finds for `term` in `field` (all pages), those `keep` accepts. */
export async function searchPersonHits(
  client: PipedriveClient,
  term: string,
  field: 'phone' | 'email',
  keep: (hit: PersonHit) => boolean,
): Promise<PersonHit[]> {
  const hits: PersonHit[] = [];
  let cursor: string | undefined;
  do {
    const body = await client.call(
      'search persons',
      (a) =>
        a.persons.searchPersons({
          term,
          fields: field,
          // An e-mail is found whole; a number's digits may sit inside a longer written form.
          ...(field === 'email' ? { exact_match: true } : {}),
          limit: V2_PAGE,
          ...(cursor ? { cursor } : {}),
        }),
      true,
    );
    const page = parseAnswer(searchPageSchema, body, 'search persons');
    for (const { item } of page.data?.items ?? []) {
      const hit = {
        id: item.id,
        name: item.name ?? null,
        ownerId: item.owner?.id ?? null,
        phones: item.phones ?? [],
        emails: item.emails ?? [],
      };
      if (keep(hit)) hits.push(hit);
    }
    cursor = page.additional_data?.next_cursor ?? undefined;
  } while (cursor);
  return hits;
}

/** The persons whose phones hold `e164` (Search API on phone, each hit's phones checked). */
export async function findPersonsByPhone(client: PipedriveClient, e164: string): Promise<CrmContact[]> {
  const q = phoneQuery(e164);
  const hits = await searchPersonHits(client, q.term, 'phone', (h) => h.phones.some(q.holds));
  if (hits.length === 0) return [];
  // Search hits carry no update time; the persons list does (for "most recently updated").
  const updated = new Map<number, string | null>();
  if (hits.length > 1) {
    for (let i = 0; i < hits.length; i += IDS_PER_LIST) {
      const ids = hits.slice(i, i + IDS_PER_LIST).map((h) => h.id);
      const body = await client.call('get persons', (a) =>
        a.persons.getPersons({ ids: ids.join(','), limit: V2_PAGE }),
      );
      for (const p of parseAnswer(pageOf(personSchema), body, 'get persons').data ?? [])
        updated.set(p.id, isoOf(p.update_time));
    }
  }
  return hits.map((h) => ({
    crmId: String(h.id),
    kind: 'contact' as const,
    name: h.name,
    ownerId: h.ownerId === null ? null : String(h.ownerId),
    updatedAt: updated.get(h.id) ?? null,
  }));
}

/** A person for an unknown caller. */
export async function createPerson(
  client: PipedriveClient,
  input: { phone: string; name: string | null },
): Promise<CrmContact> {
  // Pipedrive requires a person's name: an unknown caller is named by their number.
  const name = input.name ?? input.phone;
  const body = await client.call('create person', (a) =>
    a.persons.addPerson({
      AddPersonRequest: { name, phones: [{ value: input.phone, primary: true, label: 'work' }] },
    }),
  );
  const p = parseAnswer(oneSchema, body, 'create person').data;
  return { crmId: String(p.id), kind: 'contact', name, ownerId: null, updatedAt: null };
}
