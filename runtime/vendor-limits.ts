// Vendor request limits shared by every worker, per request rather than per activity, through
// PostgreSQL (repositories/rate-slots.ts): the platform's per-account rate (sharedPlatformLimiter),
// and the CRM's (connectors/crm/shared-rate-limiter.ts), where one batch request carries the writes
// of many activities. CRM activities spend most of their time waiting for their batch to fill and
// for their slot, so each worker runs many at once: enough to fill a batch.
import { setTimeout as delay } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { reserveRateSlot, type Database } from '../connectors/postgres';
import type { RequestLimiter } from '../lib/rate-limiter';

/** Concurrent activities on the CRM task queue per worker (a full HubSpot batch). */
export const CRM_ACTIVITY_SLOTS = 100;

/**
 * The platform's request rate for one account, shared by every worker through PostgreSQL
 * (repositories/rate-slots.ts): each request reserves the account's next slot, `1000 /
 * requestsPerSecond` ms after the one before, whichever process or host sent it. A task-queue rate
 * cannot express this limit: platform activities send from one request (a sync page) to hundreds
 * (an audio batch, a dial check's reads), and Temporal lets a task queue's rate burst past its
 * per-second figure within a second.
 */
export function sharedPlatformLimiter(
  db: Kysely<Database>,
  account: string,
  limit: { requestsPerSecond: number; burst: number },
  sleep: (ms: number) => Promise<void> = (ms) => delay(ms),
): RequestLimiter {
  const slot = {
    vendor: 'platform',
    scope: account,
    intervalMs: 1000 / limit.requestsPerSecond,
    burst: limit.burst,
  };
  // A request that leaves well after its slot (a busy event loop, a slow reservation) would bunch up
  // with the requests of the slots after it, and the platform would see more than its rate in that
  // second: such a slot is given up and the next free one taken (a few times at most, so a starved
  // process still gets its request out). Lateness under 25 ms is a timer's jitter, not bunching: at
  // a high rate (2 ms slots) counting it would make every request of a loaded worker take four slots.
  const maxLateMs = Math.max(slot.intervalMs / 2, 25);
  return {
    async acquire() {
      let waited = 0;
      for (let attempt = 0; ; attempt++) {
        const waitMs = await reserveRateSlot(db, slot);
        const reserved = performance.now();
        if (waitMs > 0) await sleep(waitMs);
        waited += waitMs;
        const lateMs = performance.now() - reserved - waitMs;
        if (lateMs <= maxLateMs || attempt >= 3) return waited;
      }
    },
  };
}
