// Long audio for Speech-to-Text: the staged object's fixed name, gs:// URIs, and an MP3's length
// from its first bytes and whole size (audio streamed to Cloud Storage is never held in memory).
import { parseTestConfig } from '../support/test-config';
import { mp3Info, parseGsUri, stagedAudioKey } from '../../connectors/google-speech';

const account = {
  name: 'acme',
  platform: {
    baseUrl: 'https://pbx.example/v1.1/voipstudio',
    credentials: { type: 'apiKey' as const, userId: 7, apiKey: 'k-secret-123' },
  },
};

describe('audio staging', () => {
  it('names the staged object by account and recording, the same on every retry', () => {
    expect(stagedAudioKey('acme', 42)).toBe('transcription/acme/42.mp3');
    expect(stagedAudioKey('acme', 42)).toBe(stagedAudioKey('acme', 42));
  });

  it('splits gs:// URIs and refuses others', () => {
    expect(parseGsUri('gs://bucket/archive/acme/1.mp3')).toEqual({
      bucket: 'bucket',
      name: 'archive/acme/1.mp3',
    });
    expect(parseGsUri('file:///tmp/1.mp3')).toBeNull();
    expect(parseGsUri('gs://bucket-only')).toBeNull();
  });

  it('measures an MP3 from its first frame and its whole size', () => {
    // 0xFFF3: MPEG-2 Layer III, 8 kbit/s, 22050 Hz: 1000 bytes a second.
    const head = Buffer.alloc(1000);
    head.set([0xff, 0xf3, 0x10, 0xc4]);
    expect(mp3Info(head, 90_000)).toEqual({ sampleRateHertz: 22050, seconds: 90 });
    expect(mp3Info(head)?.seconds).toBe(1);
  });
});

describe('transcription.google.stagingBucket', () => {
  const config = (google: Record<string, unknown>) =>
    parseTestConfig({
      accounts: [account],
      transcription: { google: { monthlyCapMinutes: 100, ...google } },
    });

  it('is optional, and taken when it is a bucket name', () => {
    expect(config({}).transcription.google?.stagingBucket).toBeUndefined();
    expect(config({ stagingBucket: 'acme-stt' }).transcription.google?.stagingBucket).toBe('acme-stt');
  });

  it('names the field when it is not a bucket name', () => {
    expect(() => config({ stagingBucket: 'gs://acme-stt' })).toThrow(
      /transcription\.google\.stagingBucket: a Cloud Storage bucket name/,
    );
  });
});
