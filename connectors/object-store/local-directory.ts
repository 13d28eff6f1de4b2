// ObjectStore on a local directory: each object is a file under the root, written to a temporary
// file in the same directory, flushed, size-checked and renamed into place, so a reader never
// sees a partial file and a failed download leaves the previous copy intact.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { BodyDigest, md5Hex } from './body-digest';
import {
  InvalidObjectKeyError,
  ObjectSizeMismatchError,
  type ObjectStore,
  type StoredObject,
} from './object-store';

/** An object store in a local directory (created on first write). */
export class LocalDirectoryStore implements ObjectStore {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The file that holds `key`; throws InvalidObjectKeyError for keys outside the root. */
  pathOf(key: string): string {
    const parts = key.split('/');
    if (
      key === '' ||
      isAbsolute(key) ||
      key.includes('\\') ||
      key.includes('\0') ||
      parts.some((p) => p === '' || p === '.' || p === '..')
    ) {
      throw new InvalidObjectKeyError(`Invalid object key: ${JSON.stringify(key)}`);
    }
    const path = join(this.root, ...parts);
    if (!path.startsWith(this.root + sep)) throw new InvalidObjectKeyError(`Invalid object key: ${key}`);
    return path;
  }

  async put(key: string, body: Readable, expectedBytes?: number): Promise<StoredObject> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${randomUUID()}.part`;
    try {
      const digest = new BodyDigest(key);
      await pipeline(body, digest, createWriteStream(temp, { flush: true }));
      const { size } = await stat(temp);
      if (expectedBytes !== undefined && size !== expectedBytes) {
        throw new ObjectSizeMismatchError(key, expectedBytes, size);
      }
      await rename(temp, path);
      return { uri: pathToFileURL(path).href, bytes: size, md5: md5Hex(digest.md5Base64()) };
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
  }

  async exists(key: string): Promise<{ bytes: number; uri: string; md5: string } | null> {
    try {
      const path = this.pathOf(key);
      const s = await stat(path);
      if (!s.isFile()) return null;
      // Read back only when the file is there (a retry after an upload), so the MD5 is still recorded.
      const digest = new BodyDigest(key);
      await pipeline(createReadStream(path), digest, new Writable({ write: (_c, _e, done) => done() }));
      return { bytes: s.size, uri: pathToFileURL(path).href, md5: md5Hex(digest.md5Base64()) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<boolean> {
    try {
      await unlink(this.pathOf(key));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }
}

/** The default object store: a local directory. */
export function createLocalObjectStore(root: string): ObjectStore {
  return new LocalDirectoryStore(root);
}
