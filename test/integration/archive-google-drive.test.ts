// Recordings archived to Google Drive: the object store through the official @googleapis/drive client
// against the local Drive (test/fakes/google): a folder per account and month, one file per key even
// when retried, size and MD5 checked against what Drive reports, truncated bodies never stored, and
// large files uploaded resumably.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { ObjectSizeMismatchError } from '../../connectors/object-store';
import { DriveFolderNotInSharedDriveError } from '../../connectors/google/errors';
import { DriveChecksumMismatchError } from '../../connectors/object-store/google-drive';
import {
  createGoogleDriveObjectStore,
  drivePlacement,
  type GoogleDriveObjectStore,
} from '../../connectors/object-store/google-drive';
import { googleDriveArchiveConfigSchema } from '../../connectors/object-store/google-drive-config';
import { mp3Tone } from '../../emulator/media/mp3';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';

let google: FakeGoogle;
let store: GoogleDriveObjectStore;
const ROOT = 'archive-root';
const FOLDER = 'application/vnd.google-apps.folder';

beforeAll(async () => {
  google = await startFakeGoogle();
  google.drive.addFolder(ROOT, { sharedDrive: 'archive-drive' });
  store = await createGoogleDriveObjectStore(
    googleDriveArchiveConfigSchema.parse({
      credentials: { serviceAccountJson: google.serviceAccountJson, selfSignedJwt: true },
      folderId: ROOT,
      rootUrl: google.rootUrl,
      resumableAbove: 256 * 1024,
      chunkBytes: 256 * 1024,
    }),
  );
});
afterAll(() => google.close());

const files = () => [...google.drive.files.values()];
const folderNamed = (name: string, parent: string) =>
  files().filter((f) => f.mimeType === FOLDER && f.name === name && f.parents.includes(parent));
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

