// Keyed hash of a phone number, used where a number would otherwise show in clear (workflow ids):
// HMAC-SHA256 so nobody without the key can test candidate numbers against it.
import { createHmac } from 'node:crypto';

/**
 * Hex of the first 128 bits of HMAC-SHA256(key, "account\0number"): stable for a given key, different
 * per account. Without a key (no temporal.encryption.idKey) the hash is unkeyed: it keeps numbers out
 * of sight, not out of reach of someone trying every number.
 */
export function callerKey(key: Buffer | undefined, account: string, number: string): string {
  return createHmac('sha256', key ?? Buffer.alloc(0))
    .update(`${account}\u0000${number}`)
    .digest('hex')
    .slice(0, 32);
}
