// Where archived audio lives: a small interface, so a local directory (the default), S3 or Google
// Cloud Storage can sit behind it.
import type { Readable } from 'node:stream';

export interface StoredObject {
  /** Where the object can be found again (file:///…, s3://…, gs://…). */
  uri: string;
  bytes: number;
  /** MD5 (hex) of the stored object, checked against what was received; recorded in the warehouse. */
  md5?: string;
}

export interface ObjectStore {
  /**
   * Stores the stream under `key`, replacing any object there only once the whole body has
   * arrived; rejects with ObjectSizeMismatchError (storing nothing) when `expectedBytes` is given
   * and the body's size differs.
   */
  put(key: string, body: Readable, expectedBytes?: number): Promise<StoredObject>;
  /**
   * The stored object's size (and where it is and its MD5 in hex, when the store can tell), or null
   * when there is none.
   */
  exists(key: string): Promise<{ bytes: number; uri?: string; md5?: string } | null>;
  /** Deletes the object (erasure); true when there was one, false when it was already gone. */
  delete(key: string): Promise<boolean>;
}

/** The body's size is not what the source announced (a truncated download); nothing was stored. */
export class ObjectSizeMismatchError extends Error {
  override readonly name = 'ObjectSizeMismatchError';
  constructor(
    readonly key: string,
    readonly expectedBytes: number,
    readonly actualBytes: number,
  ) {
    super(`Object ${key}: expected ${expectedBytes} bytes, received ${actualBytes}`);
  }
}

/** The store holds other bytes than were sent (its reported checksum differs); nothing was kept. */
export class ObjectChecksumMismatchError extends Error {
  override readonly name = 'ObjectChecksumMismatchError';
  constructor(
    readonly key: string,
    readonly checksum: 'md5' | 'crc32c',
    readonly sent: string,
    readonly stored: string,
  ) {
    super(`Object ${key}: the store reports ${checksum} ${stored}, the body sent had ${sent}`);
  }
}

/** A key that is empty, absolute, or climbs out of the store (`..`). */
export class InvalidObjectKeyError extends Error {
  override readonly name = 'InvalidObjectKeyError';
}

/**
 * Key of an archived audio file: `<stream>/<account>/<YYYY>/<MM>/<DD>/<id>.mp3` by the (UTC) day it
 * was recorded, or `<stream>/<account>/<id>.mp3` when that day is unknown.
 */
export function audioObjectKey(
  stream: 'recordings' | 'voicemessages',
  account: string,
  id: number,
  recordedAt?: Date | null,
): string {
  const day =
    recordedAt && !Number.isNaN(recordedAt.getTime())
      ? `${recordedAt.toISOString().slice(0, 10).replaceAll('-', '/')}/`
      : '';
  return `${stream}/${encodeURIComponent(account)}/${day}${id}.mp3`;
}

/** Throws InvalidObjectKeyError for a key that is empty, absolute, or has empty, `.` or `..` parts. */
export function checkObjectKey(key: string): void {
  const parts = key.split('/');
  if (
    key === '' ||
    key.startsWith('/') ||
    key.includes('\\') ||
    key.includes('\0') ||
    parts.some((p) => p === '' || p === '.' || p === '..')
  ) {
    throw new InvalidObjectKeyError(`Invalid object key: ${JSON.stringify(key)}`);
  }
}
