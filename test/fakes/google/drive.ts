// Drive v3 for the local Google server: files.list (the `q` subset callsync uses), files.create
// (metadata only, multipart, media, and the resumable protocol with 308 Resume Incomplete) and
// files.get (metadata, or the bytes with alt=media), validated as Drive does.
//
// Where files live, as Google documents it:
// - A service account has no Drive storage of its own: an item it would own in a My Drive (its own,
//   or a person's folder shared with it) is refused with 403 `storageQuotaExceeded` ("Service
//   Accounts do not have storage quota. Leverage shared drives …, or use OAuth delegation …");
//   items in a shared drive belong to the drive, not to the account, and work. A service account
//   acting for a user (domain-wide delegation, the token's `sub`) creates what that user owns.
//   https://developers.google.com/workspace/drive/api/guides/about-shareddrives ("shared drives …
//   files are owned by the organization rather than an individual"),
//   https://developers.google.com/workspace/drive/api/guides/handle-errors (403 storageQuotaExceeded),
//   https://support.google.com/a/answer/7281227 (service accounts and storage).
// - Shared drive items are seen only by callers that say they support them: `supportsAllDrives=true`
//   on get/create/delete (otherwise 404 File not found), and `includeItemsFromAllDrives=true` with
//   `supportsAllDrives=true` on list (otherwise they are left out); each such file answers its
//   `driveId`. https://developers.google.com/workspace/drive/api/guides/enable-shareddrives
import { createHash, randomBytes } from 'node:crypto';
import {
  badRequest,
  GoogleApiError,
  notFound,
  type FakeGoogleModule,
  type FakeRequest,
  type Router,
} from './router';

export interface FakeDriveFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  appProperties: Record<string, string>;
  content: Buffer;
  trashed: boolean;
  createdTime: string;
  /** The shared drive the file is in; absent for a file in a My Drive. */
  driveId?: string;
  /** Whose My Drive holds the file (absent in a shared drive). */
  owner?: string;
}

/** Where a folder made by a test lives: a shared drive, or a person's My Drive (shared with the caller). */
export type FakeDriveHome = { sharedDrive: string } | { myDriveOf: string };

/** The My Drive owner of folders a test adds without saying where (a person who shared them). */
export const DEFAULT_FOLDER_OWNER = 'owner@acme.example';

const SERVICE_ACCOUNT = /\.gserviceaccount\.com$/;

/** Who creates an item: the token's user (the delegated subject, or the service account itself). */
export interface FakeDriveCaller {
  user: string;
  /** `supportsAllDrives=true` was sent. */
  supportsAllDrives: boolean;
}

/** Google's 403 for an item a service account would own in a My Drive (handle-errors guide). */
export const storageQuotaExceeded = () =>
  new GoogleApiError(
    403,
    'PERMISSION_DENIED',
    'Service Accounts do not have storage quota. Leverage shared drives (https://developers.google.com/workspace/drive/api/guides/about-shareddrives), or use OAuth delegation (http://support.google.com/a/answer/7281227) instead.',
    'storageQuotaExceeded',
    {},
    'usageLimits',
  );

interface UploadSession {
  caller: FakeDriveCaller;
  metadata: Partial<FakeDriveFile>;
  mimeType: string;
  total: number;
  received: Buffer[];
  bytes: number;
}

/** Drive's state, shared with other modules (Sheets registers the spreadsheets Drive creates). */
export class FakeDriveState {
  readonly files = new Map<string, FakeDriveFile>();
  readonly folders = new Set<string>();
  /** Folders a test added (addFolder): reachable by id, but not among the files the API created. */
  readonly roots = new Map<string, FakeDriveFile>();
  readonly sessions = new Map<string, UploadSession>();
  /** Called when a file of a Google type is created (Sheets creates the spreadsheet behind it). */
  readonly onCreate: ((file: FakeDriveFile) => void)[] = [];

  /**
   * A folder the caller can reach: by default a person's My Drive folder shared with the service
   * account (where a service account can create nothing), or a folder of a shared drive.
   */
  addFolder(id: string, home: FakeDriveHome = { myDriveOf: DEFAULT_FOLDER_OWNER }): FakeDriveFile {
    const folder: FakeDriveFile = {
      id,
      name: id,
      mimeType: 'application/vnd.google-apps.folder',
      parents: [],
      appProperties: {},
      content: Buffer.alloc(0),
      trashed: false,
      createdTime: new Date().toISOString(),
      ...('sharedDrive' in home ? { driveId: home.sharedDrive } : { owner: home.myDriveOf }),
    };
    this.roots.set(id, folder);
    this.folders.add(id);
    return folder;
  }

