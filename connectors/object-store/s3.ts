// ObjectStore on S3 or an S3-compatible service, shared by every host of a deployment. Bodies are
// streamed through @aws-sdk/lib-storage: one PUT up to the part size, a multipart upload above it
// (never the whole file in memory). Every request carries its SHA-256 (x-amz-checksum-sha256), which
// the service verifies; the checksum it answers for the whole object is compared with the one
// computed here while the body streamed through, and the size with what the source announced.
import { createHash, type Hash } from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { lazyPackage } from '../../lib/lazy-package';
import {
  InvalidObjectKeyError,
  ObjectSizeMismatchError,
  type ObjectStore,
  type StoredObject,
} from './object-store';
import type { S3Config } from './s3-config';

const s3Sdk = lazyPackage<typeof import('@aws-sdk/client-s3')>('@aws-sdk/client-s3');
const s3Storage = lazyPackage<typeof import('@aws-sdk/lib-storage')>('@aws-sdk/lib-storage');

/** The service's checksum of a stored object differs from the body sent; the object was removed. */
export class ObjectChecksumMismatchError extends Error {
  override readonly name = 'ObjectChecksumMismatchError';
  constructor(
    readonly key: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`Object ${key}: the store's SHA-256 ${actual} differs from the body's ${expected}`);
  }
}

/**
 * SHA-256 of a body as S3 reports it: the digest itself for a single PUT; for a multipart upload the
 * digest of the parts' digests, suffixed with the part count (S3's composite checksum).
 */
export function s3Sha256(partDigests: Buffer[], whole: Buffer, multipart: boolean): string {
  if (!multipart) return whole.toString('base64');
  const composite = createHash('sha256').update(Buffer.concat(partDigests)).digest('base64');
  return `${composite}-${partDigests.length}`;
}

/** Counts and hashes a body on its way to the store, per part and whole; fails it on a size mismatch. */
export class BodyMeter extends Transform {
  bytes = 0;
  readonly partDigests: Buffer[] = [];
  private readonly whole: Hash = createHash('sha256');
  private part: Hash = createHash('sha256');
  private partBytes = 0;
  private wholeDigest: Buffer | undefined;

  constructor(
    private readonly partSize: number,
    private readonly expectedBytes: number | undefined,
    private readonly key: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    this.whole.update(chunk);
    // Part boundaries fall where lib-storage cuts the stream: every partSize bytes.
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(this.partSize - this.partBytes, chunk.length - offset);
      this.part.update(chunk.subarray(offset, offset + take));
      this.partBytes += take;
      offset += take;
      if (this.partBytes === this.partSize) this.closePart();
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    // Erroring before the end reaches the uploader aborts it: a truncated download stores nothing.
    if (this.expectedBytes !== undefined && this.bytes !== this.expectedBytes) {
      done(new ObjectSizeMismatchError(this.key, this.expectedBytes, this.bytes));
      return;
    }
    if (this.partBytes > 0 || this.partDigests.length === 0) this.closePart();
    this.wholeDigest = this.whole.digest();
    done();
  }

  /** The checksum S3 should report for this body once it has ended. */
  expectedChecksum(): string {
    if (!this.wholeDigest) throw new Error('the body has not ended');
    return s3Sha256(this.partDigests, this.wholeDigest, this.bytes > this.partSize);
  }

  private closePart(): void {
    this.partDigests.push(this.part.digest());
    this.part = createHash('sha256');
    this.partBytes = 0;
  }
}

/** The S3 client options of the config (credentials from it, or the SDK's default chain). */
export function s3ClientConfig(config: S3Config): S3ClientConfig {
  return {
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.credentials
      ? {
          credentials: {
            accessKeyId: config.credentials.accessKeyId,
            secretAccessKey: config.credentials.secretAccessKey,
            ...(config.credentials.sessionToken ? { sessionToken: config.credentials.sessionToken } : {}),
          },
        }
      : {}),
    // lib-storage retries nothing itself; the SDK retries each request a few times, Temporal the rest.
    maxAttempts: 3,
  };
}

/** An object store in one S3 bucket, under the configured prefix. */
export class S3ObjectStore implements ObjectStore {
  readonly client: S3Client;

  constructor(
    private readonly config: S3Config,
    client?: S3Client,
  ) {
    this.client = client ?? new (s3Sdk().S3Client)(s3ClientConfig(config));
  }

  /** The full key in the bucket; refuses keys that are empty, absolute or climb with `..`. */
  keyOf(key: string): string {
    const parts = key.split('/');
    if (key === '' || key.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..')) {
      throw new InvalidObjectKeyError(`Invalid object key: ${JSON.stringify(key)}`);
    }
    return `${this.config.prefix}${key}`;
  }

  private uri(fullKey: string): string {
    return `s3://${this.config.bucket}/${fullKey}`;
  }

  async put(key: string, body: Readable, expectedBytes?: number): Promise<StoredObject> {
    const Key = this.keyOf(key);
    const partSize = this.config.partSizeMb * 1024 * 1024;
    const meter = new BodyMeter(partSize, expectedBytes, key);
    body.once('error', (err) => meter.destroy(err));
    const upload = new (s3Storage().Upload)({
      client: this.client,
      params: { Bucket: this.config.bucket, Key, Body: body.pipe(meter), ChecksumAlgorithm: 'SHA256' },
      partSize,
      queueSize: this.config.partsAtOnce,
      leavePartsOnError: false,
    });
    const result = await upload.done();
    const expected = meter.expectedChecksum();
    const actual = result.ChecksumSHA256;
    if (actual !== undefined && actual !== expected) {
      await this.client.send(new (s3Sdk().DeleteObjectCommand)({ Bucket: this.config.bucket, Key }));
      throw new ObjectChecksumMismatchError(key, expected, actual);
    }
    if (actual === undefined) {
      // A service that reports no checksum: at least the stored size must be the body's.
      const stored = await this.exists(key);
      if (stored?.bytes !== meter.bytes) {
        throw new ObjectSizeMismatchError(key, meter.bytes, stored?.bytes ?? 0);
      }
    }
    return { uri: this.uri(Key), bytes: meter.bytes };
  }

  async exists(key: string): Promise<{ bytes: number; uri: string } | null> {
    const Key = this.keyOf(key);
    try {
      const head = await this.client.send(
        new (s3Sdk().HeadObjectCommand)({ Bucket: this.config.bucket, Key }),
      );
      return { bytes: head.ContentLength ?? 0, uri: this.uri(Key) };
    } catch (err) {
      if (err instanceof s3Sdk().NotFound || (err as { name?: string }).name === 'NotFound') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<boolean> {
    // S3 answers a delete of a missing key with success too: ask first, so the count is true.
    if (!(await this.exists(key))) return false;
    await this.client.send(
      new (s3Sdk().DeleteObjectCommand)({ Bucket: this.config.bucket, Key: this.keyOf(key) }),
    );
    return true;
  }
}

/** The S3 object store of `archive.s3`. */
export function createS3ObjectStore(config: S3Config): S3ObjectStore {
  return new S3ObjectStore(config);
}
