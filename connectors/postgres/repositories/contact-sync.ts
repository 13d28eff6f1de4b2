// The contact sync's links, progress and ambiguities. Links of one batch are saved in one statement
// right after the batch's writes, so a crash redoes at most the batch in flight.
import { sql, type Kysely } from 'kysely';
import type { Database, StoredContactState } from '../tables';

/** Identifies one account's sync with one CRM. */
export interface ContactSyncScope {
  account: string;
  /** The CRM destination's identity (connectors/crm destinationIdOf), not its type. */
  destination: string;
}

export interface ContactLink {
  platformId: string;
  crmKind: 'contact' | 'lead';
  crmId: string;
  platformState: StoredContactState;
  crmState: StoredContactState;
  platformHash: string;
  crmHash: string;
  deletedSide: 'platform' | 'crm' | null;
}

/** Every link of a scope. */
export async function loadContactLinks(
  db: Kysely<Database>,
  scope: ContactSyncScope,
): Promise<ContactLink[]> {
  const rows = await db
    .selectFrom('contact_links')
    .selectAll()
    .where('account', '=', scope.account)
    .where('destination', '=', scope.destination)
    .execute();
  return rows.map((r) => ({
    platformId: r.platform_id,
    crmKind: r.crm_kind as 'contact' | 'lead',
    crmId: r.crm_id,
    platformState: r.platform_state,
    crmState: r.crm_state,
    platformHash: r.platform_hash,
    crmHash: r.crm_hash,
    deletedSide: r.deleted_side as ContactLink['deletedSide'],
  }));
}