  /** A file as the caller may see it: shared drive items only with supportsAllDrives (else 404). */
  visible(id: string, supportsAllDrives: boolean): FakeDriveFile {
    const file = this.files.get(id) ?? this.roots.get(id);
    if (!file || (file.driveId !== undefined && !supportsAllDrives)) throw notFound(`File not found: ${id}.`);
    return file;
  }

  /** Where a new item under `parents` goes, refused as Drive refuses it (see the top of this file). */
  placement(parents: string[], caller: FakeDriveCaller): { driveId?: string; owner?: string } {
    for (const parent of parents) {
      if (!this.folders.has(parent)) throw notFound(`File not found: ${parent}.`);
      this.visible(parent, caller.supportsAllDrives);
    }
    const parent = parents[0] === undefined ? undefined : this.visible(parents[0], caller.supportsAllDrives);
    if (parent?.driveId !== undefined) return { driveId: parent.driveId };
    // In a My Drive (the caller's own root when no parent): the caller would own the item.
    if (SERVICE_ACCOUNT.test(caller.user)) throw storageQuotaExceeded();
    return { owner: caller.user };
  }

  create(
    meta: Partial<FakeDriveFile>,
    content: Buffer,
    mimeType: string,
    caller: FakeDriveCaller,
  ): FakeDriveFile {
    if (!meta.name) throw badRequest('Required parameter: name', 'required');
    const where = this.placement(meta.parents ?? [], caller);
    for (const [k, v] of Object.entries(meta.appProperties ?? {})) {
      if (Buffer.byteLength(k) + Buffer.byteLength(v) > 124) {
        throw badRequest(`The property ${k} exceeds the maximum size of 124 bytes.`, 'invalid');
      }
    }
    const file: FakeDriveFile = {
      id: randomBytes(12).toString('base64url'),
      name: meta.name,
      mimeType,
      parents: meta.parents ?? [],
      appProperties: { ...meta.appProperties },
      content,
      trashed: false,
      createdTime: new Date().toISOString(),
      ...where,
    };
    this.files.set(file.id, file);
    // A folder created through the API can hold files, as in Drive.
    if (mimeType === 'application/vnd.google-apps.folder') this.folders.add(file.id);
    for (const hook of this.onCreate) hook(file);
    return file;
  }
}

/** The caller of a request, as Drive's placement rules need it. */
export function callerOf(req: FakeRequest): FakeDriveCaller {
  return { user: req.identity.user, supportsAllDrives: req.query.get('supportsAllDrives') === 'true' };
}

/** A file resource as Drive answers it. */
export function fileResource(f: FakeDriveFile): Record<string, unknown> {
  const google = f.mimeType.startsWith('application/vnd.google-apps.');
  return {
    kind: 'drive#file',
    id: f.id,
    name: f.name,
    mimeType: f.mimeType,
    parents: f.parents,
    appProperties: f.appProperties,
    trashed: f.trashed,
    createdTime: f.createdTime,
    ...(f.driveId !== undefined ? { driveId: f.driveId } : {}),
    webViewLink: google
      ? `https://docs.google.com/spreadsheets/d/${f.id}/edit?usp=drivesdk`
      : `https://drive.google.com/file/d/${f.id}/view?usp=drivesdk`,
    ...(google
      ? {}
      : { size: String(f.content.length), md5Checksum: createHash('md5').update(f.content).digest('hex') }),
  };
}

type Clause = (f: FakeDriveFile) => boolean;

