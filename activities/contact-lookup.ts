// Who in an account's CRM holds a phone number: a minute in this process's memory, then the shared
// crm_contact_cache table (which the contact sync warms), then the CRM's search, whose answer (or
// "nobody") goes back into the table. CRMs rate-limit search hard (HubSpot: a few per second), and a
// ringing call cannot wait for one. Every answer is the account's and its destination's (portal, org)
// alone: another account's contact, or its "nobody", never answers for this one.
import { conversationsOf } from '../config/account-settings';
import type { CallsyncConfig } from '../config/schema';
import { destinationIdOf, type CrmConnector, type CrmContact } from '../connectors/crm/crm-connector';
import {
  findCrmContactByPhone,
  recordCrmContactMiss,
  upsertCrmContactCache,
  type CrmContactCacheScope,
  type WarehouseDatabase,
} from '../connectors/postgres';

const MEMORY_MS = 60_000;
const MEMORY_MAX = 10_000;

/** How long an account's cached answers are trusted. */
export interface CacheMaxAges {
  /** A cached contact. */
  contactMs: number;
  /** A cached "nobody has this number". */
  unknownMs: number;
}

export interface ContactLookupOptions {
  warehouse: WarehouseDatabase;
  /** Each account's own (`conversations.screenPop`'s cache ages, overridable per account). */
  maxAgesOf: (account: string) => CacheMaxAges;
}

/** Where an answer came from, for logs and tests. */
export type LookupSource = 'memory' | 'cache' | 'crm';

export interface ContactLookup {
  /**
   * Every contact in `account`'s CRM holding `e164`, from the fastest place that knows. `search` asks
   * the CRM on a miss (a batcher's shared search, say); the connector's own search by default.
   */
  candidates(
    account: string,
    crm: CrmConnector,
    e164: string,
    search?: (e164: string) => Promise<CrmContact[]>,
  ): Promise<{ contacts: CrmContact[]; source: LookupSource }>;
  /** Records a contact callsync just created, so the next lookup finds it without a search. */
  remember(account: string, crm: CrmConnector, e164: string, contact: CrmContact): Promise<void>;
}

export function createContactLookup(opts: ContactLookupOptions): ContactLookup {
  const memory = new Map<string, { at: number; contacts: CrmContact[] }>();
  const keep = (key: string, contacts: CrmContact[]) => {
    memory.delete(key);
    memory.set(key, { at: Date.now(), contacts });
    if (memory.size > MEMORY_MAX) memory.delete(memory.keys().next().value!);
  };
  const db = opts.warehouse.db;
  const scopeOf = (account: string, crm: CrmConnector): CrmContactCacheScope => ({
    account,
    destination: destinationIdOf(crm),
  });
  const keyOf = (scope: CrmContactCacheScope, e164: string) =>
    `${scope.account}\u0000${scope.destination}\u0000${e164}`;

  return {
    async candidates(account, crm, e164, search = (n) => crm.findContactsByPhone(n)) {
      const scope = scopeOf(account, crm);
      const key = keyOf(scope, e164);
      const mem = memory.get(key);
      if (mem && Date.now() - mem.at <= MEMORY_MS) return { contacts: mem.contacts, source: 'memory' };
      const maxAges = opts.maxAgesOf(account);
      const cached = await findCrmContactByPhone(db, scope, e164, maxAges.contactMs);
      const fresh =
        cached !== null &&
        (cached.contacts.length > 0 || Date.now() - cached.cachedAt.getTime() <= maxAges.unknownMs);
      if (cached && fresh) {
        keep(key, cached.contacts);
        return { contacts: cached.contacts, source: 'cache' };
      }
      const found = await search(e164);
      if (found.length === 0) await recordCrmContactMiss(db, scope, e164);
      else
        await upsertCrmContactCache(
          db,
          found.map((contact) => ({ ...scope, e164, contact })),
        );
      keep(key, found);
      return { contacts: found, source: 'crm' };
    },

    async remember(account, crm, e164, contact) {
      const scope = scopeOf(account, crm);
      await upsertCrmContactCache(db, [{ ...scope, e164, contact }]);
      keep(keyOf(scope, e164), [contact]);
    },
  };
}

const lookups = new WeakMap<object, ContactLookup>();

/** The one lookup of a worker's activities (call logs, screen-pop, messages share its memory). */
export function contactLookupOf(deps: {
  warehouse: WarehouseDatabase;
  config: CallsyncConfig;
}): ContactLookup {
  let lookup = lookups.get(deps);
  if (!lookup) {
    const config = deps.config;
    lookup = createContactLookup({
      warehouse: deps.warehouse,
      maxAgesOf: (account) => {
        const { contactCacheMaxAge, unknownCacheMaxAge } = conversationsOf(config, account).screenPop;
        return { contactMs: contactCacheMaxAge, unknownMs: unknownCacheMaxAge };
      },
    });
    lookups.set(deps, lookup);
  }
  return lookup;
}
