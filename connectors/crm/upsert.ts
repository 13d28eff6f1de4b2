// Exactly-once CRM writes on top of at-least-once execution. For one idempotency key:
//   mapping hit              → update the mapped object;
//   miss, vendor has the key → record the mapping (a create whose mapping write was lost), update;
//   miss everywhere          → create, record the mapping at once.
// The miss path runs under a per-key lock, so concurrent upserts of one key create one object.
import type { Kysely } from 'kysely';
import type { CrmObjectKind, Database } from '../postgres/tables';
import { accountOfKey } from './call-log-body';
import {
  destinationIdOf,
  type CallbackTask,
  type CallLog,
  type CrmConnector,
  type CrmContact,
  type MessageLog,
} from './crm-connector';
import { getMapping, recordMapping, touchMapping, withKeyLock, type MappingKey } from './mapping';

/** How an upsert ended, for logs and tests. */
export type UpsertOutcome = 'updated' | 'recovered' | 'created';

export interface UpsertResult {
  crmId: string;
  outcome: UpsertOutcome;
}

interface Ops<T> {
  kind: CrmObjectKind;
  find(key: string): Promise<string | null>;
  create(item: T): Promise<string>;
  update(crmId: string, item: T): Promise<void>;
}

/** Options of an upsert. */
export interface UpsertOptions {
  /**
   * Whether an earlier attempt may have created the object without recording its mapping (it
   * crashed in between). Only then is the vendor searched for the key before creating: vendors
   * rate-limit search hard (HubSpot: 4-5 per second), so a first attempt, which cannot have left
   * such an object, goes straight to create. Default true (always safe).
   */
  mayExist?: boolean;
}

async function upsert<T extends { key: string }>(
  db: Kysely<Database>,
  /** The destination's identity (portal, org): a mapping of another portal is no object of this one. */
  destination: string,
  item: T,
  ops: Ops<T>,
  opts: UpsertOptions = {},
): Promise<UpsertResult> {
  const key: MappingKey = { destination, kind: ops.kind, sourceKey: item.key };
  const mapped = await getMapping(db, key);
  if (mapped !== null) {
    await ops.update(mapped, item);
    await touchMapping(db, key);
    return { crmId: mapped, outcome: 'updated' };
  }
  const account = accountOfKey(item.key);
  const claimed = await withKeyLock(db, key, async (trx) => {
    const again = await getMapping(trx, key);
    if (again !== null) return { crmId: again, outcome: 'updated' as const };
    const found = opts.mayExist === false ? null : await ops.find(item.key);
    if (found !== null) {
      return {
        crmId: await recordMapping(trx, { ...key, account, crmId: found }),
        outcome: 'recovered' as const,
      };
    }
    const created = await ops.create(item);
    return {
      crmId: await recordMapping(trx, { ...key, account, crmId: created }),
      outcome: 'created' as const,
    };
  });
  // A created object already carries `item`; a found or concurrently created one may be older.
  if (claimed.outcome !== 'created') await ops.update(claimed.crmId, item);
  return claimed;
}

/** Creates or updates the call log for `log.key` in `connector`, exactly once; returns its CRM id. */
export function upsertCallLog(
  db: Kysely<Database>,
  connector: CrmConnector,
  log: CallLog,
  opts: UpsertOptions = {},
): Promise<UpsertResult> {
  return upsert(
    db,
    destinationIdOf(connector),
    log,
    {
      kind: 'call_log',
      find: (key) => connector.findCallLog(key),
      create: (item) => connector.createCallLog(item),
      update: (crmId, item) => connector.updateCallLog(crmId, item),
    },
    opts,
  );
}

/** Creates or updates the callback task for `task.key` in `connector`, exactly once; returns its CRM id. */
export function upsertTask(
  db: Kysely<Database>,
  connector: CrmConnector,
  task: CallbackTask,
  opts: UpsertOptions = {},
): Promise<UpsertResult> {
  return upsert(
    db,
    destinationIdOf(connector),
    task,
    {
      kind: 'task',
      find: (key) => connector.findTask(key, task),
      create: (item) => connector.createTask(item),
      update: (crmId, item) => connector.updateTask(crmId, item),
    },
    opts,
  );
}

/**
 * Logs an SMS or voice message on its contact for `log.key`, exactly once (updates it in place when
 * called again); null when the connector keeps no messages.
 */
export function upsertMessageLog(
  db: Kysely<Database>,
  connector: CrmConnector,
  log: MessageLog,
  opts: UpsertOptions = {},
): Promise<UpsertResult> | null {
  if (!connector.createMessageLog || !connector.updateMessageLog) return null;
  return upsert(
    db,
    destinationIdOf(connector),
    log,
    {
      kind: log.channel,
      find: (key) => connector.findMessageLog?.(key, log) ?? Promise.resolve(null),
      create: (item) => connector.createMessageLog!(item),
      update: (crmId, item) => connector.updateMessageLog!(crmId, item),
    },
    opts,
  );
}