describe('Google Drive archive', () => {
  it('puts a recording in its account and month folder, once, verified by the MD5 Drive reports', async () => {
    const audio = mp3Tone({ seconds: 10, seed: 1 });
    const key = 'recordings/acme/2026/10/31/7000001.mp3';
    const stored = await store.put(key, Readable.from([audio]), audio.length);
    expect(stored).toMatchObject({ bytes: audio.length, md5: md5(audio) });
    expect(stored.uri).toMatch(/^gdrive:\/\/[\w-]+\/recordings-7000001\.mp3$/);

    const [account] = folderNamed('acme', ROOT);
    const [month] = folderNamed('2026-10', account!.id);
    const file = files().find((f) => f.appProperties.callsyncKey === key)!;
    expect(file.parents).toEqual([month!.id]);
    expect(file.content.equals(audio)).toBe(true);

    // A retry (the archive activity run again) finds the file: no second upload, the same answer.
    const body = Readable.from([audio]);
    expect(await store.put(key, body, audio.length)).toEqual(stored);
    expect(files().filter((f) => f.appProperties.callsyncKey === key)).toHaveLength(1);
    expect(await store.exists(key)).toEqual({ bytes: audio.length });
    // Erasure deletes it (for good, not to the trash); a second delete finds nothing.
    expect(await store.delete(key)).toBe(true);
    expect(files().filter((f) => f.appProperties.callsyncKey === key)).toHaveLength(0);
    expect(await store.exists(key)).toBeNull();
    expect(await store.delete(key)).toBe(false);
  });

  it('creates each folder once for concurrent puts, and a new month folder when the month changes', async () => {
    const audio = mp3Tone({ seconds: 2, seed: 2 });
    const keys = [1, 2, 3, 4].map((n) => `voicemessages/acme/2026/11/0${n}/${9000000 + n}.mp3`);
    await Promise.all(keys.map((k) => store.put(k, Readable.from([audio]), audio.length)));
    const [account] = folderNamed('acme', ROOT);
    expect(folderNamed('acme', ROOT)).toHaveLength(1);
    expect(folderNamed('2026-11', account!.id)).toHaveLength(1);
    expect(folderNamed('2026-10', account!.id)).toHaveLength(1);
    for (const k of keys) expect(await store.exists(k)).toEqual({ bytes: audio.length });
    // Another account: its own folder; unknown keys exist nowhere and create no folder.
    expect(await store.exists('recordings/other/2026/11/01/1.mp3')).toBeNull();
    expect(folderNamed('other', ROOT)).toHaveLength(0);
  });

  it('stores nothing from a truncated body, and uploads large files resumably', async () => {
    const audio = mp3Tone({ seconds: 10, seed: 3 });
    const key = 'recordings/acme/2026/11/02/7000002.mp3';
    await expect(store.put(key, Readable.from([audio.subarray(0, 1000)]), audio.length)).rejects.toThrow(
      ObjectSizeMismatchError,
    );
    expect(await store.exists(key)).toBeNull();

    const large = mp3Tone({ seconds: 200, seed: 4 }); // about 800 kB: over resumableAbove
    const big = await store.put(key, Readable.from([large]), large.length);
    expect(big).toMatchObject({ bytes: large.length, md5: md5(large) });
    expect(
      google.requests.some((r) => r.method === 'PUT' && r.path.startsWith('/upload/drive/v3/files')),
    ).toBe(true);
  });

  it('refuses a file Drive holds under the key when its size or MD5 is not what the archive expects', async () => {
    const audio = mp3Tone({ seconds: 4, seed: 5 });
    const key = 'recordings/acme/2026/11/03/7000003.mp3';
    await store.put('recordings/acme/2026/11/03/7000004.mp3', Readable.from([audio]), audio.length);
    const [account] = folderNamed('acme', ROOT);
    const [month] = folderNamed('2026-11', account!.id);
    // A damaged copy under the key (as a broken earlier upload would leave): found, checked, refused.
    google.drive.create(
      { name: 'recordings-7000003.mp3', parents: [month!.id], appProperties: { callsyncKey: key } },
      audio.subarray(0, 100),
      'audio/mpeg',
      { user: 'ann@acme.example', supportsAllDrives: true },
    );
    await expect(store.put(key, Readable.from([audio]), audio.length)).rejects.toThrow(
      DriveChecksumMismatchError,
    );
  });

  it('refuses a My Drive folder at first use, naming the setting; delegation to its owner writes there', async () => {
    google.drive.addFolder('ann-folder', { myDriveOf: 'ann@acme.example' });
    const config = (credentials: Record<string, unknown>) =>
      googleDriveArchiveConfigSchema.parse({
        credentials: { serviceAccountJson: google.serviceAccountJson, ...credentials },
        folderId: 'ann-folder',
        rootUrl: google.rootUrl,
      });
    const audio = mp3Tone({ seconds: 1, seed: 6 });
    const key = 'recordings/acme/2026/11/04/7000006.mp3';
    const posts = () => google.requests.filter((r) => r.method === 'POST' && r.path !== '/token').length;
    const before = posts();
    const alone = await createGoogleDriveObjectStore(config({ selfSignedJwt: true }));
    const err = await alone.put(key, Readable.from([audio]), audio.length).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriveFolderNotInSharedDriveError);
    expect((err as Error).message).toMatch(
      /^archive\.googleDrive\.folderId \(ann-folder\) is a folder in a My Drive/,
    );
    expect(posts()).toBe(before); // refused before any folder or file was attempted

    const delegated = await createGoogleDriveObjectStore(config({ subject: 'ann@acme.example' }));
    await delegated.put(key, Readable.from([audio]), audio.length);
    const file = files().find((f) => f.appProperties.callsyncKey === key);
    expect(file).toMatchObject({ owner: 'ann@acme.example' });
    expect(file?.driveId).toBeUndefined();
  });

  it('places keys by the month recorded, or the upload month when the key has no date', () => {
    expect(drivePlacement('recordings/acme%2Fx/2026/09/30/5.mp3')).toEqual({
      account: 'acme/x',
      month: '2026-09',
      name: 'recordings-5.mp3',
    });
    expect(drivePlacement('recordings/acme/5.mp3', new Date('2026-12-01T00:00:00Z')).month).toBe('2026-12');
    expect(() => drivePlacement('recordings/../5.mp3')).toThrow(/not an archive key/);
  });
});
