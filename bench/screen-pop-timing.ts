// bench:e2e's screen-pop measurement: from a ringing inbound call's call.ringing reaching the receiver
// (the request's first byte, as the receiver's fast path reports it) to the emulator answering the
// PATCH /calls/{id} that sets the call's action_url (the store's change, written as it answers).
import type { Kysely } from 'kysely';
import { upsertCrmContactCache, type CrmContactCacheScope, type Database } from '../connectors/postgres';
import type { EmulatorStore } from '../emulator/store';
import type { FastPath } from '../server/fast-path';
import { startsScreenPop } from '../server/fast-path';

export interface ScreenPopTiming {
  /** Pass to startServer's observeFastPath. */
  observe: FastPath;
  /** Latencies (ms) of the calls whose link landed, sorted. */
  latencies(): number[];
  /** Inbound calls that rang and got no link. */
  missing(): number;
}

export function screenPopTiming(store: EmulatorStore): ScreenPopTiming {
  const rangAt = new Map<number, number>();
  const linkedAt = new Map<number, number>();
  store.onChange((e) => {
    if (e.table !== 'calls' || e.op === 'remove' || typeof e.row.action_url !== 'string') return;
    const id = Number(e.row.id);
    if (!linkedAt.has(id)) linkedAt.set(id, Date.now());
  });
  return {
    observe: (_account, webhook, receivedAt) => {
      if (!startsScreenPop(webhook) || webhook.kind !== 'call') return;
      const id = Number(webhook.event.call_id);
      if (Number.isFinite(id) && !rangAt.has(id)) rangAt.set(id, receivedAt);
    },
    latencies: () =>
      [...rangAt]
        .filter(([id]) => linkedAt.has(id))
        .map(([id, at]) => Math.round(linkedAt.get(id)! - at))
        .sort((a, b) => a - b),
    missing: () => [...rangAt.keys()].filter((id) => !linkedAt.has(id)).length,
  };
}

/**
 * Gives every number the bench dials a CRM contact (`seed` creates it and answers its id), and puts
 * them in the contact cache as the contact sync does: a call centre's callers are mostly in its CRM,
 * and screen-pop reads the cache.
 */
export async function warmContactCache(
  db: Kysely<Database>,
  scope: CrmContactCacheScope,
  numbers: readonly string[],
  seed: (e164: string, index: number) => string,
): Promise<void> {
  const rows = [...new Set(numbers)].map((e164, i) => {
    const contact = {
      crmId: seed(e164, i),
      kind: 'contact' as const,
      name: `Caller ${i}`,
      ownerId: null,
      updatedAt: null,
    };
    return { ...scope, e164, contact };
  });
  await upsertCrmContactCache(db, rows);
}
