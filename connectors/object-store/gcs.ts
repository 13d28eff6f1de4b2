// ObjectStore on Google Cloud Storage: each object is uploaded in one request (it appears only once
// complete), and the MD5 and CRC32C that Cloud Storage reports for it must equal those of the bytes
// sent, or the object is deleted and the put fails. A body shorter than announced aborts the upload.
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { File, Storage } from '@google-cloud/storage';
import type { AuthClient } from 'google-auth-library';
import { googleAuthClient } from '../google/credentials';
import { BodyDigest, googleCloudStorage, md5Hex } from './body-digest';
import type { GcsArchiveConfig } from './gcs-config';
import {
  checkObjectKey,
  ObjectChecksumMismatchError,
  type ObjectStore,
  type StoredObject,
} from './object-store';

/** OAuth scope for reading and writing objects. */
export const GCS_SCOPE = 'https://www.googleapis.com/auth/devstorage.read_write';

const isNotFound = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 404;

/** An object store in a Cloud Storage bucket, object names `<prefix><key>`. */
export class GcsObjectStore implements ObjectStore {
  constructor(
    private readonly storage: Storage,
    readonly bucket: string,
    readonly prefix = '',
  ) {}

  /** The object that holds `key`; throws InvalidObjectKeyError for a bad key. */
  fileOf(key: string): File {
    checkObjectKey(key);
    return this.storage.bucket(this.bucket).file(`${this.prefix}${key}`);
  }

  async put(key: string, body: Readable, expectedBytes?: number): Promise<StoredObject> {
    const file = this.fileOf(key);
    const digest = new BodyDigest(key, expectedBytes, { crc32c: true });
    // The client's own validation is off: the check below compares both checksums and names the key.
    await pipeline(
      body,
      digest,
      file.createWriteStream({ resumable: false, validation: false, contentType: 'audio/mpeg' }),
    );
    const [meta] = await file.getMetadata();
    const sent = { md5: digest.md5Base64(), crc32c: digest.crc32cBase64() };
    for (const checksum of ['md5', 'crc32c'] as const) {
      const stored = checksum === 'md5' ? meta.md5Hash : meta.crc32c;
      if (stored !== sent[checksum]) {
        await file.delete({ ignoreNotFound: true });
        throw new ObjectChecksumMismatchError(key, checksum, sent[checksum], String(stored));
      }
    }
    return { uri: `gs://${this.bucket}/${file.name}`, bytes: digest.bytes, md5: md5Hex(sent.md5) };
  }

  async exists(key: string): Promise<{ bytes: number; uri: string; md5?: string } | null> {
    try {
      const file = this.fileOf(key);
      const [meta] = await file.getMetadata();
      return {
        bytes: Number(meta.size),
        uri: `gs://${this.bucket}/${file.name}`,
        ...(meta.md5Hash ? { md5: md5Hex(meta.md5Hash) } : {}),
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<boolean> {
    try {
      await this.fileOf(key).delete();
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }
}

/** A Cloud Storage object store from the archive.gcs config, authenticated by its credentials. */
export async function createGcsObjectStore(
  config: GcsArchiveConfig,
  authClient?: AuthClient,
): Promise<GcsObjectStore> {
  const auth = authClient ?? (await googleAuthClient(config.credentials, [GCS_SCOPE]));
  const storage = new (googleCloudStorage().Storage)({
    authClient: auth,
    ...(config.projectId ? { projectId: config.projectId } : {}),
    ...(config.apiEndpoint ? { apiEndpoint: config.apiEndpoint } : {}),
  });
  return new GcsObjectStore(storage, config.bucket, config.prefix);
}
