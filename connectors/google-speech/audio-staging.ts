// Audio longer than Speech-to-Text takes inline (60 s or 10 MB) is read from Cloud Storage: it is
// staged under a name fixed by account and recording, so a retried upload overwrites rather than
// duplicates, and deleted once the recognition has finished.
import type { Readable } from 'node:stream';
import type { AuthClient } from 'google-auth-library';
import { googleAuthClient } from '../google/credentials';
import { googleCloudStorage } from '../object-store/body-digest';
import { GCS_SCOPE, GcsObjectStore } from '../object-store/gcs';
import type { GcsArchiveConfig } from '../object-store/gcs-config';
import type { GoogleTranscriptionConfig } from './config';

/** Object key of a recording's staged audio (below the staging bucket). */
export function stagedAudioKey(account: string, recordingId: number): string {
  return `transcription/${account}/${recordingId}.mp3`;
}

/** `gs://bucket/name` split into its bucket and object name; null for any other URI. */
export function parseGsUri(uri: string): { bucket: string; name: string } | null {
  const m = /^gs:\/\/([^/]+)\/(.+)$/.exec(uri);
  return m ? { bucket: m[1]!, name: m[2]! } : null;
}

/** The staging bucket of transcription.google (with the transcription's credentials). */
export class AudioStaging {
  private store: Promise<GcsObjectStore> | undefined;

  constructor(
    private readonly config: GoogleTranscriptionConfig & { stagingBucket: string },
    private readonly auth: () => Promise<AuthClient> = () =>
      googleAuthClient(config.credentials, [GCS_SCOPE]),
  ) {}

  private get(): Promise<GcsObjectStore> {
    this.store ??= this.auth().then((authClient) => {
      const storage = new (googleCloudStorage().Storage)({
        authClient,
        ...(this.config.storageEndpoint ? { apiEndpoint: this.config.storageEndpoint } : {}),
      });
      return new GcsObjectStore(storage, this.config.stagingBucket);
    });
    this.store.catch(() => (this.store = undefined));
    return this.store;
  }

  /** Uploads the recording's audio (checksums checked); returns its gs:// URI and size. */
  async put(account: string, recordingId: number, body: Readable): Promise<{ uri: string; bytes: number }> {
    const stored = await (await this.get()).put(stagedAudioKey(account, recordingId), body);
    return { uri: stored.uri, bytes: stored.bytes };
  }

  /** Deletes the recording's staged audio; nothing happens when there is none. */
  async delete(account: string, recordingId: number): Promise<void> {
    const store = await this.get();
    await store.fileOf(stagedAudioKey(account, recordingId)).delete({ ignoreNotFound: true });
  }
}

/**
 * The first `bytes` bytes of an archived gs:// object (enough for its MP3 frame header), read with
 * the archive's credentials, so a long archived recording is not downloaded from the platform.
 */
export async function readArchivedHead(
  archive: GcsArchiveConfig,
  uri: string,
  bytes: number,
  auth: () => Promise<AuthClient> = () => googleAuthClient(archive.credentials, [GCS_SCOPE]),
): Promise<Buffer> {
  const at = parseGsUri(uri);
  if (!at) throw new Error(`not a gs:// URI: ${uri}`);
  const storage = new (googleCloudStorage().Storage)({
    authClient: await auth(),
    ...(archive.projectId ? { projectId: archive.projectId } : {}),
    ...(archive.apiEndpoint ? { apiEndpoint: archive.apiEndpoint } : {}),
  });
  const [head] = await storage
    .bucket(at.bucket)
    .file(at.name)
    .download({ start: 0, end: bytes - 1, validation: false });
  return head;
}
