// Archived audio in Google Drive: a folder per account and month under a folder of a shared drive
// (a service account owns nothing in a My Drive; checked at first use), each file found again by its object key (Drive appProperties, through
// connectors/google/drive.ts), so a retried archive finds the first upload instead of adding a copy;
// every upload is checked against the size and MD5 Drive reports for what it stored.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { actsForPerson, googleAuthClient } from '../google/credentials';
import { DRIVE_SCOPES, DriveFiles, type DriveFile } from '../google/drive';
import {
  InvalidObjectKeyError,
  ObjectSizeMismatchError,
  type ObjectStore,
  type StoredObject,
} from './object-store';
import type { GoogleDriveArchiveConfig } from './google-drive-config';

const FOLDER = 'application/vnd.google-apps.folder';

/** Drive stored other bytes than were sent (its MD5 or size differs from the body's). */
export class DriveChecksumMismatchError extends Error {
  override readonly name = 'DriveChecksumMismatchError';
  constructor(
    readonly key: string,
    readonly sent: string,
    readonly stored: string,
  ) {
    super(`Object ${key}: Drive reports ${stored}, the body sent had ${sent}`);
  }
}

/** Where an object key goes: its account folder, month folder (YYYY-MM) and file name. */
export interface DrivePlacement {
  account: string;
  month: string;
  name: string;
}

/**
 * Places `<stream>/<account>/[YYYY/MM/DD/]<id>.mp3` in the account's folder and the month it was
 * recorded (the upload's month when the key carries no date); the file is named `<stream>-<id>.mp3`.
 */
export function drivePlacement(key: string, now = new Date()): DrivePlacement {
  const parts = key.split('/');
  if (parts.length < 3 || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw new InvalidObjectKeyError(`not an archive key: ${key}`);
  }
  const [stream, account] = parts as [string, string];
  const file = parts[parts.length - 1]!;
  const dated = parts.length >= 6 && /^\d{4}$/.test(parts[2]!) && /^\d{2}$/.test(parts[3]!);
  const month = dated ? `${parts[2]}-${parts[3]}` : now.toISOString().slice(0, 7);
  return { account: decodeURIComponent(account), month, name: `${stream}-${file}` };
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

export class GoogleDriveObjectStore implements ObjectStore {
  private readonly folders = new Map<string, Promise<string | null>>();

  constructor(
    private readonly drive: DriveFiles,
    private readonly rootFolderId: string,
  ) {}

  /** Uploads the body once per key into its account and month folder, verified by Drive's size and MD5. */
  async put(key: string, body: Readable, expectedBytes?: number): Promise<StoredObject & { md5: string }> {
    const place = drivePlacement(key);
    await this.drive.requireWritableFolder(this.rootFolderId, 'archive.googleDrive.folderId');
    const folderId = await this.folder(place, true);
    const existing = await this.drive.findByKey(folderId!, key);
    if (existing) {
      body.destroy();
      return this.checked(key, existing, expectedBytes, existing.md5Checksum);
    }
    // The body is read whole before anything goes to Drive (recordings are a few MB): a truncated
    // download is refused before an upload exists, and the MD5 to compare is known.
    const audio = await readAll(body);
    if (expectedBytes !== undefined && audio.length !== expectedBytes) {
      throw new ObjectSizeMismatchError(key, expectedBytes, audio.length);
    }
    const file = await this.drive.upload({
      folderId: folderId!,
      key,
      name: place.name,
      mimeType: 'audio/mpeg',
      source: { stream: Readable.from([audio]), size: audio.length },
    });
    return this.checked(key, file, audio.length, createHash('md5').update(audio).digest('hex'));
  }

  async exists(key: string): Promise<{ bytes: number } | null> {
    const folderId = await this.folder(drivePlacement(key), false);
    if (!folderId) return null;
    const file = await this.drive.findByKey(folderId, key);
    return file ? { bytes: file.size ?? 0 } : null;
  }

  async delete(key: string): Promise<boolean> {
    const folderId = await this.folder(drivePlacement(key), false);
    if (!folderId) return false;
    const file = await this.drive.findByKey(folderId, key);
    if (!file) return false;
    await this.drive.delete(file.id);
    return true;
  }

  /** Compares what Drive reports with what was sent (size, MD5). */
  private checked(
    key: string,
    file: DriveFile,
    bytes: number | undefined,
    md5: string | null,
  ): StoredObject & { md5: string } {
    if (bytes !== undefined && file.size !== bytes) {
      throw new DriveChecksumMismatchError(key, `${bytes} bytes`, `${file.size ?? 'no'} bytes`);
    }
    if (!file.md5Checksum || (md5 !== null && file.md5Checksum !== md5)) {
      throw new DriveChecksumMismatchError(key, `md5 ${md5 ?? '?'}`, `md5 ${file.md5Checksum ?? 'none'}`);
    }
    return { uri: `gdrive://${file.id}/${file.name}`, bytes: file.size ?? 0, md5: file.md5Checksum };
  }

  /** The month folder's id (found by its key, created once); null when absent and `create` is false. */
  private async folder(place: DrivePlacement, create: boolean): Promise<string | null> {
    const account = await this.child(this.rootFolderId, `folder:${place.account}`, place.account, create);
    if (!account) return null;
    return this.child(account, `folder:${place.account}/${place.month}`, place.month, create);
  }

  private async child(parent: string, key: string, name: string, create: boolean): Promise<string | null> {
    const cached = this.folders.get(key);
    if (cached) return cached;
    // The lookup and any creation are one promise per key, so concurrent puts in this process share it;
    // Drive itself has no unique names.
    const pending = this.drive.findByKey(parent, key).then(async (found) => {
      if (found) return found.id;
      if (!create) return null;
      return (await this.drive.createEmpty({ folderId: parent, key, name, mimeType: FOLDER })).id;
    });
    const settled = pending.then((id) => {
      if (id === null) this.folders.delete(key);
      return id;
    });
    this.folders.set(key, settled);
    settled.catch(() => this.folders.delete(key));
    return settled;
  }
}

/** The Drive archive from config. */
export async function createGoogleDriveObjectStore(
  config: GoogleDriveArchiveConfig,
): Promise<GoogleDriveObjectStore> {
  const auth = await googleAuthClient(config.credentials, DRIVE_SCOPES);
  const drive = new DriveFiles(auth, {
    rootUrl: config.rootUrl,
    resumableAbove: config.resumableAbove,
    chunkBytes: config.chunkBytes,
    actsForPerson: actsForPerson(config.credentials, auth),
  });
  return new GoogleDriveObjectStore(drive, config.folderId);
}