/** Inserts or replaces links (by platform contact) in one statement. */
export async function saveContactLinks(
  db: Kysely<Database>,
  scope: ContactSyncScope,
  links: readonly ContactLink[],
): Promise<void> {
  if (links.length === 0) return;
  await db
    .insertInto('contact_links')
    .values(
      links.map((l) => ({
        account: scope.account,
        destination: scope.destination,
        platform_id: l.platformId,
        crm_kind: l.crmKind,
        crm_id: l.crmId,
        platform_state: JSON.stringify(l.platformState),
        crm_state: JSON.stringify(l.crmState),
        platform_hash: l.platformHash,
        crm_hash: l.crmHash,
        deleted_side: l.deletedSide,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['account', 'destination', 'platform_id']).doUpdateSet((eb) => ({
        crm_kind: eb.ref('excluded.crm_kind'),
        crm_id: eb.ref('excluded.crm_id'),
        platform_state: eb.ref('excluded.platform_state'),
        crm_state: eb.ref('excluded.crm_state'),
        platform_hash: eb.ref('excluded.platform_hash'),
        crm_hash: eb.ref('excluded.crm_hash'),
        deleted_side: eb.ref('excluded.deleted_side'),
        synced_at: sql<Date>`now()`,
      })),
    )
    .execute();
}

/** Removes links (deletes: ignore or propagate). */
export async function deleteContactLinks(
  db: Kysely<Database>,
  scope: ContactSyncScope,
  platformIds: readonly string[],
): Promise<void> {
  if (platformIds.length === 0) return;
  await db
    .deleteFrom('contact_links')
    .where('account', '=', scope.account)
    .where('destination', '=', scope.destination)
    .where('platform_id', 'in', platformIds)
    .execute();
}

export interface ContactSyncState {
  phase: 'initial' | 'incremental';
  crmCursor: Date | null;
  stage: string;
  done: number;
  total: number;
  counters: Record<string, number>;
  lastError: string | null;
  runStartedAt: Date | null;
  runFinishedAt: Date | null;
}

export async function getContactSyncState(
  db: Kysely<Database>,
  scope: ContactSyncScope,
): Promise<ContactSyncState | null> {
  const r = await db
    .selectFrom('contact_sync_state')
    .selectAll()
    .where('account', '=', scope.account)
    .where('destination', '=', scope.destination)
    .executeTakeFirst();
  if (!r) return null;
  return {
    phase: r.phase as ContactSyncState['phase'],
    crmCursor: r.crm_cursor,
    stage: r.stage,
    done: r.done,
    total: r.total,
    counters: r.counters,
    lastError: r.last_error,
    runStartedAt: r.run_started_at,
    runFinishedAt: r.run_finished_at,
  };
}

/** Writes the parts of the state given (creating the row on the first run). */
export async function putContactSyncState(
  db: Kysely<Database>,
  scope: ContactSyncScope,
  patch: Partial<ContactSyncState>,
): Promise<void> {
  const set = {
    ...(patch.phase !== undefined ? { phase: patch.phase } : {}),
    ...(patch.crmCursor !== undefined ? { crm_cursor: patch.crmCursor } : {}),
    ...(patch.stage !== undefined ? { stage: patch.stage } : {}),
    ...(patch.done !== undefined ? { done: patch.done } : {}),
    ...(patch.total !== undefined ? { total: patch.total } : {}),
    ...(patch.counters !== undefined ? { counters: JSON.stringify(patch.counters) } : {}),
    ...(patch.lastError !== undefined ? { last_error: patch.lastError } : {}),
    ...(patch.runStartedAt !== undefined ? { run_started_at: patch.runStartedAt } : {}),
    ...(patch.runFinishedAt !== undefined ? { run_finished_at: patch.runFinishedAt } : {}),
  };
  await db
    .insertInto('contact_sync_state')
    .values({
      account: scope.account,
      destination: scope.destination,
      phase: 'initial',
      stage: 'idle',
      counters: '{}',
      last_error: null,
      ...set,
    })
    .onConflict((oc) =>
      oc.columns(['account', 'destination']).doUpdateSet({ ...set, updated_at: sql<Date>`now()` }),
    )
    .execute();
}

/**
 * The reason of a record the CRM refused to save: kept with the ambiguities (left alone this run,
 * shown by status), told apart by this prefix.
 */
export const REJECTED_PREFIX = 'rejected by the CRM: ';

export interface ContactAmbiguity {
  side: 'platform' | 'crm';
  recordId: string;
  candidates: string[];
  reason: string;
}

/** Replaces the scope's ambiguities with those this run found (resolved ones disappear). */
export async function replaceContactAmbiguities(
  db: Kysely<Database>,
  scope: ContactSyncScope,
  list: readonly ContactAmbiguity[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('contact_ambiguities')
      .where('account', '=', scope.account)
      .where('destination', '=', scope.destination)
      .execute();
    for (let i = 0; i < list.length; i += 1000) {
      await trx
        .insertInto('contact_ambiguities')
        .values(
          list.slice(i, i + 1000).map((a) => ({
            account: scope.account,
            destination: scope.destination,
            side: a.side,
            record_id: a.recordId,
            candidates: JSON.stringify(a.candidates),
            reason: a.reason,
          })),
        )
        .execute();
    }
  });
}

/** One row per account and CRM for `callsync status`, with its ambiguity count and a few examples. */
export async function contactSyncStatus(db: Kysely<Database>) {
  const states = await db.selectFrom('contact_sync_state').selectAll().orderBy('account').execute();
  const out = [];
  for (const s of states) {
    const scope = { account: s.account, destination: s.destination };
    const amb = await db
      .selectFrom('contact_ambiguities')
      .select(['side', 'record_id', 'candidates', 'reason'])
      .where('account', '=', scope.account)
      .where('destination', '=', scope.destination)
      .orderBy('side')
      .orderBy('record_id')
      .execute();
    const links = await db
      .selectFrom('contact_links')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('account', '=', scope.account)
      .where('destination', '=', scope.destination)
      .executeTakeFirstOrThrow();
    out.push({ ...s, links: Number(links.n), ambiguities: amb });
  }
  return out;
}
