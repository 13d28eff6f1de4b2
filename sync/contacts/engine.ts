// One run of the two-way contact sync for one account and CRM: read both books (the platform's whole,
// the CRM's whole on the first run and its changes since the cursor after), link what matches, then
// write what changed in the vendor's batches, saving each batch's links right after its writes, so a
// crash redoes at most the batch in flight (and a CRM record created by it is found again by its key
// or numbers, never created twice). The CRM cursor moves only when a run finishes.
import type { Kysely } from 'kysely';
import type { CountryCode } from 'libphonenumber-js';
import {
  CONTACT_FIELDS,
  fieldOwnership,
  type ContactField,
  type ContactSyncConfig,
} from '../../config/contact-sync';
import type { CrmContactBook } from '../../connectors/crm/contact-book';
import type { PlatformClient } from '../../connectors/platform';
import type { Database } from '../../connectors/postgres';
import {
  getContactSyncState,
  loadContactLinks,
  putContactSyncState,
  replaceContactAmbiguities,
  saveContactLinks,
  type ContactAmbiguity,
  type ContactLink,
  type ContactSyncScope,
  REJECTED_PREFIX,
} from '../../connectors/postgres/repositories/contact-sync';
import type { ContactSyncSummary } from '../../contracts/contact-sync';
import { followConversions, type LeadConversion } from './conversions';
import { matchContacts, matchRefused } from './match';
import { resolvePair } from './merge';
import type { ContactState, SideRecord } from '../../connectors/crm/contact-model';
import { emptyState, stateHash } from './model';
import { PLATFORM_FIELDS, platformRecord } from './platform-side';
import {
  ContactWriter,
  HELD,
  isHeld,
  linkedContact,
  type GonePair,
  type LinkedContact,
  type PairWrite,
} from './writer';

export interface ContactSyncDeps {
  db: Kysely<Database>;
  platform: PlatformClient;
  book: CrmContactBook;
  config: ContactSyncConfig;
  country: CountryCode;
  scope: ContactSyncScope;
  /** Called between batches (the activity heartbeats). */
  heartbeat?: () => void;
  /** Every linked or created CRM record's numbers, for the screen-pop contact cache. */
  onLinked?: (entries: readonly LinkedContact[]) => Promise<void>;
  /** CRM records that stopped standing for a person (converted Leads), for the same cache. */
  onUnlinked?: (crmIds: readonly string[]) => Promise<void>;
  now?: () => Date;
}

/** Safety margin of the CRM cursor: clocks of the vendor and this host differ by a little. */
const CURSOR_MARGIN_MS = 5_000;

