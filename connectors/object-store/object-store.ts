// Where archived audio lives: a small interface, so a local directory (the default), S3 or Google
// Cloud Storage can sit behind it.
import type { Readable } from 'node:stream';

export interface StoredObject {
  /** Where the object can be found again (file:///…, s3://…, gs://…). */
  uri: string;
  bytes: number;
}

export interface ObjectStore {
  /**
   * Stores the stream under `key`, replacing any object there only once the whole body has
   * arrived; rejects with ObjectSizeMismatchError (storing nothing) when `expectedBytes` is given
   * and the body's size differs.
   */
  put(key: string, body: Readable, expectedBytes?: number): Promise<StoredObject>;
  /** The stored object's size (and where it is, when the store can tell), or null when there is none. */
  exists(key: string): Promise<{ bytes: number; uri?: string } | null>;
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

/** A key that is empty, absolute, or climbs out of the store (`..`). */
export class InvalidObjectKeyError extends Error {
  override readonly name = 'InvalidObjectKeyError';
}

/** Key of an archived audio file: `<stream>/<account>/<id>.mp3`. */
export function audioObjectKey(stream: 'recordings' | 'voicemessages', account: string, id: number): string {
  return `${stream}/${encodeURIComponent(account)}/${id}.mp3`;
}
