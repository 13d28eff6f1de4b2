// Matching platform contacts to CRM records by E.164 number and e-mail. One candidate links; several
// go through the configured rule, and what the rule cannot decide is recorded as an ambiguity and
// left alone (nothing written, nothing created for either side).
import type { ContactAmbiguity } from '../../connectors/postgres/repositories/contact-sync';
import type { SideRecord } from '../../connectors/crm/contact-model';

export type ContactMatchRule = 'unique' | 'most_recent';

/** Why a platform contact matching only linked CRM records is left alone. */
export const ALREADY_LINKED = 'matches CRM records already linked to other platform contacts';

/** Records by each of their numbers and their e-mail. */
export class RecordIndex {
  private readonly byKey = new Map<string, SideRecord[]>();

  constructor(records: Iterable<SideRecord> = []) {
    for (const r of records) this.add(r);
  }

  add(r: SideRecord): void {
    for (const k of keysOf(r)) {
      const list = this.byKey.get(k);
      if (!list) this.byKey.set(k, [r]);
      else if (!list.some((x) => x.id === r.id)) list.push(r);
    }
  }

  /** Records sharing a number or the e-mail with `r`. */
  candidates(r: SideRecord): SideRecord[] {
    const out = new Map<string, SideRecord>();
    for (const k of keysOf(r)) for (const c of this.byKey.get(k) ?? []) out.set(c.id, c);
    return [...out.values()];
  }
}

function keysOf(r: SideRecord): string[] {
  const keys = r.numbers.map((n) => `tel:${n}`);
  if (r.state.email) keys.push(`mail:${r.state.email}`);
  return keys;
}

/** The one candidate to link, or why there is none. */
export function pick(
  record: SideRecord,
  candidates: readonly SideRecord[],
  rule: ContactMatchRule,
): { chosen: SideRecord } | { ambiguous: string } | null {
  if (candidates.length === 0) return null;
  if (candidates.length === 1) return { chosen: candidates[0]! };
  // Contacts come before leads (Salesforce): a lead is usually the same person not yet converted.
  const contacts = candidates.filter((c) => c.kind === 'contact');
  const pool = contacts.length > 0 ? contacts : [...candidates];
  if (pool.length === 1) return { chosen: pool[0]! };
  if (rule === 'most_recent') {
    const sorted = [...pool].sort(
      (a, b) =>
        (b.modifiedAt ?? '').localeCompare(a.modifiedAt ?? '') ||
        a.id.localeCompare(b.id, 'en', { numeric: true }),
    );
    return { chosen: sorted[0]! };
  }
  // unique: the one that matches on e-mail and a number both, when exactly one does.
  const both = pool.filter(
    (c) =>
      record.state.email !== null &&
      c.state.email === record.state.email &&
      c.numbers.some((n) => record.numbers.includes(n)),
  );
  if (both.length === 1) return { chosen: both[0]! };
  return { ambiguous: `${pool.length} records share a number or e-mail` };
}

export interface MatchResult {
  /** platform id → CRM record. */
  links: Map<string, SideRecord>;
  ambiguities: ContactAmbiguity[];
  /** Records of either side that matched something (linked or not): never created on the other side. */
  claimedPlatform: Set<string>;
  claimedCrm: Set<string>;
}

/**
 * Matches unlinked platform contacts to unlinked CRM records. `linkedCrm` and `linkedPlatform` are
 * already linked records: matching one of them marks the other record as claimed (a duplicate on
 * its side, reported, never copied across).
 */
export function matchContacts(input: {
  platform: readonly SideRecord[];
  crm: readonly SideRecord[];
  linkedPlatform: ReadonlySet<string>;
  linkedCrm: ReadonlySet<string>;
  rule: ContactMatchRule;
}): MatchResult {
  const result: MatchResult = {
    links: new Map(),
    ambiguities: [],
    claimedPlatform: new Set(),
    claimedCrm: new Set(),
  };
  const crmIndex = new RecordIndex(input.crm);
  const taken = new Set<string>();
  for (const p of input.platform) {
    if (input.linkedPlatform.has(p.id)) continue;
    const all = crmIndex.candidates(p);
    if (all.length === 0) continue;
    result.claimedPlatform.add(p.id);
    for (const c of all) result.claimedCrm.add(c.id);
    const free = all.filter((c) => !input.linkedCrm.has(c.id) && !taken.has(c.id));
    if (free.length === 0) {
      result.ambiguities.push({
        side: 'platform',
        recordId: p.id,
        candidates: all.map((c) => c.id),
        reason: ALREADY_LINKED,
      });
      continue;
    }
    const choice = pick(p, free, input.rule);
    if (choice && 'chosen' in choice) {
      result.links.set(p.id, choice.chosen);
      taken.add(choice.chosen.id);
    } else if (choice) {
      result.ambiguities.push({
        side: 'platform',
        recordId: p.id,
        candidates: free.map((c) => c.id),
        reason: choice.ambiguous,
      });
    }
  }
  // CRM records that match platform contacts without being linked (the platform side has duplicates,
  // or they lost to another candidate): claimed, so not copied to the platform as new people.
  const platformIndex = new RecordIndex(input.platform);
  for (const c of input.crm) {
    if (input.linkedCrm.has(c.id) || taken.has(c.id)) continue;
    const hits = platformIndex.candidates(c);
    if (hits.length === 0) continue;
    result.claimedCrm.add(c.id);
    if (hits.every((p) => input.linkedPlatform.has(p.id))) {
      result.ambiguities.push({
        side: 'crm',
        recordId: c.id,
        candidates: hits.map((p) => p.id),
        reason: 'matches platform contacts already linked to other CRM records',
      });
    }
  }
  return result;
}

/** A platform contact whose CRM create the CRM's duplicate rule refused, and the records it named. */
export interface RuleMatch {
  platform: SideRecord;
  named: readonly SideRecord[];
}

/**
 * Platform contacts whose create the CRM's duplicate rule refused, linked to the records the rule
 * named as matchContacts links a search's candidates: records linked already or in this run
 * (`taken`) are not free, one free candidate links, several go through the match rule (Contacts
 * first), and what stays undecided is an ambiguity, like a search's.
 */
export function matchRefused(
  refused: readonly RuleMatch[],
  taken: ReadonlySet<string>,
  rule: ContactMatchRule,
): { links: Map<string, SideRecord>; ambiguities: ContactAmbiguity[] } {
  const links = new Map<string, SideRecord>();
  const ambiguities: ContactAmbiguity[] = [];
  const used = new Set(taken);
  for (const { platform: p, named } of refused) {
    const free = named.filter((c) => !used.has(c.id));
    const choice = free.length > 0 ? pick(p, free, rule) : { ambiguous: ALREADY_LINKED };
    if (choice && 'chosen' in choice) {
      links.set(p.id, choice.chosen);
      used.add(choice.chosen.id);
    } else if (choice) {
      ambiguities.push({
        side: 'platform',
        recordId: p.id,
        candidates: (free.length > 0 ? free : named).map((c) => c.id),
        reason: choice.ambiguous,
      });
    }
  }
  return { links, ambiguities };
}
