// Running processes notice accounts added, changed or removed at run time (`callsync accounts`) by
// polling the stored_accounts table's fingerprint (count and highest version): one tiny query every
// few seconds, with no listener connection to keep alive across PostgreSQL restarts.
import type { Kysely } from 'kysely';
import { storedAccountsFingerprint, type Database } from '../connectors/postgres';

/** How often a running process looks for stored account changes. */
export const ACCOUNT_POLL_MS = 3_000;

export interface AccountWatch {
  stop(): void;
}

/**
 * Calls `onChange` each time the stored accounts differ from what they were at `initial` (or at the
 * last change seen). A failed poll is reported through `onError` and tried again at the next tick;
 * `onChange` runs one at a time.
 */
export function watchStoredAccounts(
  db: Kysely<Database>,
  opts: {
    initial: string;
    intervalMs?: number;
    onChange: (fingerprint: string) => Promise<void> | void;
    onError: (err: unknown) => void;
  },
): AccountWatch {
  let last = opts.initial;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async (): Promise<void> => {
    try {
      const now = await storedAccountsFingerprint(db);
      if (!stopped && now !== last) {
        last = now;
        await opts.onChange(now);
      }
    } catch (err) {
      opts.onError(err);
    }
    if (!stopped) timer = setTimeout(() => void tick(), opts.intervalMs ?? ACCOUNT_POLL_MS);
  };
  timer = setTimeout(() => void tick(), opts.intervalMs ?? ACCOUNT_POLL_MS);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
