// The write half of a contact sync run: creates and updates on both sides in the vendor's batch size,
// each batch's links saved in one statement right after its writes, progress in contact_sync_state.
import type { ContactField, ContactSyncConfig } from '../../config/contact-sync';
import type { CrmContactBook } from '../../connectors/crm/contact-book';
import { NotFoundError, type PlatformClient } from '../../connectors/platform';
import type { Kysely } from 'kysely';
import type { Database } from '../../connectors/postgres';
import {
  deleteContactLinks,
  saveContactLinks,
  type ContactAmbiguity,
  type ContactLink,
  type ContactSyncScope,
  REJECTED_PREFIX,
} from '../../connectors/postgres/repositories/contact-sync';
import type { ContactState, SideRecord } from '../../connectors/crm/contact-model';
import type { RuleMatch } from './match';
import { emptyState, stateHash } from './model';
import { DELETED_IN_CRM_LABEL, PLATFORM_FIELDS, platformBody } from './platform-side';

/** Platform requests in flight at once (it has no batch create or update for contacts). */
const PLATFORM_CONCURRENCY = 8;

/** A CRM record just linked or written, with its numbers, for the screen-pop contact cache. */
export interface LinkedContact {
  crmId: string;
  kind: 'contact' | 'lead';
  name: string | null;
  numbers: string[];
}

/** What the screen-pop cache learns of a link: its CRM record, the person's name and numbers. */
export function linkedContact(link: ContactLink, numbers: string[]): LinkedContact {
  return {
    crmId: link.crmId,
    kind: link.crmKind,
    name: [link.crmState.firstName, link.crmState.lastName].filter(Boolean).join(' ') || null,
    numbers,
  };
}

/** A linked pair whose CRM record is gone. */
export interface GonePair {
  platformId: string;
  crmId: string;
  kind: 'contact' | 'lead';
  platform: ContactState;
  crm: ContactState;
}

/** A linked pair and what to write on each side. */
export interface PairWrite {
  platformId: string;
  crmId: string;
  kind: 'contact' | 'lead';
  platformFields: ContactField[];
  crmFields: ContactField[];
  /** Each side's state after the writes. */
  platform: ContactState;
  crm: ContactState;
  /** Linked in this run (saved even when nothing is written). */
  isNew: boolean;
  numbers: string[];
  /** What the CRM record holds before the writes. */
  crmNow: ContactState;
  /** The platform's state as last synced (none for a pair linked in this run). */
  syncedPlatform?: ContactState;
}

/** How a held edit is told apart in the rejected records' reasons. */
export const HELD = 'held: sent again when either record changes';

/**
 * A link holding an edit the CRM's duplicate rule refused: its platform hash is of what the platform
 * holds now but its platform state is the last synced one (so the held fields still count as
 * changed), and its CRM state and hash are what the CRM holds. A run that finds neither side
 * changed sends nothing and reports it again (heldEdit); a change on either side sends it again.
 */
export function isHeld(link: ContactLink, fields: readonly ContactField[]): boolean {
  return (
    link.deletedSide === null && stateHash(link.platformState as ContactState, fields) !== link.platformHash
  );
}

export interface WriterDeps {
  db: Kysely<Database>;
  platform: PlatformClient;
  book: CrmContactBook;
  config: ContactSyncConfig;
  scope: ContactSyncScope;
  fields: readonly ContactField[];
  heartbeat?: () => void;
  onLinked?: (entries: readonly LinkedContact[]) => Promise<void>;
  progress: (stage: string, done: number, total: number) => Promise<void>;
}