const STRING = String.raw`'((?:[^'\\]|\\.)*)'`;
const unquote = (s: string) => s.replace(/\\(.)/g, '$1');
const CLAUSES: [RegExp, (m: RegExpExecArray) => Clause][] = [
  [
    new RegExp(String.raw`^appProperties has \{ *key *= *${STRING} +and +value *= *${STRING} *\}`),
    (m) => (f) => f.appProperties[unquote(m[1] ?? '')] === unquote(m[2] ?? ''),
  ],
  [new RegExp(String.raw`^${STRING} +in +parents`), (m) => (f) => f.parents.includes(unquote(m[1] ?? ''))],
  [/^trashed *= *(true|false)/, (m) => (f) => f.trashed === (m[1] === 'true')],
  [new RegExp(String.raw`^name *= *${STRING}`), (m) => (f) => f.name === unquote(m[1] ?? '')],
  [new RegExp(String.raw`^mimeType *= *${STRING}`), (m) => (f) => f.mimeType === unquote(m[1] ?? '')],
];

/** Parses the supported subset of Drive's query language (clauses joined by `and`). */
export function parseDriveQuery(q: string): Clause[] {
  const clauses: Clause[] = [];
  let rest = q.trim();
  while (rest) {
    const hit = CLAUSES.map(([re, make]) => {
      const m = re.exec(rest);
      return m ? { m, make } : undefined;
    }).find((x) => x !== undefined);
    if (!hit) throw new GoogleApiError(400, 'INVALID_ARGUMENT', 'Invalid Value', 'invalid');
    clauses.push(hit.make(hit.m));
    rest = rest.slice(hit.m[0].length).trim();
    if (rest) {
      const and = /^and\s+/.exec(rest);
      if (!and) throw new GoogleApiError(400, 'INVALID_ARGUMENT', 'Invalid Value', 'invalid');
      rest = rest.slice(and[0].length);
    }
  }
  return clauses;
}

/** The two parts of a multipart/related body: JSON metadata, then the media with its type. */
export function parseMultipartRelated(
  contentType: string | undefined,
  body: Buffer,
): { metadata: Record<string, unknown>; mimeType: string; media: Buffer } {
  const boundary = contentType ? /boundary="?([^";]+)"?/.exec(contentType)?.[1] : undefined;
  if (!contentType?.startsWith('multipart/related') || !boundary) {
    throw badRequest('Multipart upload needs Content-Type multipart/related with a boundary.');
  }
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Buffer[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    parts.push(body.subarray(start, next));
    at = next;
  }
  const split = (part: Buffer) => {
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd === -1) throw badRequest('Malformed multipart body.');
    const head = part.subarray(0, headEnd).toString('utf8');
    let content = part.subarray(headEnd + 4);
    if (content.subarray(-2).toString() === '\r\n') content = content.subarray(0, -2);
    const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim() ?? 'application/octet-stream';
    return { type, content };
  };
  if (parts.length !== 2) throw badRequest(`Multipart upload needs 2 parts, got ${parts.length}.`);
  const [meta, media] = parts.map(split) as [ReturnType<typeof split>, ReturnType<typeof split>];
  let metadata: Record<string, unknown>;
  try {
    metadata = JSON.parse(meta.content.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw badRequest('The metadata part is not JSON.', 'parseError');
  }
  return { metadata, mimeType: media.type, media: media.content };
}

function metaOf(json: Record<string, unknown>): Partial<FakeDriveFile> {
  return {
    ...(typeof json.name === 'string' ? { name: json.name } : {}),
    ...(Array.isArray(json.parents) ? { parents: json.parents.map(String) } : {}),
    ...(json.appProperties && typeof json.appProperties === 'object'
      ? { appProperties: json.appProperties as Record<string, string> }
      : {}),
  };
}

const FILES = /^\/drive\/v3\/files$/;
const FILE = /^\/drive\/v3\/files\/(?<id>[^/]+)$/;
const UPLOAD = /^\/upload\/drive\/v3\/files$/;

