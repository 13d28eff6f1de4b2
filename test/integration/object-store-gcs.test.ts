// The Cloud Storage audio archive through @google-cloud/storage against the real fake-gcs-server:
// objects named by account, day and id, the checksums GCS reports checked against the bytes sent,
// a truncated body stores nothing, and a repeated put replaces the object (one object, same bytes).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Storage } from '@google-cloud/storage';
import {
  audioObjectKey,
  createGcsObjectStore,
  gcsArchiveConfigSchema,
  GcsObjectStore,
  InvalidObjectKeyError,
  ObjectChecksumMismatchError,
  ObjectSizeMismatchError,
} from '../../connectors/object-store';
import { testServiceAccountJson } from '../support/crucible';
import { startFakeGcs, type RunningFakeGcs } from '../support/fake-gcs';

jest.setTimeout(60_000);

describe('Cloud Storage object store on fake-gcs-server', () => {
  let gcs: RunningFakeGcs;
  let store: GcsObjectStore;
  let storage: Storage;

  beforeAll(async () => {
    gcs = await startFakeGcs();
    const config = gcsArchiveConfigSchema.parse({
      bucket: 'callsync-audio',
      prefix: 'archive/',
      projectId: 'callsync-test',
      apiEndpoint: gcs.endpoint,
      credentials: { serviceAccountJson: testServiceAccountJson(), selfSignedJwt: true },
    });
    store = await createGcsObjectStore(config);
    storage = new Storage({ apiEndpoint: gcs.endpoint, projectId: 'callsync-test' });
    await storage.createBucket('callsync-audio');
  });

  afterAll(async () => {
    await gcs?.stop();
  });

  const audio = (n: number, fill = 7) => Buffer.alloc(n, fill);
  const listed = async () => (await storage.bucket('callsync-audio').getFiles())[0].map((f) => f.name).sort();

  it('stores an object under account, day and id, with the MD5 that GCS reports', async () => {
    const key = audioObjectKey('recordings', 'acme', 88001, new Date('2026-10-30T09:15:02Z'));
    expect(key).toBe('recordings/acme/2026/10/30/88001.mp3');
    expect(await store.exists(key)).toBeNull();
    const body = Buffer.concat([audio(1000), audio(24, 9)]);
    const stored = await store.put(key, Readable.from([body.subarray(0, 1000), body.subarray(1000)]), 1024);
    expect(stored).toEqual({
      uri: 'gs://callsync-audio/archive/recordings/acme/2026/10/30/88001.mp3',
      bytes: 1024,
      md5: createHash('md5').update(body).digest('hex'),
    });
    expect(await store.exists(key)).toEqual({
      bytes: 1024,
      uri: 'gs://callsync-audio/archive/recordings/acme/2026/10/30/88001.mp3',
      md5: stored.md5,
    });
    const [downloaded] = await storage.bucket('callsync-audio').file(`archive/${key}`).download();
    expect(downloaded.equals(body)).toBe(true);
    // Erasure deletes it; a second delete finds nothing.
    expect(await store.delete(key)).toBe(true);
    expect(await store.exists(key)).toBeNull();
    expect(await store.delete(key)).toBe(false);
  });

  it('a repeated put replaces the object: still one object, with the new bytes', async () => {
    const key = audioObjectKey('voicemessages', 'acme', 5, new Date('2026-11-01T00:00:00Z'));
    await store.put(key, Readable.from([audio(10, 1)]), 10);
    const again = await store.put(key, Readable.from([audio(10, 2)]), 10);
    expect(again.md5).toBe(createHash('md5').update(audio(10, 2)).digest('hex'));
    expect((await listed()).filter((n) => n.includes('voicemessages/acme/'))).toEqual([
      'archive/voicemessages/acme/2026/11/01/5.mp3',
    ]);
  });

  it('a truncated body fails with a typed error and stores nothing', async () => {
    const key = audioObjectKey('recordings', 'acme', 99, new Date('2026-10-31T00:00:00Z'));
    const attempt = store.put(key, Readable.from([audio(6)]), 10);
    await expect(attempt).rejects.toBeInstanceOf(ObjectSizeMismatchError);
    await expect(attempt).rejects.toMatchObject({ expectedBytes: 10, actualBytes: 6 });
    expect(await store.exists(key)).toBeNull();
  });

  it('deletes the object and fails when the checksum GCS reports differs from the bytes sent', async () => {
    // A store whose objects are silently rewritten on the way (another writer wins the race): the
    // check compares what GCS holds with what was sent, whatever the cause.
    const bucket = storage.bucket('callsync-audio');
    const racing = new GcsObjectStore(storage, 'callsync-audio', 'race/');
    const original = racing.fileOf.bind(racing);
    racing.fileOf = (key) => {
      const file = original(key);
      const getMetadata = file.getMetadata.bind(file);
      file.getMetadata = (async () => {
        await bucket.file(file.name).save(audio(16, 3), { resumable: false });
        return getMetadata();
      }) as typeof file.getMetadata;
      return file;
    };
    const attempt = racing.put('recordings/acme/1.mp3', Readable.from([audio(16, 4)]), 16);
    await expect(attempt).rejects.toBeInstanceOf(ObjectChecksumMismatchError);
    await expect(attempt).rejects.toMatchObject({ checksum: 'md5' });
    expect((await bucket.file('race/recordings/acme/1.mp3').exists())[0]).toBe(false);
  });

  it.each(['', '../outside', 'a//b', '/abs'])('refuses the key %j', async (key) => {
    await expect(store.put(key, Readable.from([audio(1)]))).rejects.toBeInstanceOf(InvalidObjectKeyError);
  });
});
