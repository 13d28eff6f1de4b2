// What later syncs and webhooks do with an erased person's records: anonymise them as the erasure did
// (numbers to the keyed token, names and conversation text gone), so the data does not come back.
// Built once per sync page or inbox batch from the suppression list; null when the list is empty,
// so the common case costs one set lookup and nothing per record.
import type { CountryCode } from 'libphonenumber-js/max';
import { callIdentifier, keyedHasher } from './identity';
import { suppressionMatcher } from './matchers';
import { scrubRecord } from './scrub';

export interface Suppressor {
  /**
   * The record anonymised when it names a suppressed number or e-mail, or (given its account) is a
   * record of one of their erased calls (`live_id`/`call_id`); null when it is nobody's on the list.
   */
  scrub(value: unknown, account?: string, callId?: number | null): unknown;
}

function callIdOf(value: unknown): number | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as { live_id?: unknown; call_id?: unknown };
  const id = v.live_id ?? v.call_id;
  const n = typeof id === 'string' ? Number(id) : id;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null;
}

/** A suppressor over the list's hashes, or null when the list is empty. */
export function createSuppressor(
  key: Buffer | undefined,
  hashes: ReadonlySet<string>,
  defaultCountry: CountryCode,
): Suppressor | null {
  if (hashes.size === 0) return null;
  const matcher = suppressionMatcher(key, hashes, defaultCountry);
  const hmac = keyedHasher(key);
  return {
    scrub(value, account, callId) {
      const id = callId ?? callIdOf(value);
      const erasedCall =
        account !== undefined && id !== null && hashes.has(hmac('call', callIdentifier(account, id)));
      const r = scrubRecord(value, { matcher, person: erasedCall });
      return r.person ? r.value : null;
    },
  };
}
