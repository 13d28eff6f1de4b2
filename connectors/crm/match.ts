// Choosing the contact a call belongs to when a number matches several.
import type { CrmContact } from './crm-connector';

/** How to pick among several contacts with the same number. */
export type MatchRule =
  /** The most recently updated contact (or lead). */
  | 'most_recent'
  /** The contact owned by the call's user, else the most recently updated. */
  | 'call_owner';

/** The contact to log a call against, or null when there is none. Contacts come before leads. */
export function chooseContact(
  candidates: readonly CrmContact[],
  rule: MatchRule,
  callOwnerId: string | null,
): CrmContact | null {
  if (candidates.length === 0) return null;
  const contacts = candidates.filter((c) => c.kind === 'contact');
  const pool = contacts.length > 0 ? contacts : [...candidates];
  if (rule === 'call_owner' && callOwnerId !== null) {
    const owned = pool.filter((c) => c.ownerId === callOwnerId);
    if (owned.length > 0) return mostRecent(owned);
  }
  return mostRecent(pool);
}

function mostRecent(list: readonly CrmContact[]): CrmContact {
  // Ties and missing dates fall back to the smaller id, so the choice is stable across retries.
  return [...list].sort((a, b) => {
    const byTime = (b.updatedAt ?? '').localeCompare(a.updatedAt ?? '');
    return byTime !== 0 ? byTime : a.crmId.localeCompare(b.crmId, 'en', { numeric: true });
  })[0]!;
}
