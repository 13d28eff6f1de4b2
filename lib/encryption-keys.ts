// Reads the keys of `temporal.encryption` and `erasure` (inline base64 or key files) into what uses
// them: the payload codec, the box that seals secrets in PostgreSQL, and the HMAC keys that hash
// numbers out of workflow ids and erasure records. Errors name the setting and the file, never the key.
import { readFileSync } from 'node:fs';
import type { ErasureConfig } from '../config/erasure';
import type { TemporalConfig } from '../config/temporal';
import type { TemporalEncryptionConfig } from '../config/temporal-encryption';
import { AesGcmPayloadCodec, type EncryptionKey } from './payload-codec';
import { SecretBox } from './secret-box';

/** Bad encryption settings; the message names the setting. */
export class EncryptionConfigError extends Error {
  override readonly name = 'EncryptionConfigError';
}

/** Decodes base64 key text (inline or from a file), checking its length. */
export function decodeKey(text: string, setting: string, minBytes: number, exactBytes?: number): Buffer {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+=*$/.test(trimmed)) throw new EncryptionConfigError(`${setting}: is not base64`);
  const key = Buffer.from(trimmed, 'base64');
  if (exactBytes !== undefined && key.length !== exactBytes) {
    throw new EncryptionConfigError(`${setting}: must be base64 of ${exactBytes} bytes, not ${key.length}`);
  }
  if (key.length < minBytes) {
    throw new EncryptionConfigError(
      `${setting}: must be base64 of at least ${minBytes} bytes, not ${key.length}`,
    );
  }
  return key;
}

function readKeyFile(path: string, setting: string, read: typeof readFileSync): string {
  try {
    return read(path, 'utf8');
  } catch (err) {
    throw new EncryptionConfigError(
      `${setting}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

/** The `temporal.encryption` block, or undefined when it is absent or `"off"`. */
export function encryptionBlock(
  temporal: Pick<TemporalConfig, 'encryption'>,
): TemporalEncryptionConfig | undefined {
  return temporal.encryption === 'off' ? undefined : temporal.encryption;
}

/** Why a worker or server refuses to start without keys; names the setting and how to fix it. */
export const MISSING_ENCRYPTION_MESSAGE =
  'temporal.encryption: is not set, and callsync does not send personal data to Temporal in clear. ' +
  'Generate a key with `callsync keys generate --out <file>` and set temporal.encryption to the block it ' +
  'prints (docs/privacy.md "Personal data in Temporal"), or set temporal.encryption to "off" to store payloads in clear';

/**
 * The codec of `temporal.encryption`, or undefined when it is `"off"`; throws (naming the setting)
 * when it is absent: payloads are never stored in clear unless the config says so.
 */
export function payloadCodecFromConfig(
  temporal: Pick<TemporalConfig, 'encryption'>,
  read = readFileSync,
): AesGcmPayloadCodec | undefined {
  if (temporal.encryption === undefined) throw new EncryptionConfigError(MISSING_ENCRYPTION_MESSAGE);
  const enc = encryptionBlock(temporal);
  if (!enc) return undefined;
  return new AesGcmPayloadCodec(encryptionKeys(enc, read), enc.activeKeyId);
}

function encryptionKeys(enc: TemporalEncryptionConfig, read: typeof readFileSync): EncryptionKey[] {
  return enc.keys.map((k, i) => {
    const setting = `temporal.encryption.keys[${i}].${k.keyFile !== undefined ? 'keyFile' : 'key'}`;
    const text = k.keyFile !== undefined ? readKeyFile(k.keyFile, setting, read) : k.key!;
    return { id: k.id, key: decodeKey(text, setting, 32, 32) };
  });
}

/**
 * The box that seals secrets kept in PostgreSQL (OAuth tokens, stored accounts), under the keys of
 * `temporal.encryption`; throws, naming the setting, when there are none (absent or `"off"`).
 */
export function secretBoxFromConfig(
  temporal: Pick<TemporalConfig, 'encryption'>,
  read = readFileSync,
): SecretBox {
  const enc = encryptionBlock(temporal);
  if (!enc) {
    throw new EncryptionConfigError(
      'temporal.encryption: callsync keeps credentials in PostgreSQL only encrypted, under these keys; ' +
        'set it (`callsync keys generate --out <file>`, docs/privacy.md "Personal data in Temporal")',
    );
  }
  return new SecretBox(encryptionKeys(enc, read), enc.activeKeyId);
}

/** The HMAC key of callback workflow ids (lib/caller-key.ts), or undefined (unkeyed) when not set. */
export function workflowIdKey(
  temporal: Pick<TemporalConfig, 'encryption'>,
  read = readFileSync,
): Buffer | undefined {
  const enc = encryptionBlock(temporal);
  if (enc?.idKeyFile !== undefined) {
    return decodeKey(
      readKeyFile(enc.idKeyFile, 'temporal.encryption.idKeyFile', read),
      'temporal.encryption.idKeyFile',
      16,
    );
  }
  if (enc?.idKey !== undefined) return decodeKey(enc.idKey, 'temporal.encryption.idKey', 16);
  return undefined;
}

/** The HMAC key of erasure hashes: `erasure.hashKey(File)`, else the callback id key, else unkeyed. */
export function erasureHashKey(
  config: { temporal: Pick<TemporalConfig, 'encryption'>; erasure: ErasureConfig },
  read = readFileSync,
): Buffer | undefined {
  const e = config.erasure;
  if (e.hashKeyFile !== undefined) {
    return decodeKey(readKeyFile(e.hashKeyFile, 'erasure.hashKeyFile', read), 'erasure.hashKeyFile', 16);
  }
  if (e.hashKey !== undefined) return decodeKey(e.hashKey, 'erasure.hashKey', 16);
  return workflowIdKey(config.temporal, read);
}
