// The CRM contact cache: one account's phone number → the contacts its CRM holds it under. Filled by CRM searches (a miss
// searches the CRM, then caches what it found, or that it found nobody) and warmed by the contact sync,
// so screen-pop on a ringing call answers without waiting for the CRM.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables';

/** A CRM contact as the cache keeps it (the shape of connectors/crm's CrmContact). */
export interface CachedCrmContact {
  crmId: string;
  kind: 'contact' | 'lead';
  name: string | null;
  ownerId: string | null;
  /** The CRM's last modification (ISO 8601). */
  updatedAt: string | null;
}

/**
 * Whose cache: one account's answers from one destination. Every read and write names both, so an
 * account never sees what another account's CRM (or another portal) said about a number.
 */
export interface CrmContactCacheScope {
  /** The platform account. */
  account: string;
  /** The destination's identity: type plus portal, org or instance (connectors/crm destinationIdOf). */
  destination: string;
}

/** One contact holding one number in one account's destination. */
export interface CrmContactCacheEntry extends CrmContactCacheScope {
  /** The number in E.164. */
  e164: string;
  contact: CachedCrmContact;
}

/** What the cache knows of a number: its contacts ([] = the CRM had nobody) and when it learnt it. */
export interface CachedPhoneLookup {
  contacts: CachedCrmContact[];
  /** The oldest entry's time, so a caller can refuse a lookup older than it trusts. */
  cachedAt: Date;
}

/** The crm_id of the row that remembers "the CRM had nobody with this number". */
const NOBODY = '';

/** Runs `body` in a transaction, or in the caller's when `db` already is one (the contact sync's batch). */
function atomically<T>(db: Kysely<Database>, body: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? body(db) : db.transaction().execute(body);
}

/**
 * Records contacts holding numbers (newer data replaces older), and drops any remembered "nobody"
 * for those numbers. Idempotent; one statement per call whatever the number of rows.
 */
export async function upsertCrmContactCache(
  db: Kysely<Database>,
  rows: readonly CrmContactCacheEntry[],
): Promise<void> {
  if (rows.length === 0) return;
  // One row per key: the last one given wins, as a later write would.
  const unique = new Map<string, CrmContactCacheEntry>();
  for (const r of rows)
    unique.set(`${r.account}\u0000${r.destination}\u0000${r.e164}\u0000${r.contact.crmId}`, r);
  const values = [...unique.values()];
  await atomically(db, async (trx) => {
    await trx
      .insertInto('crm_contact_cache')
      .values(
        values.map((r) => ({
          account: r.account,
          destination: r.destination,
          e164: r.e164,
          crm_id: r.contact.crmId,
          kind: r.contact.kind,
          name: r.contact.name,
          owner_id: r.contact.ownerId,
          crm_updated_at: r.contact.updatedAt,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['account', 'destination', 'e164', 'crm_id']).doUpdateSet({
          kind: (eb) => eb.ref('excluded.kind'),
          name: (eb) => eb.ref('excluded.name'),
          owner_id: (eb) => eb.ref('excluded.owner_id'),
          crm_updated_at: (eb) => eb.ref('excluded.crm_updated_at'),
          cached_at: sql<Date>`now()`,
        }),
      )
      .execute();
    await sql`
      delete from crm_contact_cache c
      using unnest(
        ${values.map((r) => r.account)}::text[],
        ${values.map((r) => r.destination)}::text[],
        ${values.map((r) => r.e164)}::text[]
      ) as k(account, destination, e164)
      where c.account = k.account and c.destination = k.destination and c.e164 = k.e164
        and c.crm_id = ${NOBODY}`.execute(trx);
  });
}

/**
 * Remembers that the CRM had nobody with `e164` (a search came back empty), replacing what the cache
 * held for the number.
 */
export async function recordCrmContactMiss(
  db: Kysely<Database>,
  scope: CrmContactCacheScope,
  e164: string,
): Promise<void> {
  await atomically(db, async (trx) => {
    await trx
      .deleteFrom('crm_contact_cache')
      .where('account', '=', scope.account)
      .where('destination', '=', scope.destination)
      .where('e164', '=', e164)
      .execute();
    await trx
      .insertInto('crm_contact_cache')
      .values({
        account: scope.account,
        destination: scope.destination,
        e164,
        crm_id: NOBODY,
        kind: 'none',
        name: null,
        owner_id: null,
        crm_updated_at: null,
      })
      .onConflict((oc) =>
        oc.columns(['account', 'destination', 'e164', 'crm_id']).doUpdateSet({ cached_at: sql<Date>`now()` }),
      )
      .execute();
  });
}

/**
 * Replaces every number cached for one contact with `e164s` (the contact sync, after a contact's
 * numbers changed). An empty list forgets the contact (deleted in the CRM).
 */
export async function replaceCrmContactNumbers(
  db: Kysely<Database>,
  scope: CrmContactCacheScope,
  contact: CachedCrmContact,
  e164s: readonly string[],
): Promise<void> {
  await atomically(db, async (trx) => {
    let stale = trx
      .deleteFrom('crm_contact_cache')
      .where('account', '=', scope.account)
      .where('destination', '=', scope.destination)
      .where('crm_id', '=', contact.crmId);
    if (e164s.length > 0) stale = stale.where('e164', 'not in', [...e164s]);
    await stale.execute();
    await upsertCrmContactCache(
      trx,
      e164s.map((e164) => ({ ...scope, e164, contact })),
    );
  });
}

/** Forgets a contact everywhere in one account's cache (deleted or merged away in the CRM). */
export async function forgetCrmContact(
  db: Kysely<Database>,
  scope: CrmContactCacheScope,
  crmId: string,
): Promise<void> {
  await db
    .deleteFrom('crm_contact_cache')
    .where('account', '=', scope.account)
    .where('destination', '=', scope.destination)
    .where('crm_id', '=', crmId)
    .execute();
}

/**
 * The contacts the cache holds for a number, or null when the cache knows nothing of it (search the
 * CRM). `maxAgeMs` ignores entries older than that.
 */
export async function findCrmContactByPhone(
  db: Kysely<Database>,
  scope: CrmContactCacheScope,
  e164: string,
  maxAgeMs?: number,
): Promise<CachedPhoneLookup | null> {
  let query = db
    .selectFrom('crm_contact_cache')
    .select(['crm_id', 'kind', 'name', 'owner_id', 'crm_updated_at', 'cached_at'])
    .where('account', '=', scope.account)
    .where('destination', '=', scope.destination)
    .where('e164', '=', e164);
  if (maxAgeMs !== undefined) {
    query = query.where('cached_at', '>=', sql<Date>`now() - make_interval(secs => ${maxAgeMs / 1000})`);
  }
  const rows = await query.execute();
  if (rows.length === 0) return null;
  const cachedAt = new Date(Math.min(...rows.map((r) => r.cached_at.getTime())));
  const contacts: CachedCrmContact[] = [];
  for (const r of rows) {
    if (r.kind === 'none') continue;
    contacts.push({
      crmId: r.crm_id,
      kind: r.kind,
      name: r.name,
      ownerId: r.owner_id,
      updatedAt: r.crm_updated_at,
    });
  }
  return { contacts, cachedAt };
}