export async function runContactSync(deps: ContactSyncDeps): Promise<ContactSyncSummary> {
  const { db, scope, book } = deps;
  const now = deps.now ?? (() => new Date());
  const startedAt = now();
  const state = await getContactSyncState(db, scope);
  const phase = state?.phase ?? 'initial';
  const fields = CONTACT_FIELDS.filter((f) => book.fields.includes(f) && PLATFORM_FIELDS.includes(f));
  const progress = (stage: string, done = 0, total = 0) =>
    putContactSyncState(db, scope, { stage, done, total, runStartedAt: startedAt, lastError: null });

  await progress('reading');
  let links = await loadContactLinks(db, scope);

  const platform = new Map<string, SideRecord>();
  for await (const page of deps.platform.settings.contacts.list({ limit: 5000 }).pages()) {
    for (const c of page.data) {
      const r = platformRecord(c, deps.country);
      platform.set(r.id, r);
    }
    deps.heartbeat?.();
  }
  const crm = new Map<string, SideRecord>();
  const since = phase === 'incremental' && state?.crmCursor ? state.crmCursor.toISOString() : null;
  for await (const page of since ? book.changedSince(since) : book.listAll()) {
    for (const r of page) crm.set(r.id, r);
    deps.heartbeat?.();
  }
  const crmRead = crm.size;
  // Leads converted since the cursor: their links follow to the Contact each became.
  let conversionConflicts: ContactAmbiguity[] = [];
  if (since && book.convertedSince) {
    const conversions: LeadConversion[] = [];
    for await (const page of book.convertedSince(since)) conversions.push(...page);
    const followed = followConversions(links, conversions);
    links = followed.links;
    conversionConflicts = followed.conflicts;
    await saveContactLinks(db, scope, followed.moved);
    // The screen-pop cache finds the Contact for the person's numbers from now on, not the Lead.
    await deps.onUnlinked?.(followed.leftLeads);
    await deps.onLinked?.(
      followed.moved.map((l) => linkedContact(l, platform.get(l.platformId)?.numbers ?? [])),
    );
  }
  const byPlatform = new Map(links.map((l) => [l.platformId, l]));
  const byCrm = new Map(links.map((l) => [l.crmId, l]));
  // Records deleted in the CRM since the cursor, when it can tell (Salesforce's recycle bin).
  const deletedInCrm = new Set<string>();
  if (since && book.deletedSince) {
    for await (const ids of book.deletedSince(since)) for (const id of ids) deletedInCrm.add(id);
  }

  await progress('matching');
  const unlinkedPlatform = [...platform.values()].filter((p) => !byPlatform.has(p.id));
  // A CRM record carrying this account's key for an unlinked platform contact is the create of a
  // batch whose links were lost (a crash between the create and the commit): link it as it is.
  const prefix = `${scope.account}:`;
  const keyed = new Map<string, SideRecord>();
  for (const c of crm.values()) {
    const pid = c.linkKey?.startsWith(prefix) ? c.linkKey.slice(prefix.length) : null;
    if (pid && !byCrm.has(c.id) && platform.has(pid) && !byPlatform.has(pid)) keyed.set(pid, c);
  }
  if (since) {
    // New platform contacts may match CRM records that did not change: look those up by number.
    const wanted = unlinkedPlatform.filter((p) => !keyed.has(p.id));
    const numbers = [...new Set(wanted.flatMap((p) => p.numbers))];
    const emails = [...new Set(wanted.map((p) => p.state.email).filter((e): e is string => e !== null))];
    if (numbers.length + emails.length > 0) {
      for (const r of await book.findByNumbersOrEmails(numbers, emails)) if (!crm.has(r.id)) crm.set(r.id, r);
    }
  }
  const keyedCrm = new Set([...keyed.values()].map((c) => c.id));
  const match = matchContacts({
    platform: [...platform.values()].filter((p) => !keyed.has(p.id)),
    crm: [...crm.values()].filter((c) => !keyedCrm.has(c.id)),
    linkedPlatform: new Set(byPlatform.keys()),
    linkedCrm: new Set(byCrm.keys()),
    rule: deps.config.matchRule,
  });
  for (const [pid, c] of keyed) match.links.set(pid, c);

  const ownership = fieldOwnership(deps.config);
  const pairs: PairWrite[] = [];
  const deletedOnPlatform: ContactLink[] = [];
  const stillHeld: ContactAmbiguity[] = [];
  const goneInCrm: GonePair[] = [];
  let unchanged = 0;
  for (const link of links) {
    if (link.deletedSide !== null) continue;
    const p = platform.get(link.platformId);
    if (!p) {
      deletedOnPlatform.push(link);
      continue;
    }
    if (deletedInCrm.has(link.crmId)) {
      goneInCrm.push({
        platformId: p.id,
        crmId: link.crmId,
        kind: link.crmKind,
        platform: link.platformState as ContactState,
        crm: link.crmState as ContactState,
      });
      continue;
    }
    const c = crm.get(link.crmId);
    const crmState = c?.state ?? (link.crmState as ContactState);
    const samePlatform = stateHash(p.state, fields) === link.platformHash;
    const sameCrm = stateHash(crmState, fields) === link.crmHash;
    if (c && sameCrm) unchanged++;
    if (samePlatform && sameCrm) {
      // An edit the duplicate rule refused, neither record changed since: not sent, shown again.
      if (isHeld(link, fields)) stillHeld.push(heldEdit(link));
      continue;
    }
    const r = resolvePair({
      fields,
      ownership,
      prevPlatform: link.platformState as ContactState,
      prevCrm: link.crmState as ContactState,
      platform: p.state,
      crm: crmState,
      newer: 'platform',
    });
    pairs.push({
      platformId: p.id,
      crmId: link.crmId,
      kind: link.crmKind,
      ...keepUnwritable(r, crmState, book.writable(link.crmKind)),
      isNew: false,
      numbers: p.numbers,
      crmNow: crmState,
      syncedPlatform: link.platformState as ContactState,
    });
  }
  // A platform contact and a CRM record linked in this run: each side gets what the other has.
  const newPair = (p: SideRecord, c: SideRecord): PairWrite => {
    const newer = (p.modifiedAt ?? '') > (c.modifiedAt ?? '') ? 'platform' : 'crm';
    const r = resolvePair({
      fields,
      ownership,
      prevPlatform: null,
      prevCrm: null,
      platform: p.state,
      crm: c.state,
      newer,
    });
    return {
      platformId: p.id,
      crmId: c.id,
      kind: c.kind,
      ...keepUnwritable(r, c.state, book.writable(c.kind)),
      isNew: true,
      numbers: [...new Set([...p.numbers, ...c.numbers])],
      crmNow: c.state,
    };
  };
  for (const [pid, c] of match.links) pairs.push(newPair(platform.get(pid)!, c));
  const hasKey = (r: SideRecord) => r.numbers.length > 0 || r.state.email !== null;
  const toCrm = deps.config.createInCrm
    ? unlinkedPlatform.filter((p) => !match.claimedPlatform.has(p.id) && !keyed.has(p.id) && hasKey(p))
    : [];
  const linkedCrmIds = new Set([...byCrm.keys(), ...[...match.links.values()].map((c) => c.id)]);
  const toPlatform = deps.config.createOnPlatform
    ? [...crm.values()].filter(
        (c) => !linkedCrmIds.has(c.id) && !match.claimedCrm.has(c.id) && !c.markedDeleted && hasKey(c),
      )
    : [];

  const writer = new ContactWriter({ ...deps, fields, progress });
  const total = toCrm.length + toPlatform.length + pairs.length + deletedOnPlatform.length;
  writer.setTotal(total);
  // Creates on the two sides are independent: run them side by side (the CRM's limit sets the pace).
  await Promise.all([
    writer.createInCrm(toCrm.map((p) => ({ ...p, state: onlyFields(p.state, fields) }))),
    writer.createOnPlatform(toPlatform),
  ]);
  // Creates the CRM's duplicate rule refused (the search missed the record it named, say while
  // Salesforce's search index lags): linked to that record as a search's match would be, nothing created.
  const taken = new Set([...linkedCrmIds, ...toPlatform.map((c) => c.id), ...writer.createdCrmIds]);
  const ruled = matchRefused(writer.ruleMatches, taken, deps.config.matchRule);
  const ruledPairs = [...ruled.links].map(([pid, c]) => newPair(platform.get(pid)!, c));
  const all = total + ruledPairs.length;
  writer.setTotal(all);
  await writer.writePairs([...pairs, ...ruledPairs]);
  await writer.deletedInCrm(goneInCrm);
  const deleted = (await writer.deletedOnPlatform(deletedOnPlatform)) + goneInCrm.length;
  const ambiguities = [...match.ambiguities, ...ruled.ambiguities];
  await replaceContactAmbiguities(db, scope, [
    ...ambiguities,
    ...conversionConflicts,
    ...writer.rejected,
    ...stillHeld,
  ]);

  const summary: ContactSyncSummary = {
    phase,
    platformRead: platform.size,
    crmRead,
    linked: match.links.size + ruled.links.size,
    createdInCrm: writer.counts.createdInCrm,
    createdOnPlatform: writer.counts.createdOnPlatform,
    updatedInCrm: writer.counts.updatedInCrm,
    updatedOnPlatform: writer.counts.updatedOnPlatform,
    unchanged,
    ambiguous: ambiguities.length,
    deleted,
  };
  await putContactSyncState(db, scope, {
    phase: 'incremental',
    crmCursor: new Date(startedAt.getTime() - CURSOR_MARGIN_MS),
    stage: 'done',
    done: all,
    total: all,
    counters: { ...summary, phase: phase === 'initial' ? 0 : 1 },
    runFinishedAt: now(),
  });
  return summary;
}

