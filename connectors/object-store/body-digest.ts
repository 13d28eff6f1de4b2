// A pass-through stream that counts and hashes an object's body as it goes to the store, and fails
// the write at the end when the size is not what the source announced (so nothing is stored).
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { CRC32C } from '@google-cloud/storage';
import { lazyPackage } from '../../lib/lazy-package';
import { ObjectSizeMismatchError } from './object-store';

/** @google-cloud/storage, loaded when Cloud Storage is first used. */
export const googleCloudStorage =
  lazyPackage<typeof import('@google-cloud/storage')>('@google-cloud/storage');

/** Counts bytes and computes MD5 and CRC32C (the two checksums Cloud Storage reports) of a body. */
export class BodyDigest extends Transform {
  bytes = 0;
  private readonly md5Hash: Hash = createHash('md5');
  // CRC32C is plain JavaScript (about 50 MB/s here, MD5 five times that): only stores that report it.
  private readonly crc: CRC32C | undefined;

  constructor(
    private readonly key: string,
    private readonly expectedBytes?: number,
    options: { crc32c?: boolean } = {},
  ) {
    super();
    this.crc = options.crc32c ? new (googleCloudStorage().CRC32C)() : undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    this.md5Hash.update(chunk);
    this.crc?.update(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.expectedBytes !== undefined && this.bytes !== this.expectedBytes) {
      done(new ObjectSizeMismatchError(this.key, this.expectedBytes, this.bytes));
      return;
    }
    done();
  }

  /** MD5 of the body, base64 (as Cloud Storage's md5Hash); call after the body has passed. */
  md5Base64(): string {
    return this.md5Hash.copy().digest('base64');
  }

  /** CRC32C of the body, base64 of the big-endian value (as Cloud Storage's crc32c); needs `crc32c`. */
  crc32cBase64(): string {
    if (!this.crc) throw new Error('BodyDigest: CRC32C was not asked for');
    return this.crc.toString();
  }
}

/** A base64 MD5 as hex (how the warehouse records it). */
export function md5Hex(base64: string): string {
  return Buffer.from(base64, 'base64').toString('hex');
}
