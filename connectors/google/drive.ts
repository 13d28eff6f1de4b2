// Google Drive files through the official client (@googleapis/drive, drive v3): files are found by a
// key in their appProperties before anything is uploaded, so a retried upload finds the first one;
// small files go up in one multipart request, large ones with Drive's resumable protocol in chunks.
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { drive_v3 } from '@googleapis/drive';
import type { AuthClient } from 'google-auth-library';
import { lazyPackage } from '../../lib/lazy-package';
import { googleAuthLibrary } from './credentials';
import { DriveFolderNotInSharedDriveError } from './errors';

const driveApi = lazyPackage<typeof import('@googleapis/drive')>('@googleapis/drive');

/** The appProperties key that carries callsync's idempotency key on every file it creates. */
export const CALLSYNC_KEY = 'callsyncKey';

export const DRIVE_SCOPES = ['https://www.googleapis.com/auth/drive'] as const;

const FILE_FIELDS = 'id,name,mimeType,size,md5Checksum,webViewLink,appProperties,parents';
const DEFAULT_ROOT = 'https://www.googleapis.com/';

/** A Drive file, as callsync uses it. */
export interface DriveFile {
  id: string;
  name: string;
  mimeType: string | null;
  size: number | null;
  md5Checksum: string | null;
  webViewLink: string | null;
}

/** Where an upload's bytes come from: a local file, or a stream of known length. */
export type UploadSource = { path: string; size: number } | { stream: Readable; size: number };

export interface DriveUpload {
  folderId: string;
  /** Idempotency key, stored in the file's appProperties. */
  key: string;
  name: string;
  mimeType: string;
  source: UploadSource;
  /** More appProperties to set (strings; Drive allows 124 bytes per key and value). */
  appProperties?: Record<string, string>;
}

export interface DriveFilesOptions {
  /** API root (tests point it at a local server). */
  rootUrl?: string | undefined;
  /** Sizes above this go up resumably. */
  resumableAbove: number;
  /** Bytes per resumable chunk (a multiple of 256 KiB). */
  chunkBytes: number;
  /**
   * The credentials act for a person (domain-wide delegation's `subject`, or a user's own
   * credentials), who may own files in a My Drive; a service account alone may not.
   */
  actsForPerson?: boolean;
}

/** Quotes a value for a Drive search query (`q`): backslashes and single quotes escaped. */
export function driveQueryString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The `q` that finds callsync's file with `key` in `folderId`. */
export function keyQuery(folderId: string, key: string): string {
  return [
    `appProperties has { key=${driveQueryString(CALLSYNC_KEY)} and value=${driveQueryString(key)} }`,
    `${driveQueryString(folderId)} in parents`,
    'trashed = false',
  ].join(' and ');
}

/** The next offset a resumable upload continues from, from a 308's `Range: bytes=0-N` (none: 0). */
export function nextOffsetFromRange(range: string | null | undefined): number {
  const match = range ? /bytes=0-(\d+)/.exec(range) : null;
  return match ? Number(match[1]) + 1 : 0;
}

function toDriveFile(f: drive_v3.Schema$File): DriveFile {
  if (!f.id) throw new Error('Drive answered a file without an id');
  return {
    id: f.id,
    name: f.name ?? '',
    mimeType: f.mimeType ?? null,
    size: f.size !== undefined && f.size !== null ? Number(f.size) : null,
    md5Checksum: f.md5Checksum ?? null,
    webViewLink: f.webViewLink ?? null,
  };
}