/**
 * Updates several already-mapped call logs, through the connector's batch endpoint when it has one.
 * Logs without a mapping go through upsertCallLog one by one.
 */
export async function updateCallLogs(
  db: Kysely<Database>,
  connector: CrmConnector,
  logs: readonly CallLog[],
): Promise<UpsertResult[]> {
  if (logs.length <= 1 || !connector.updateCallLogs) {
    const results: UpsertResult[] = [];
    for (const log of logs) results.push(await upsertCallLog(db, connector, log));
    return results;
  }
  const mapped: { crmId: string; log: CallLog }[] = [];
  const results: UpsertResult[] = [];
  for (const log of logs) {
    const crmId = await getMapping(db, {
      destination: destinationIdOf(connector),
      kind: 'call_log',
      sourceKey: log.key,
    });
    if (crmId === null) results.push(await upsertCallLog(db, connector, log));
    else mapped.push({ crmId, log });
  }
  if (mapped.length > 0) await connector.updateCallLogs(mapped);
  for (const m of mapped) results.push({ crmId: m.crmId, outcome: 'updated' });
  return results;
}

/** The mapping key of the contact callsync creates for an unknown caller: one per account and number. */
export function unknownContactKey(account: string, e164: string): string {
  return `${account}:contact:${e164}`;
}

/** How ensureUnknownContact found its contact, for logs and tests. */
export type UnknownContactOutcome = 'mapped' | 'found' | 'created';

/**
 * The contact of an unknown caller, created at most once per account and E.164 number however many
 * calls and callbacks of theirs are followed at once: the mapping (kind `contact`) is read, then,
 * under the key's lock, read again and the CRM searched again (another worker may have just created
 * the contact, or someone added it by hand since the cache said "nobody"); only then is one created,
 * and its mapping recorded before the lock is released. `choose` picks among contacts found. When an
 * earlier attempt may have created the contact (`opts.mayExist`, default true), the contact whose create
 * answer was lost is looked for first: by the key it was created with (`connector.findContactByKey`),
 * or, where contacts carry no key and the vendor's search lags behind writes (`connector.searchLagMs`),
 * by a search made again once that lag has passed.
 */
export async function ensureUnknownContact(
  db: Kysely<Database>,
  connector: CrmConnector,
  caller: { account: string; e164: string },
  choose: (contacts: CrmContact[]) => CrmContact | null = (contacts) => contacts[0] ?? null,
  opts: UpsertOptions = {},
): Promise<{ contact: CrmContact; outcome: UnknownContactOutcome }> {
  const key: MappingKey = {
    destination: destinationIdOf(connector),
    kind: 'contact',
    sourceKey: unknownContactKey(caller.account, caller.e164),
  };
  const mapped = (crmId: string): CrmContact => ({
    crmId,
    kind: 'contact',
    name: null,
    ownerId: null,
    updatedAt: null,
  });
  const known = await getMapping(db, key);
  if (known !== null) return { contact: mapped(known), outcome: 'mapped' };
  return withKeyLock(db, key, async (trx) => {
    const again = await getMapping(trx, key);
    if (again !== null) return { contact: mapped(again), outcome: 'mapped' as const };
    const found = choose(await connector.findContactsByPhone(caller.e164));
    if (found) return { contact: found, outcome: 'found' as const };
    const record = async (contact: CrmContact) => {
      const crmId = await recordMapping(trx, { ...key, account: caller.account, crmId: contact.crmId });
      return { contact: crmId === contact.crmId ? contact : mapped(crmId), outcome: 'found' as const };
    };
    const lag = connector.searchLagMs ?? 0;
    if (opts.mayExist !== false && connector.findContactByKey) {
      // An earlier attempt may have created the contact and lost the answer: its key finds it.
      const ours = await connector.findContactByKey(key.sourceKey);
      if (ours) return record(ours);
    } else if (opts.mayExist !== false && lag > 0) {
      // An earlier attempt may have created the contact and lost the answer, and the vendor's search
      // may not show it yet: it is searched for again once the search has caught up.
      await new Promise((resolve) => setTimeout(resolve, lag));
      const late = choose(await connector.findContactsByPhone(caller.e164));
      if (late) return record(late);
    }
    const created = await connector.createContact({ phone: caller.e164, name: null, key: key.sourceKey });
    const crmId = await recordMapping(trx, { ...key, account: caller.account, crmId: created.crmId });
    return { contact: crmId === created.crmId ? created : mapped(crmId), outcome: 'created' as const };
  });
}
