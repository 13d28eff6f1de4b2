// Seals secrets that callsync keeps in PostgreSQL (OAuth tokens, stored accounts' credentials) with
// AES-256-GCM under the same keys that encrypt Temporal payloads (temporal.encryption.keys). A sealed
// value is `<keyId>.<base64 of IV | ciphertext | tag>`; the key id and a context (what the value is,
// e.g. `hubspot-oauth:portal-123`) are authenticated, so a value cannot be moved to another row or
// passed off as another key's. Old keys stay able to open what they sealed after a rotation.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EncryptionKey } from './payload-codec';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value that cannot be opened; names the key id and context, never any content. */
export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';
}

/** Seals and opens secrets at rest. */
export class SecretBox {
  private readonly keys: Map<string, Buffer>;

  constructor(
    keys: readonly EncryptionKey[],
    private readonly activeKeyId: string,
  ) {
    for (const k of keys) {
      if (k.key.length !== 32)
        throw new SecretBoxError(`key "${k.id}" must be 32 bytes, not ${k.key.length}`);
    }
    this.keys = new Map(keys.map((k) => [k.id, k.key]));
    if (!this.keys.has(activeKeyId))
      throw new SecretBoxError(`active key "${activeKeyId}" is not among the keys`);
  }

  /** `plain` sealed with the active key, bound to `context`. */
  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.activeKeyId)!, iv);
    cipher.setAAD(additionalData(this.activeKeyId, context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${this.activeKeyId}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64')}`;
  }

  /** The plain text of a value `seal` gave for the same context. */
  open(sealed: string, context: string): string {
    const dot = sealed.indexOf('.');
    const id = dot > 0 ? sealed.slice(0, dot) : '';
    const key = this.keys.get(id);
    if (!key)
      throw new SecretBoxError(
        `${context}: sealed with key "${id}", which is not in temporal.encryption.keys`,
      );
    const data = Buffer.from(sealed.slice(dot + 1), 'base64');
    if (data.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError(`${context}: sealed value is truncated`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
      decipher.setAAD(additionalData(id, context));
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretBoxError(`${context}: sealed value does not authenticate with key "${id}"`);
    }
  }
}

function additionalData(keyId: string, context: string): Buffer {
  return Buffer.from(`${keyId}\0${context}`, 'utf8');
}
