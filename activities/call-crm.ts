// The CRM side of a call's follow-up, shared by the call's log (call-activities.ts) and its
// callback's task (callback-activities.ts): the e-mail of the platform user on the call (cached), the
// contact a number is matched to (created when the account says so), and CRM writes, gathered into
// this worker's batches when the CRM has batch endpoints.
import { Context } from '@temporalio/activity';
import { crmRulesOf } from '../config/account-settings';
import { resolveCallOwner } from '../connectors/crm/call-owner';
import { CrmBatchers } from '../connectors/crm/crm-batchers';
import {
  destinationIdOf,
  type CallbackTask,
  type CallLog,
  type CrmConnector,
  type CrmContact,
} from '../connectors/crm/crm-connector';
import { chooseContact } from '../connectors/crm/match';
import { ensureUnknownContact, upsertCallLog, upsertTask } from '../connectors/crm/upsert';
import { contactLookupOf } from './contact-lookup';
import type { ActivityDeps } from './deps';

/** One per worker: the call and callback activities share its caches and batches. */
export function createCallCrm(deps: ActivityDeps) {
  const userEmails = new Map<string, string | null>();

  const userEmail = async (account: string, userId: number | null | undefined): Promise<string | null> => {
    if (!userId) return null;
    const cacheKey = `${account}:${userId}`;
    if (!userEmails.has(cacheKey)) {
      const user = await deps
        .platform(account)
        .customer.users.get(userId)
        .catch(() => null);
      userEmails.set(cacheKey, user?.email ?? null);
    }
    return userEmails.get(cacheKey) ?? null;
  };

  // A CRM with batch endpoints gets this worker's concurrent lookups and writes gathered into batches.
  const batchers = new Map<CrmConnector, CrmBatchers | null>();
  const batchersOf = (crm: CrmConnector): CrmBatchers | null => {
    if (!batchers.has(crm)) {
      batchers.set(
        crm,
        crm.batch
          ? new CrmBatchers(deps.warehouse.db, destinationIdOf(crm), crm.batch, {
              batchWaitMs: deps.config.crm.batchWait,
              lookupWaitMs: deps.config.crm.lookupWait,
            })
          : null,
      );
    }
    return batchers.get(crm)!;
  };
  // `written`: the workflow wrote this object before. Its mapping is then expected; if it is missing
  // (the destination's identity changed: a rotated HubSpot token), the object is looked up by its key
  // before anything is created, since calls and tasks have no unique values to refuse a second one.
  const writeCallLog = (crm: CrmConnector, log: CallLog, written = false) => {
    const b = batchersOf(crm);
    const opts = mayExist(written);
    return b ? b.callLogs.submit({ item: log, ...opts }) : upsertCallLog(deps.warehouse.db, crm, log, opts);
  };
  const writeTask = (crm: CrmConnector, task: CallbackTask, written = false) => {
    const b = batchersOf(crm);
    const opts = mayExist(written);
    return b ? b.tasks.submit({ item: task, ...opts }) : upsertTask(deps.warehouse.db, crm, task, opts);
  };

  // The CRM owner of the call's user; looked up only when the match rule needs it.
  const callOwner = async (account: string, userId: number | null | undefined): Promise<string | null> => {
    const rules = crmRulesOf(deps.config, account);
    if (rules.matchRule !== 'call_owner' || !userId) return null;
    return resolveCallOwner({
      userId,
      email: await userEmail(account, userId),
      overrides: rules.owners,
      connector: deps.crm(account),
    });
  };

  const matchContact = async (
    account: string,
    number: string | null,
    userId: number | null | undefined,
  ): Promise<CrmContact | null> => {
    if (!number) return null;
    const crm = deps.crm(account);
    const rules = crmRulesOf(deps.config, account);
    const ownerId = await callOwner(account, userId);
    const lookup = contactLookupOf(deps);
    // A miss in the contact cache goes to the CRM through this worker's lookup batcher when the CRM
    // has one (one search for many numbers), else as a search of its own.
    const b = batchersOf(crm);
    const { contacts } = await lookup.candidates(account, crm, number, (n) =>
      b ? b.lookups.submit(n) : crm.findContactsByPhone(n),
    );
    const choose = (list: CrmContact[]) => chooseContact(list, rules.matchRule, ownerId);
    const found = choose(contacts);
    if (found || !rules.createUnknownContacts) return found;
    // Keyed per account and number: calls and callbacks of one unknown caller followed at once (on
    // any worker) create one contact between them.
    const { contact } = await ensureUnknownContact(
      deps.warehouse.db,
      crm,
      { account, e164: number },
      choose,
      mayExist(false),
    );
    await lookup.remember(account, crm, number, contact);
    return contact;
  };

  return { userEmail, matchContact, writeCallLog, writeTask };
}

export type CallCrm = ReturnType<typeof createCallCrm>;

/**
 * A first attempt cannot have left a CRM object without its mapping (an attempt records the mapping
 * right after creating), so it skips the vendor's rate-limited search for the key.
 */
/** Whether the object may exist without a mapping: an earlier attempt, or an earlier write, made it. */
function mayExist(written: boolean): { mayExist: boolean } {
  return { mayExist: written || Context.current().info.attempt > 1 };
}