/** Buffers of exactly `size` bytes (the last one shorter) from a stream of any chunking. */
async function* fixedChunks(stream: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of stream as AsyncIterable<Buffer | string>) {
    const buf = typeof piece === 'string' ? Buffer.from(piece) : piece;
    pending.push(buf);
    pendingBytes += buf.length;
    while (pendingBytes >= size) {
      const all = Buffer.concat(pending);
      yield all.subarray(0, size);
      const rest = all.subarray(size);
      pending = rest.length ? [rest] : [];
      pendingBytes = rest.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}

/** Drive file operations callsync needs, on one authenticated client. */
export class DriveFiles {
  private readonly api: drive_v3.Drive;
  private readonly checkedFolders = new Map<string, Promise<void>>();

  constructor(
    private readonly auth: AuthClient,
    private readonly options: DriveFilesOptions,
  ) {
    // The generated clients take a GoogleAuth; it wraps any auth client (a JWT, ADC's client).
    this.api = driveApi().drive({
      version: 'v3',
      auth: new (googleAuthLibrary().GoogleAuth)({ authClient: auth }),
      ...(options.rootUrl ? { rootUrl: options.rootUrl } : {}),
    });
  }

  /** The file callsync created with `key` in `folderId`, if there is one (not trashed). */
  async findByKey(folderId: string, key: string): Promise<DriveFile | undefined> {
    const res = await this.api.files.list({
      q: keyQuery(folderId, key),
      fields: `files(${FILE_FIELDS})`,
      pageSize: 10,
      spaces: 'drive',
      supportsAllDrives: true,
      includeItemsFromAllDrives: true,
    });
    const first = res.data.files?.[0];
    return first ? toDriveFile(first) : undefined;
  }

  /** Deletes a file for good (not to the trash): erasure. */
  async delete(fileId: string): Promise<void> {
    await this.api.files.delete({ fileId, supportsAllDrives: true });
  }

  /**
   * Checks once per folder that callsync can create files in it: a folder of a shared drive (Drive
   * answers its `driveId`), or any folder when the credentials act for a person. A service account
   * owns nothing in a My Drive (Google refuses with 403 storageQuotaExceeded), so such a folder is
   * refused up front with an error naming `setting`, the config field that holds its id.
   */
  requireWritableFolder(folderId: string, setting: string): Promise<void> {
    if (this.options.actsForPerson) return Promise.resolve();
    let check = this.checkedFolders.get(folderId);
    if (!check) {
      check = this.api.files
        .get({ fileId: folderId, fields: 'id,driveId', supportsAllDrives: true })
        .then((res) => {
          if (!res.data.driveId) throw new DriveFolderNotInSharedDriveError(setting, folderId);
        });
      // A failed lookup (Google unavailable) is asked again next time; a refusal stands.
      check.catch((err: unknown) => {
        if (!(err instanceof DriveFolderNotInSharedDriveError)) this.checkedFolders.delete(folderId);
      });
      this.checkedFolders.set(folderId, check);
    }
    return check;
  }

  /** A file by id. */
  async get(fileId: string): Promise<DriveFile> {
    const res = await this.api.files.get({ fileId, fields: FILE_FIELDS, supportsAllDrives: true });
    return toDriveFile(res.data);
  }

  /** Creates an empty Google file (a spreadsheet, a folder) with `key` in its appProperties. */
  async createEmpty(input: Omit<DriveUpload, 'source'>): Promise<DriveFile> {
    const res = await this.api.files.create({
      requestBody: this.metadata(input),
      fields: FILE_FIELDS,
      supportsAllDrives: true,
    });
    return toDriveFile(res.data);
  }

  /** Uploads a file (multipart when small, resumable when large) with `key` in its appProperties. */
  async upload(input: DriveUpload): Promise<DriveFile> {
    if (input.source.size > this.options.resumableAbove) return this.uploadResumable(input);
    const body = 'path' in input.source ? createReadStream(input.source.path) : input.source.stream;
    // The media URL is built from the per-request rootUrl only (the client-wide one rewrites `url`,
    // not `mediaUrl`), so it is passed here as well.
    const res = await this.api.files.create(
      {
        requestBody: this.metadata(input),
        media: { mimeType: input.mimeType, body },
        fields: FILE_FIELDS,
        supportsAllDrives: true,
      },
      this.options.rootUrl ? { rootUrl: this.options.rootUrl } : {},
    );
    return toDriveFile(res.data);
  }

  /** Finds the file with `key`, or uploads it: a retry after an upload whose answer was lost finds it. */
  async ensureUploaded(input: DriveUpload): Promise<{ file: DriveFile; uploaded: boolean }> {
    const existing = await this.findByKey(input.folderId, input.key);
    if (existing) return { file: existing, uploaded: false };
    return { file: await this.upload(input), uploaded: true };
  }

  private metadata(input: Omit<DriveUpload, 'source'>): drive_v3.Schema$File {
    return {
      name: input.name,
      mimeType: input.mimeType,
      parents: [input.folderId],
      appProperties: { ...input.appProperties, [CALLSYNC_KEY]: input.key },
    };
  }

  /**
   * Drive's resumable protocol (the generated client only does multipart and simple uploads): POST
   * the metadata to open a session (its URI comes back in Location), then PUT the bytes in chunks
   * with Content-Range; 308 answers how much Drive holds, and the last chunk answers the file.
   */
  private async uploadResumable(input: DriveUpload): Promise<DriveFile> {
    const { size } = input.source;
    const start = new URL('upload/drive/v3/files', this.options.rootUrl ?? DEFAULT_ROOT);
    start.search = new URLSearchParams({
      uploadType: 'resumable',
      supportsAllDrives: 'true',
      fields: FILE_FIELDS,
    }).toString();
    const opened = await this.auth.request({
      url: start.toString(),
      method: 'POST',
      headers: {
        'Content-Type': 'application/json; charset=UTF-8',
        'X-Upload-Content-Type': input.mimeType,
        'X-Upload-Content-Length': String(size),
      },
      data: this.metadata(input),
    });
    const session = opened.headers.get('location');
    if (!session) throw new Error('Drive opened a resumable upload without a Location');
    const stream = 'path' in input.source ? createReadStream(input.source.path) : input.source.stream;
    let offset = 0;
    for await (const chunk of fixedChunks(stream, this.options.chunkBytes)) {
      // Drive may keep less than a whole chunk; send the rest of it again from where it stopped.
      let sent = 0;
      while (sent < chunk.length) {
        const part = chunk.subarray(sent);
        const res = await this.auth.request<drive_v3.Schema$File>({
          url: session,
          method: 'PUT',
          headers: {
            'Content-Length': String(part.length),
            'Content-Range': `bytes ${offset}-${offset + part.length - 1}/${size}`,
          },
          data: part,
          responseType: 'json',
          validateStatus: (s) => s === 308 || (s >= 200 && s < 300),
        });
        if (res.status !== 308) return toDriveFile(res.data);
        const next = nextOffsetFromRange(res.headers.get('range'));
        if (next <= offset) throw new Error(`Drive kept no bytes of the chunk at ${offset} (Range ${next})`);
        sent += next - offset;
        offset = next;
      }
    }
    throw new Error(`Drive did not finish the resumable upload at ${offset} of ${size} bytes`);
  }
}