/** Runs `fn` over `items` with at most `limit` at once. */
async function eachLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export class ContactWriter {
  readonly counts = { createdInCrm: 0, createdOnPlatform: 0, updatedInCrm: 0, updatedOnPlatform: 0 };
  /** Platform contacts whose CRM write the CRM refused in this run, with its reason. */
  readonly rejected: ContactAmbiguity[] = [];
  /** Platform contacts whose create the CRM's duplicate rule refused, with the records it named. */
  readonly ruleMatches: RuleMatch[] = [];
  /** CRM records created in this run (linked already: never a duplicate rule's match to link). */
  readonly createdCrmIds = new Set<string>();
  private done = 0;
  private total = 0;

  constructor(private readonly d: WriterDeps) {}

  setTotal(total: number): void {
    this.total = total;
  }

  private link(
    p: { id: string; state: ContactState },
    c: { id: string; kind: 'contact' | 'lead'; state: ContactState },
  ): ContactLink {
    return {
      platformId: p.id,
      crmKind: c.kind,
      crmId: c.id,
      platformState: p.state,
      crmState: c.state,
      platformHash: stateHash(p.state, this.d.fields),
      crmHash: stateHash(c.state, this.d.fields),
      deletedSide: null,
    };
  }

  /** The link of a pair whose CRM edit is held (isHeld). */
  private heldLink(p: PairWrite): ContactLink {
    const platform = { id: p.platformId, state: p.syncedPlatform ?? emptyState() };
    const link = this.link(platform, { id: p.crmId, kind: p.kind, state: p.crmNow });
    return { ...link, platformHash: stateHash(p.platform, this.d.fields) };
  }

  private async commit(
    stage: string,
    links: readonly ContactLink[],
    numbers: readonly string[][],
    advanced: number,
  ) {
    await saveContactLinks(this.d.db, this.d.scope, links);
    await this.d.onLinked?.(links.map((l, i) => linkedContact(l, numbers[i] ?? [])));
    this.done += advanced;
    await this.d.progress(stage, this.done, this.total);
    this.d.heartbeat?.();
  }

  private reject(platformId: string, crmId: string | null, reason: string): void {
    this.rejected.push({
      side: 'platform',
      recordId: platformId,
      candidates: crmId ? [crmId] : [],
      reason: `${REJECTED_PREFIX}${reason}`.slice(0, 1000),
    });
  }

  /** Platform contacts nobody matched become CRM records, a batch at a time. */
  async createInCrm(records: readonly SideRecord[]): Promise<void> {
    const { book, scope } = this.d;
    const kind = book.createKind;
    const writable = book.writable(kind);
    for (let i = 0; i < records.length; i += book.batchSize) {
      const batch = records.slice(i, i + book.batchSize).map((p) => {
        // What the new record holds: the fields its kind can be written (the rest stay empty).
        const crm = emptyState();
        for (const f of writable) crm[f] = p.state[f];
        return { p, crm };
      });
      const out = await book.create(
        batch.map(({ p, crm }) => ({ linkKey: `${scope.account}:${p.id}`, state: crm })),
      );
      const links: ContactLink[] = [];
      const numbers: string[][] = [];
      for (const { p, crm } of batch) {
        const key = `${scope.account}:${p.id}`;
        const id = out.ids.get(key);
        const refused = out.rejected.get(key);
        if (refused !== undefined) this.reject(p.id, null, refused);
        const named = out.duplicates?.get(key);
        if (named) this.ruleMatches.push({ platform: p, named });
        if (!id) continue;
        this.createdCrmIds.add(id);
        links.push(this.link(p, { id, kind, state: crm }));
        numbers.push(p.numbers);
      }
      this.counts.createdInCrm += links.length;
      await this.commit('creating in CRM', links, numbers, batch.length);
    }
  }

  /** CRM records nobody matched become platform contacts (the platform creates one at a time). */
  async createOnPlatform(records: readonly SideRecord[]): Promise<void> {
    const size = this.d.book.batchSize;
    for (let i = 0; i < records.length; i += size) {
      const batch = records.slice(i, i + size);
      const links: ContactLink[] = [];
      const numbers: string[][] = [];
      await eachLimit(batch, PLATFORM_CONCURRENCY, async (c) => {
        const body = Object.fromEntries(
          Object.entries(platformBody(c.state, PLATFORM_FIELDS)).filter(([, v]) => v !== ''),
        );
        const created = await this.d.platform.settings.contacts.create(body);
        links.push(this.link({ id: String(created.id), state: c.state }, c));
        numbers.push(c.numbers);
      });
      this.counts.createdOnPlatform += links.length;
      await this.commit('creating on platform', links, numbers, batch.length);
    }
  }

  /** Linked pairs: each side's changed fields, CRM in batches, the platform alongside. */
  async writePairs(pairs: readonly PairWrite[]): Promise<void> {
    const size = this.d.book.batchSize;
    for (let i = 0; i < pairs.length; i += size) {
      const batch = pairs.slice(i, i + size);
      const crmWrites = batch.filter((p) => p.crmFields.length > 0);
      const platformWrites = batch.filter((p) => p.platformFields.length > 0);
      const gone = new Set<string>();
      const refused = new Set<string>();
      const held = new Set<string>();
      await Promise.all([
        (async () => {
          const out = await this.d.book.update(
            crmWrites.map((p) => ({ id: p.crmId, kind: p.kind, state: p.crm, fields: p.crmFields })),
          );
          for (const id of out.missing) gone.add(`crm:${id}`);
          for (const id of out.rejected.keys()) refused.add(id);
          for (const p of crmWrites) {
            const reason = out.rejected.get(p.crmId);
            if (reason === undefined) continue;
            const named = out.duplicates?.get(p.crmId);
            if (named) held.add(p.crmId);
            const matches = named && named.length > 0 ? ` (matches ${named.join(', ')})` : '';
            this.reject(p.platformId, p.crmId, named ? `${reason}${matches}; ${HELD}` : reason);
          }
          this.counts.updatedInCrm += crmWrites.length - out.missing.length - out.rejected.size;
        })(),
        eachLimit(platformWrites, PLATFORM_CONCURRENCY, async (p) => {
          try {
            await this.d.platform.settings.contacts.update(
              Number(p.platformId),
              platformBody(p.platform, p.platformFields),
            );
            this.counts.updatedOnPlatform++;
          } catch (err) {
            if (!(err instanceof NotFoundError)) throw err;
            gone.add(`platform:${p.platformId}`);
          }
        }),
      ]);
      // A refused CRM write keeps the link's last synced state, so the next run tries it again; one
      // the duplicate rule refused is held (the same edit would be refused until a record changes).
      const kept = batch.filter(
        (p) =>
          !gone.has(`crm:${p.crmId}`) &&
          !gone.has(`platform:${p.platformId}`) &&
          (!refused.has(p.crmId) || held.has(p.crmId)),
      );
      const links = kept.map((p) =>
        held.has(p.crmId)
          ? this.heldLink(p)
          : this.link({ id: p.platformId, state: p.platform }, { id: p.crmId, kind: p.kind, state: p.crm }),
      );
      // A record deleted on one side while linked: the link remembers it; the delete policy runs next time.
      const deletedCrm = batch.filter((p) => gone.has(`crm:${p.crmId}`));
      if (deletedCrm.length > 0) await this.deletedInCrm(deletedCrm);
      await this.commit(
        'updating',
        links,
        kept.map((p) => p.numbers),
        batch.length,
      );
    }
  }

  /** CRM records gone while linked: the platform contact is kept and labelled (or deleted, or unlinked). */
  async deletedInCrm(pairs: readonly GonePair[]): Promise<void> {
    if (pairs.length === 0) return;
    const ids = pairs.map((p) => p.platformId);
    const mode = this.d.config.deletes;
    if (mode === 'mark') {
      await this.d.platform.settings.contacts.bulkUpdate(
        ids.map((id) => ({ id: Number(id), labels: [DELETED_IN_CRM_LABEL] })),
      );
      await saveContactLinks(
        this.d.db,
        this.d.scope,
        pairs.map((p) => ({
          ...this.link({ id: p.platformId, state: p.platform }, { id: p.crmId, kind: p.kind, state: p.crm }),
          deletedSide: 'crm',
        })),
      );
      return;
    }
    if (mode === 'propagate') await this.d.platform.settings.contacts.delete(ids.map(Number));
    await deleteContactLinks(this.d.db, this.d.scope, ids);
  }

  /** Platform contacts gone while linked: their CRM records are marked (or deleted, or unlinked). */
  async deletedOnPlatform(links: readonly ContactLink[]): Promise<number> {
    const mode = this.d.config.deletes;
    const size = this.d.book.batchSize;
    for (let i = 0; i < links.length; i += size) {
      const batch = links.slice(i, i + size);
      const records = batch.map((l) => ({ id: l.crmId, kind: l.crmKind }));
      if (mode === 'mark') {
        await this.d.book.markDeleted(records);
        await saveContactLinks(
          this.d.db,
          this.d.scope,
          batch.map((l) => ({ ...l, deletedSide: 'platform' })),
        );
      } else {
        if (mode === 'propagate') await this.d.book.remove(records);
        await deleteContactLinks(
          this.d.db,
          this.d.scope,
          batch.map((l) => l.platformId),
        );
      }
      await this.commit('deleting', [], [], batch.length);
    }
    return links.length;
  }
}
