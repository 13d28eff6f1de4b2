// Encrypts every Temporal payload (workflow and activity arguments, results, signals, queries) with
// AES-256-GCM before it leaves the process, so histories on the Temporal server hold no personal
// data in clear. The key id travels in each payload's metadata: old histories stay readable after
// a rotation as long as their key is still listed. Runs outside the workflow sandbox (client and
// worker data converter), so node:crypto is fine here; nothing happens at import.
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

/** `encoding` metadata of an encrypted payload. */
export const ENCODING_ENCRYPTED = 'binary/encrypted';
/** Metadata key naming the key that encrypted a payload. */
export const METADATA_KEY_ID = 'encryption-key-id';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** An AES-256 key and the id written next to what it encrypted. */
export interface EncryptionKey {
  id: string;
  /** 32 bytes. */
  key: Buffer;
}

/** A payload the codec cannot decrypt; says which key id, never any content. */
export class PayloadDecryptionError extends Error {
  override readonly name = 'PayloadDecryptionError';
}

/**
 * AES-256-GCM codec: `data` = IV (12 bytes) | ciphertext of the whole serialized payload | tag (16).
 * The key id is authenticated too (additional data), so a payload cannot be passed off as another key's.
 */
export class AesGcmPayloadCodec implements PayloadCodec {
  // KeyObjects made once: given a Buffer, every cipher made its own KeyObject, most of the cost of
  // encrypting a small payload (a fast-path workflow start, a relay signal).
  private readonly keys: Map<string, KeyObject>;
  private readonly active: { id: string; key: KeyObject; idBytes: Uint8Array };

  constructor(keys: readonly EncryptionKey[], activeKeyId: string) {
    for (const k of keys) {
      if (k.key.length !== 32)
        throw new Error(`encryption key "${k.id}" must be 32 bytes, not ${k.key.length}`);
    }
    this.keys = new Map(keys.map((k) => [k.id, createSecretKey(k.key)]));
    const active = this.keys.get(activeKeyId);
    if (!active) throw new Error(`active encryption key "${activeKeyId}" is not among the keys`);
    this.active = { id: activeKeyId, key: active, idBytes: utf8.encode(activeKeyId) };
  }

  /** Id of the key new payloads are encrypted with. */
  get activeKeyId(): string {
    return this.active.id;
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => this.encrypt(p));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => this.decrypt(p));
  }

  private encrypt(payload: Payload): Payload {
    const plain = temporal.api.common.v1.Payload.encode(payload).finish();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.active.key, iv);
    cipher.setAAD(this.active.idBytes);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return {
      metadata: {
        encoding: utf8.encode(ENCODING_ENCRYPTED),
        [METADATA_KEY_ID]: utf8.encode(this.active.id),
      },
      data: Buffer.concat([iv, body, cipher.getAuthTag()]),
    };
  }

  private decrypt(payload: Payload): Payload {
    const encoding = payload.metadata?.encoding;
    // Payloads written before encryption was turned on stay readable as they are.
    if (!encoding || fromUtf8.decode(encoding) !== ENCODING_ENCRYPTED) return payload;
    const idBytes = payload.metadata?.[METADATA_KEY_ID];
    if (!idBytes) throw new PayloadDecryptionError(`encrypted payload has no ${METADATA_KEY_ID} metadata`);
    const id = fromUtf8.decode(idBytes);
    const key = this.keys.get(id);
    if (!key) {
      throw new PayloadDecryptionError(
        `payload was encrypted with key "${id}", which is not in temporal.encryption.keys`,
      );
    }
    const data = payload.data ?? new Uint8Array();
    if (data.length < IV_BYTES + TAG_BYTES)
      throw new PayloadDecryptionError(`encrypted payload (key "${id}") is truncated`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
      decipher.setAAD(idBytes);
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)),
        decipher.final(),
      ]);
      return temporal.api.common.v1.Payload.decode(plain);
    } catch {
      throw new PayloadDecryptionError(`encrypted payload does not authenticate with key "${id}"`);
    }
  }
}
