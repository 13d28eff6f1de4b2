import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  audioObjectKey,
  createLocalObjectStore,
  InvalidObjectKeyError,
  LocalDirectoryStore,
  ObjectSizeMismatchError,
} from '../../connectors/object-store';

describe('local directory object store', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'callsync-objects-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const audio = (n: number) => Buffer.alloc(n, 7);

  it('writes an object, returns its file URI and size, and finds it again', async () => {
    const store = createLocalObjectStore(root);
    const key = audioObjectKey('recordings', 'acme eu', 88001);
    expect(key).toBe('recordings/acme%20eu/88001.mp3');
    expect(await store.exists(key)).toBeNull();
    const stored = await store.put(key, Readable.from([audio(1000), audio(24)]), 1024);
    expect(stored.bytes).toBe(1024);
    expect(stored.md5).toBe(
      createHash('md5')
        .update(Buffer.concat([audio(1000), audio(24)]))
        .digest('hex'),
    );
    expect(stored.uri).toMatch(/^file:\/\//);
    expect((await readFile(fileURLToPath(stored.uri))).length).toBe(1024);
    expect(await store.exists(key)).toEqual({ bytes: 1024, uri: stored.uri, md5: stored.md5 });
    // Erasure deletes it; a second delete finds nothing.
    expect(await store.delete(key)).toBe(true);
    expect(await store.exists(key)).toBeNull();
    expect(await store.delete(key)).toBe(false);
  });

  it('accepts any size when none is expected', async () => {
    const store = createLocalObjectStore(root);
    expect((await store.put('a/b.bin', Readable.from([audio(3)]))).bytes).toBe(3);
  });

  it('rejects a truncated body with a typed error, keeping the previous copy and no temp file', async () => {
    const store = createLocalObjectStore(root);
    await store.put('voicemessages/acme/1.mp3', Readable.from([audio(10)]), 10);
    const attempt = store.put('voicemessages/acme/1.mp3', Readable.from([audio(6)]), 10);
    await expect(attempt).rejects.toBeInstanceOf(ObjectSizeMismatchError);
    await expect(attempt).rejects.toMatchObject({ expectedBytes: 10, actualBytes: 6 });
    expect(await store.exists('voicemessages/acme/1.mp3')).toMatchObject({ bytes: 10 });
    expect(await readdir(join(root, 'voicemessages', 'acme'))).toEqual(['1.mp3']);
  });

  it('cleans up when the source stream fails', async () => {
    const store = createLocalObjectStore(root);
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(store.put('x/y.mp3', failing, 5)).rejects.toThrow('connection reset');
    expect(await readdir(join(root, 'x'))).toEqual([]);
  });

  it.each(['', '/etc/passwd', '../outside', 'a/../../b', 'a//b', 'a\\b'])(
    'refuses the key %j',
    async (key) => {
      const store = new LocalDirectoryStore(root);
      expect(() => store.pathOf(key)).toThrow(InvalidObjectKeyError);
      await expect(store.put(key, Readable.from([audio(1)]))).rejects.toBeInstanceOf(InvalidObjectKeyError);
    },
  );
});