/**
 * A pair's result with the fields the CRM record cannot be written (a Salesforce Contact's company)
 * left as the record holds them: not sent, and stored as they are, so reading them back moves nothing.
 */
export function keepUnwritable<T extends { crmFields: ContactField[]; crm: ContactState }>(
  r: T,
  crmState: ContactState,
  writable: readonly ContactField[],
): T {
  const crmFields = r.crmFields.filter((f) => writable.includes(f));
  if (crmFields.length === r.crmFields.length) return r;
  const crm = { ...r.crm };
  for (const f of r.crmFields) if (!writable.includes(f)) crm[f] = crmState[f];
  return { ...r, crmFields, crm };
}

/** A held edit (isHeld) as the rejected records list it, in a run that did not send it again. */
function heldEdit(link: ContactLink): ContactAmbiguity {
  return {
    side: 'platform',
    recordId: link.platformId,
    candidates: [link.crmId],
    reason: `${REJECTED_PREFIX}the CRM's duplicate rule refused this edit (another record has its number or e-mail); ${HELD}`,
  };
}

/** A state with only `fields` kept (the others empty): what a side that lacks them holds. */
export function onlyFields(state: ContactState, fields: readonly ContactField[]): ContactState {
  const out = emptyState();
  for (const f of fields) out[f] = state[f];
  return out;
}
