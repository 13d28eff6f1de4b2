// The S3 object store against the real moto server (PyPI moto[server], started here): single PUT
// and multipart uploads with SHA-256 checksums checked, a truncated body storing nothing, and the
// recording archive through the real audio activity (emulator → platform client → S3 → warehouse),
// where a retry after the upload does not upload again.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createAudioActivities, type ArchiveAudioInput } from '../../activities/audio-activities';
import { parseTestConfig } from '../support/test-config';
import { audioObjectKey, ObjectSizeMismatchError } from '../../connectors/object-store';
import { S3ObjectStore } from '../../connectors/object-store/s3';
import { createPlatformClient } from '../../connectors/platform';
import { upsertPage, type PageRecord } from '../../connectors/postgres';
import { startEmulator, type RunningEmulator } from '../../emulator';
import { silentLogger } from '../../lib/logger';
import { createActivityDeps, type RuntimeDeps } from '../../runtime/activity-deps';
import { startMoto, type RunningMoto } from '../support/moto-server';
import { createTestDatabase, type TestDatabase } from './warehouse-db';

/** Names of the S3 commands a client sends, in order (counted by an SDK middleware). */
function recordCommands(store: S3ObjectStore): string[] {
  const sent: string[] = [];
  store.client.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(context.commandName ?? '?');
      return next(args);
    },
    { step: 'initialize', name: 'recordCommands' },
  );
  return sent;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('S3 object store on moto', () => {
  let moto: RunningMoto;

  beforeAll(async () => {
    moto = await startMoto();
    await moto.createBucket('callsync-store');
  }, 600_000);
  afterAll(async () => {
    await moto?.stop();
  });

  const read = async (store: S3ObjectStore, key: string): Promise<Buffer> => {
    const got = await store.client.send(new GetObjectCommand({ Bucket: 'callsync-store', Key: key }));
    return Buffer.from(await got.Body!.transformToByteArray());
  };

  it('stores a small body in one PUT with its SHA-256 checked, under the prefix', async () => {
    const store = new S3ObjectStore(moto.s3Config('callsync-store', { prefix: 'audio/' }));
    const sent = recordCommands(store);
    const body = randomBytes(70_000);
    const stored = await store.put('recordings/acme/1.mp3', Readable.from([body]), body.length);
    expect(stored).toEqual({ uri: 's3://callsync-store/audio/recordings/acme/1.mp3', bytes: body.length });
    expect(sent).toEqual(['PutObjectCommand']);
    expect(sha256(await read(store, 'audio/recordings/acme/1.mp3'))).toBe(sha256(body));
    expect(await store.exists('recordings/acme/1.mp3')).toEqual({ bytes: body.length, uri: stored.uri });
    expect(await store.exists('recordings/acme/2.mp3')).toBeNull();
    // Erasure deletes it; a second delete finds nothing.
    expect(await store.delete('recordings/acme/1.mp3')).toBe(true);
    expect(await store.exists('recordings/acme/1.mp3')).toBeNull();
    expect(await store.delete('recordings/acme/1.mp3')).toBe(false);
  });

  it('uploads a body over the part size in parts, and the composite checksum matches', async () => {
    const store = new S3ObjectStore(moto.s3Config('callsync-store'));
    const sent = recordCommands(store);
    const body = randomBytes(12 * 1024 * 1024 + 12_345); // three parts of 5 MiB at most
    // Chunks of 64 KiB, as a download arrives.
    const chunks = Array.from({ length: Math.ceil(body.length / 65_536) }, (_, i) =>
      body.subarray(i * 65_536, (i + 1) * 65_536),
    );
    const stored = await store.put('reports/big.bin', Readable.from(chunks), body.length);
    expect(stored.bytes).toBe(body.length);
    expect(sent.filter((c) => c === 'UploadPartCommand')).toHaveLength(3);
    expect(sent).toContain('CompleteMultipartUploadCommand');
    expect(sha256(await read(store, 'reports/big.bin'))).toBe(sha256(body));
  }, 120_000);

  it('stores nothing when the body is shorter than announced (single and multipart)', async () => {
    const store = new S3ObjectStore(moto.s3Config('callsync-store'));
    const small = randomBytes(1000);
    await expect(store.put('short.bin', Readable.from([small]), 2000)).rejects.toBeInstanceOf(
      ObjectSizeMismatchError,
    );
    expect(await store.exists('short.bin')).toBeNull();
    const large = randomBytes(6 * 1024 * 1024);
    await expect(
      store.put('short-large.bin', Readable.from([large]), large.length + 1),
    ).rejects.toBeInstanceOf(ObjectSizeMismatchError);
    expect(await store.exists('short-large.bin')).toBeNull();
  }, 120_000);

  describe('the recording archive through the audio activity', () => {
    let emulator: RunningEmulator;
    let database: TestDatabase;
    let deps: RuntimeDeps;

    beforeAll(async () => {
      emulator = await startEmulator({ port: 0, seed: 3, cdrs: 300, now: new Date('2026-11-01T12:00:00Z') });
      database = await createTestDatabase('s3-archive');
      await moto.createBucket('callsync-archive');
      const config = parseTestConfig({
        accounts: [
          {
            name: 'acme',
            platform: {
              baseUrl: emulator.baseUrl,
              credentials: { type: 'apiKey', userId: emulator.admin.user_id, apiKey: emulator.admin.api_key },
              requestsPerSecond: 200,
            },
          },
        ],
        archive: { s3: moto.s3Config('callsync-archive', { prefix: 'callsync/' }) },
        logLevel: 'silent',
      });
      deps = await createActivityDeps(config, database.url, silentLogger);
      // Three recordings in the warehouse, as the recordings sync leaves them.
      const client = createPlatformClient({ ...config.accounts[0]!.platform });
      const page = await client.history.monitors.list({ limit: 3 }).pages().next();
      await client.close();
      const records: PageRecord<'recordings'>[] = page.value!.data.map((record, i) => ({
        record,
        raw: page.value!.raw[i],
      }));
      await upsertPage(deps.warehouse.pool, {
        stream: 'recordings',
        account: 'acme',
        records,
      });
    }, 120_000);
    afterAll(async () => {
      await deps?.close();
      await database?.drop();
      // Under jest the emulator's close can wait a minute on the download client's sockets (not
      // under tsx; not understood yet): give it 5 s, the assertions are done by then.
      await Promise.race([emulator?.close(), new Promise((r) => setTimeout(r, 5000))]);
    }, 60_000);

    it('archives each recording once to S3, and a retry after the upload uploads nothing again', async () => {
      expect(deps.archive).toBeInstanceOf(S3ObjectStore);
      const sent = recordCommands(deps.archive as S3ObjectStore);
      const activities = createAudioActivities(deps);
      const archiveAudio = (i: ArchiveAudioInput) => activities.archiveAudio(i);
      const env = new MockActivityEnvironment();
      const input: ArchiveAudioInput = { account: 'acme', stream: 'recordings' };
      const first = await env.run(archiveAudio, input);
      expect(first).toMatchObject({ archived: 3, missing: 0 });
      const rows = await deps.warehouse.db
        .selectFrom('recordings')
        .select(['id', 'created_at', 'audio_uri', 'audio_bytes'])
        .orderBy('id')
        .execute();
      expect(rows).toHaveLength(3);
      for (const row of rows) {
        // Keys name the account and the day the call was recorded (audioObjectKey).
        const key = audioObjectKey('recordings', 'acme', row.id, row.created_at);
        expect(key).toMatch(/^recordings\/acme\/\d{4}\/\d{2}\/\d{2}\/\d+\.mp3$/);
        expect(row.audio_uri).toBe(`s3://callsync-archive/callsync/${key}`);
        const stored = await deps.archive.exists(key);
        expect(stored?.bytes).toBe(Number(row.audio_bytes));
        expect(stored!.bytes).toBeGreaterThan(1000);
      }
      const puts = sent.filter((c) => c === 'PutObjectCommand').length;
      expect(puts).toBe(3);

      // The activity died after uploading, before marking its rows: the retry finds the objects.
      await deps.warehouse.db
        .updateTable('recordings')
        .set({ audio_archived_at: null, audio_uri: null })
        .execute();
      const retry = await env.run(archiveAudio, input);
      expect(retry).toMatchObject({ archived: 3 });
      expect(sent.filter((c) => c === 'PutObjectCommand').length).toBe(puts);
      const again = await deps.warehouse.db.selectFrom('recordings').select('audio_uri').execute();
      expect(again.every((r) => r.audio_uri?.startsWith('s3://callsync-archive/'))).toBe(true);
    }, 120_000);
  });
});
