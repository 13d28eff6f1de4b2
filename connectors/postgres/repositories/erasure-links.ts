// The records that tie a person's identifiers together, for erasing every one of them: the platform's
// contacts (their numbers and e-mail on one record; a second record with the same e-mail) and the CRM
// contact cache (numbers cached as the same CRM contact). A superset, read by digits and e-mail here
// and confirmed by lib/erasure/links.ts.
import { sql, type Kysely } from 'kysely';
import type { LinkRecord } from '../../../lib/erasure/links';
import type { Database } from '../tables';

/** Phone columns of a platform contact. */
export const CONTACT_PHONE_COLUMNS = ['tel', 'tel_1', 'tel_2', 'mobile', 'mobile_1', 'mobile_2'] as const;

/**
 * Contacts with a phone whose last digits are one of `tails`, or with one of `emails`; and, per CRM
 * contact cached for one of `numbers` (E.164), every number cached as that contact.
 */
export async function linkRecords(
  db: Kysely<Database>,
  q: { tails: string[]; emails: string[]; numbers: string[] },
): Promise<LinkRecord[]> {
  const out: LinkRecord[] = [];
  const tailRe = q.tails.length > 0 ? `(${q.tails.join('|')})$` : null;
  const contacts = await db
    .selectFrom('contacts')
    .select([...CONTACT_PHONE_COLUMNS, 'email'])
    .where((eb) =>
      eb.or([
        ...(tailRe
          ? CONTACT_PHONE_COLUMNS.map(
              (c) => sql<boolean>`regexp_replace(${sql.ref(c)}, '\\D', '', 'g') ~ ${tailRe}`,
            )
          : []),
        ...(q.emails.length > 0 ? [sql<boolean>`lower(trim(email)) = ANY(${q.emails}::text[])`] : []),
        sql<boolean>`false`,
      ]),
    )
    .execute();
  for (const c of contacts) {
    out.push({ phones: CONTACT_PHONE_COLUMNS.map((k) => c[k]), emails: [c.email] });
  }
  if (q.numbers.length > 0) {
    const cached = await db
      .selectFrom('crm_contact_cache as a')
      .innerJoin('crm_contact_cache as b', (j) =>
        j.onRef('a.destination', '=', 'b.destination').onRef('a.crm_id', '=', 'b.crm_id'),
      )
      .select(['a.e164 as from', 'b.e164 as linked'])
      .where('a.e164', 'in', q.numbers)
      .where('a.kind', '<>', 'none')
      .where('b.kind', '<>', 'none')
      .execute();
    for (const r of cached) out.push({ phones: [r.from, r.linked], emails: [] });
  }
  return out;
}
