// `callsync status`: the CONTACT SYNC section: per account and CRM, the phase, what the running (or
// last) run is doing with its progress, links, the last run's counts, errors, ambiguous matches and
// records the CRM refused (kept with the ambiguities, told apart by their reason).
import type { Kysely } from 'kysely';
import { contactSyncStatus, type Database } from '../../connectors/postgres';
import { REJECTED_PREFIX } from '../../connectors/postgres/repositories/contact-sync';

export type ContactSyncStatusRow = Awaited<ReturnType<typeof contactSyncStatus>>[number];

/** Ambiguous matches listed per account (the rest counted). */
const SHOWN = 5;

export function collectContactSyncStatus(db: Kysely<Database>): Promise<ContactSyncStatusRow[]> {
  return contactSyncStatus(db);
}

/** The CONTACT SYNC section of the text output; '' when no account syncs contacts. */
export function formatContactSyncStatus(rows: readonly ContactSyncStatusRow[]): string {
  if (rows.length === 0) return '';
  const lines = ['CONTACT SYNC'];
  for (const r of rows) {
    const progress = r.total > 0 ? ` ${r.done}/${r.total}` : '';
    const finished = r.run_finished_at ? ` last finished ${r.run_finished_at.toISOString()}` : '';
    lines.push(
      `  ${r.account} ↔ ${r.destination}: ${r.phase}, ${r.stage}${progress}, ${r.links} linked${finished}`,
    );
    const c = r.counters;
    if (Object.keys(c).length > 0) {
      lines.push(
        `    last run: ${c.createdInCrm ?? 0} created in CRM, ${c.createdOnPlatform ?? 0} on platform, ` +
          `${c.updatedInCrm ?? 0} updated in CRM, ${c.updatedOnPlatform ?? 0} on platform, ${c.deleted ?? 0} deleted`,
      );
    }
    if (r.last_error) lines.push(`    error: ${r.last_error}`);
    const rejected = r.ambiguities.filter((a) => a.reason.startsWith(REJECTED_PREFIX));
    const ambiguous = r.ambiguities.filter((a) => !a.reason.startsWith(REJECTED_PREFIX));
    if (ambiguous.length > 0) {
      lines.push(`    AMBIGUOUS: ${ambiguous.length} (nothing written for these)`);
      for (const a of ambiguous.slice(0, SHOWN)) {
        lines.push(`      ${a.side} ${a.record_id} → ${a.candidates.join(', ')}: ${a.reason}`);
      }
      if (ambiguous.length > SHOWN) lines.push(`      … ${ambiguous.length - SHOWN} more`);
    }
    if (rejected.length > 0) {
      lines.push(
        `    REJECTED: ${rejected.length} (refused by the CRM; tried again next run, a held edit when a record changes)`,
      );
      for (const a of rejected.slice(0, SHOWN)) {
        const target = a.candidates.length > 0 ? ` → ${a.candidates.join(', ')}` : '';
        lines.push(`      ${a.side} ${a.record_id}${target}: ${a.reason.slice(REJECTED_PREFIX.length)}`);
      }
      if (rejected.length > SHOWN) lines.push(`      … ${rejected.length - SHOWN} more`);
    }
  }
  return lines.join('\n');
}
