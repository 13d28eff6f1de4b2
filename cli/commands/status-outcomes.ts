// `callsync status`: the OUTCOMES section: per account and CRM, how many calls' CRM outcomes were
// written back onto their CDRs, are waiting, were callsync's own (echo) or were refused by the
// platform, with the refused ones and the platform's reason (docs/crm.md "Outcomes back on the CDR").
import type { Kysely } from 'kysely';
import {
  cdrOutcomeCounts,
  refusedCdrOutcomes,
  type CdrOutcomeRow,
  type CdrOutcomeState,
  type Database,
} from '../../connectors/postgres';

export interface OutcomeStatus {
  account: string;
  destination: string;
  counts: Partial<Record<CdrOutcomeState, number>>;
  refused: Pick<CdrOutcomeRow, 'call_key' | 'cdr_id' | 'label' | 'reason' | 'updated_at'>[];
}

/** Refused writes listed per account (the rest counted). */
const SHOWN = 5;

export async function collectOutcomeStatus(db: Kysely<Database>): Promise<OutcomeStatus[]> {
  const byKey = new Map<string, OutcomeStatus>();
  for (const c of await cdrOutcomeCounts(db)) {
    const key = `${c.account}\n${c.destination}`;
    const status = byKey.get(key) ?? {
      account: c.account,
      destination: c.destination,
      counts: {},
      refused: [],
    };
    status.counts[c.state] = c.n;
    byKey.set(key, status);
  }
  const statuses = [...byKey.values()];
  for (const s of statuses) {
    if (!s.counts.refused) continue;
    s.refused = (await refusedCdrOutcomes(db, s.account)).filter((r) => r.destination === s.destination);
  }
  return statuses;
}

/** The OUTCOMES section of the text output; '' when no outcome was ever seen. */
export function formatOutcomeStatus(statuses: readonly OutcomeStatus[]): string {
  if (statuses.length === 0) return '';
  const lines = ['OUTCOMES (CRM outcomes on CDRs)'];
  for (const s of statuses) {
    const n = (state: CdrOutcomeState) => s.counts[state] ?? 0;
    lines.push(
      `  ${s.account} ← ${s.destination}: ${n('applied')} written, ${n('pending')} pending, ` +
        `${n('echo')} callsync's own, ${n('refused')} refused`,
    );
    if (s.refused.length === 0) continue;
    lines.push(`    REFUSED by the platform (written again when the outcome changes):`);
    for (const r of s.refused.slice(0, SHOWN)) {
      const cdr = r.cdr_id === null ? 'no CDR' : `CDR ${r.cdr_id}`;
      lines.push(`      ${r.call_key} (${cdr}, ${r.label ?? 'no label'}): ${r.reason ?? 'no reason given'}`);
    }
    if (s.refused.length > SHOWN) lines.push(`      … ${s.refused.length - SHOWN} more`);
  }
  return lines.join('\n');
}