/** Registers Drive's routes. */
export const driveModule: FakeGoogleModule<{ drive: FakeDriveState; url: () => string }> = (
  router: Router,
  ctx,
) => {
  const { drive } = ctx;
  router.add('GET', FILES, (req) => {
    const clauses = parseDriveQuery(req.query.get('q') ?? '');
    const allDrives =
      req.query.get('includeItemsFromAllDrives') === 'true' && req.query.get('supportsAllDrives') === 'true';
    const files = [...drive.files.values()].filter(
      (f) => (allDrives || f.driveId === undefined) && clauses.every((c) => c(f)),
    );
    const pageSize = Number(req.query.get('pageSize') ?? 100);
    return {
      status: 200,
      body: { kind: 'drive#fileList', files: files.slice(0, pageSize).map(fileResource) },
    };
  });
  router.add('POST', FILES, (req) => {
    const json = req.json<Record<string, unknown>>();
    const mimeType = typeof json.mimeType === 'string' ? json.mimeType : 'application/octet-stream';
    return {
      status: 200,
      body: fileResource(drive.create(metaOf(json), Buffer.alloc(0), mimeType, callerOf(req))),
    };
  });
  router.add('GET', FILE, (req) => {
    const file = drive.visible(req.params.id ?? '', callerOf(req).supportsAllDrives);
    if (req.query.get('alt') === 'media') {
      return { status: 200, headers: { 'Content-Type': file.mimeType }, body: file.content };
    }
    return { status: 200, body: fileResource(file) };
  });
  router.add('DELETE', FILE, (req) => {
    drive.visible(req.params.id ?? '', callerOf(req).supportsAllDrives);
    drive.files.delete(req.params.id ?? '');
    return { status: 204 };
  });
  router.add('POST', UPLOAD, (req) => {
    const uploadType = req.query.get('uploadType');
    if (uploadType === 'multipart') {
      const { metadata, mimeType, media } = parseMultipartRelated(req.headers['content-type'], req.body);
      const type = typeof metadata.mimeType === 'string' ? metadata.mimeType : mimeType;
      return { status: 200, body: fileResource(drive.create(metaOf(metadata), media, type, callerOf(req))) };
    }
    if (uploadType === 'media') {
      const type = req.headers['content-type'] ?? 'application/octet-stream';
      const file = drive.create({ name: 'Untitled' }, req.body, type, callerOf(req));
      return { status: 200, body: fileResource(file) };
    }
    if (uploadType === 'resumable') return openSession(drive, ctx.url(), req);
    throw badRequest(`Invalid value for uploadType: ${uploadType}`, 'invalidParameter');
  });
  router.add('PUT', UPLOAD, (req) => putChunk(drive, req));
};

function openSession(drive: FakeDriveState, url: string, req: FakeRequest) {
  const json = req.body.length ? req.json<Record<string, unknown>>() : {};
  const total = Number(req.headers['x-upload-content-length']);
  if (!Number.isInteger(total) || total < 0) throw badRequest('X-Upload-Content-Length is required.');
  const meta = metaOf(json);
  // Drive refuses the session where it would refuse the file (quota, shared drive support).
  const caller = callerOf(req);
  drive.placement(meta.parents ?? [], caller);
  const id = randomBytes(16).toString('hex');
  const typeHeader = req.headers['x-upload-content-type'];
  drive.sessions.set(id, {
    caller,
    metadata: meta,
    mimeType:
      typeof json.mimeType === 'string'
        ? json.mimeType
        : typeof typeHeader === 'string'
          ? typeHeader
          : 'application/octet-stream',
    total,
    received: [],
    bytes: 0,
  });
  return {
    status: 200,
    headers: { Location: `${url}upload/drive/v3/files?uploadType=resumable&upload_id=${id}` },
  };
}

function putChunk(drive: FakeDriveState, req: FakeRequest) {
  const id = req.query.get('upload_id') ?? '';
  const session = drive.sessions.get(id);
  if (!session) throw notFound('Upload session not found or expired.');
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
  if (!range) throw badRequest('Content-Range must be bytes first-last/total.');
  const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
  if (total !== session.total || first !== session.bytes || last - first + 1 !== req.body.length) {
    throw badRequest(`Content-Range ${first}-${last}/${total} does not continue at byte ${session.bytes}.`);
  }
  const whole = last + 1 === total;
  // Drive keeps only whole 256 KiB granules of a chunk that is not the last.
  const kept = whole ? req.body.length : Math.floor(req.body.length / 262_144) * 262_144;
  session.received.push(req.body.subarray(0, kept));
  session.bytes += kept;
  if (session.bytes < session.total) {
    return { status: 308, headers: session.bytes > 0 ? { Range: `bytes=0-${session.bytes - 1}` } : {} };
  }
  drive.sessions.delete(id);
  const file = drive.create(
    session.metadata,
    Buffer.concat(session.received),
    session.mimeType,
    session.caller,
  );
  return { status: 200, body: fileResource(file) };
}
