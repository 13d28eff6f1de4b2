// Speech-to-Text v1 and v1p1beta1 (https://cloud.google.com/speech-to-text/docs/reference/rest) for
// tests: speech:longrunningrecognize and operations.get, as the official client calls them in REST mode.
// MP3 is served on v1p1beta1 only: RecognitionConfig.AudioEncoding documents "MP3 audio. MP3 encoding
// is a Beta feature and only available in v1p1beta1"
// (https://cloud.google.com/speech-to-text/docs/reference/rest/v1p1beta1/RecognitionConfig#AudioEncoding,
// and the same sentence in google/cloud/speech/v1/cloud_speech.proto), so v1 refuses encoding MP3
// with a 400 INVALID_ARGUMENT (the wording of the message is this server's).
// It "hears" the words a test scripted (two speakers by default), with speaker tags when diarization
// is on; inline audio over 60 s is refused as Google refuses it; MP3 without a sample rate is a 400.
// Audio given as a gs:// URI is read from the Cloud Storage at `gcsEndpoint` (a missing object is a 404).
import { createHash } from 'node:crypto';
import { GoogleApiError } from './api-error';
import type { RouteHost } from './route-host';

/** A word the fake hears, with its speaker and start second. */
export interface HeardWord {
  word: string;
  speaker: number;
  start: number;
}

export interface FakeSpeech {
  /** What the fake hears in audio whose MD5 (hex) is `md5`; other audio gets the default script. */
  script(md5: string, words: HeardWord[]): void;
  /** Operations started so far (one per longrunningrecognize), with the API version called. */
  started(): {
    name: string;
    version: SpeechVersion;
    request: Record<string, unknown>;
    audioSeconds: number;
  }[];
  /** GETs of an operation before it reports done (default 1). */
  pollsUntilDone: number;
  /** Cloud Storage origin (fake-gcs-server) that `audio.uri` objects are read from; unset: URIs are refused. */
  gcsEndpoint?: string;
}

const DEFAULT_SCRIPT: HeardWord[] = [
  ...'thank you for calling how can I help'
    .split(' ')
    .map((word, i) => ({ word, speaker: 1, start: i * 0.4 })),
  ...'great thanks I would like a quote please'
    .split(' ')
    .map((word, i) => ({ word, speaker: 2, start: 4 + i * 0.4 })),
];

/** MPEG-1 Layer III bitrates (kbit/s) by header index. */
const MP3_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];

/** Seconds of MPEG-1 Layer III audio, from its first frame's bitrate (constant-bitrate files). */
export function mp3Seconds(audio: Buffer): number {
  let i = 0;
  if (audio.subarray(0, 3).toString('latin1') === 'ID3' && audio.length > 10) {
    i = 10 + ((audio[6]! << 21) | (audio[7]! << 14) | (audio[8]! << 7) | audio[9]!);
  }
  for (; i < audio.length - 2; i++) {
    if (audio[i] === 0xff && (audio[i + 1]! & 0xfe) === 0xfa) {
      const kbps = MP3_KBPS[audio[i + 2]! >> 4];
      if (kbps) return ((audio.length - i) * 8) / (kbps * 1000);
    }
  }
  throw new GoogleApiError(400, 'Invalid audio: no MP3 frame found');
}

const isEncoding = (v: unknown, name: string, code: number) => v === name || v === code;

/** The Speech-to-Text versions served. */
export const SPEECH_VERSIONS = ['v1', 'v1p1beta1'] as const;
export type SpeechVersion = (typeof SPEECH_VERSIONS)[number];

interface Operation {
  name: string;
  version: SpeechVersion;
  request: Record<string, unknown>;
  audioSeconds: number;
  polls: number;
  words: HeardWord[];
}

/** Adds the Speech-to-Text routes to `app`. */
export function registerSpeech(app: RouteHost): FakeSpeech {
  const scripts = new Map<string, HeardWord[]>();
  const operations = new Map<string, Operation>();
  let seq = 4_000_000_000;
  const state: FakeSpeech = {
    script: (md5, words) => void scripts.set(md5, words),
    started: () =>
      [...operations.values()].map(({ name, version, request, audioSeconds }) => ({
        name,
        version,
        request,
        audioSeconds,
      })),
    pollsUntilDone: 1,
  };

  for (const version of SPEECH_VERSIONS) {
    app.post(`/${version}/speech::longrunningrecognize`, async (req) => {
      const body = (req.body ?? {}) as {
        config?: Record<string, unknown>;
        audio?: { content?: string; uri?: string };
      };
      const config = body.config;
      if (!config) throw new GoogleApiError(400, "Invalid recognition 'config': config is required.");
      if (
        typeof config.languageCode !== 'string' ||
        !/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(config.languageCode)
      ) {
        throw new GoogleApiError(400, "Invalid recognition 'config': bad language code.");
      }
      const mp3 = isEncoding(config.encoding, 'MP3', 8);
      if (mp3 && version === 'v1') {
        throw new GoogleApiError(
          400,
          "Invalid recognition 'config': encoding MP3 is only available in v1p1beta1.",
        );
      }
      if (mp3 && !config.sampleRateHertz) {
        throw new GoogleApiError(400, "Invalid recognition 'config': MP3 requires sample_rate_hertz.");
      }
      const diarization = config.diarizationConfig as { enableSpeakerDiarization?: boolean } | undefined;
      if (!body.audio?.content && !body.audio?.uri)
        throw new GoogleApiError(400, 'RecognitionAudio not set.');
      const audio = body.audio.uri
        ? await readGcsObject(state.gcsEndpoint, body.audio.uri)
        : Buffer.from(body.audio.content!, 'base64');
      const audioSeconds = mp3 ? mp3Seconds(audio) : audio.length / 16_000;
      if (!body.audio.uri && audioSeconds > 60) {
        throw new GoogleApiError(400, 'Inline audio exceeds duration limit. Please use a GCS URI.');
      }
      const md5 = createHash('md5').update(audio).digest('hex');
      const words = (scripts.get(md5) ?? DEFAULT_SCRIPT).map((w) => ({
        ...w,
        speaker: diarization?.enableSpeakerDiarization ? w.speaker : 0,
      }));
      const name = String(++seq);
      operations.set(name, { name, version, request: body, audioSeconds, polls: 0, words });
      return operationJson(operations.get(name)!, false);
    });

    // An operation is read through the version that started it.
    app.get(`/${version}/operations/:name`, async (req) => {
      const op = operations.get((req.params as { name: string }).name);
      if (!op || op.version !== version) throw new GoogleApiError(404, 'Operation not found.');
      op.polls += 1;
      return operationJson(op, op.polls >= state.pollsUntilDone);
    });
  }

  return state;
}

/** The object a gs:// URI names, from the Cloud Storage JSON API at `endpoint`. */
async function readGcsObject(endpoint: string | undefined, uri: string): Promise<Buffer> {
  const m = /^gs:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (!m) throw new GoogleApiError(400, `Invalid audio URI '${uri}': expected gs://bucket/object.`);
  if (!endpoint)
    throw new GoogleApiError(400, 'The local Speech-to-Text has no Cloud Storage (gcsEndpoint).');
  const res = await fetch(
    `${endpoint}/storage/v1/b/${encodeURIComponent(m[1]!)}/o/${encodeURIComponent(m[2]!)}?alt=media`,
  );
  if (res.status === 404) throw new GoogleApiError(404, `Requested entity was not found: ${uri}`);
  if (!res.ok) throw new GoogleApiError(500, `Cloud Storage answered ${res.status} for ${uri}`);
  return Buffer.from(await res.arrayBuffer());
}

const seconds = (s: number) => `${Math.round(s * 10) / 10}s`;

function operationJson(op: Operation, done: boolean) {
  const config = op.request.config as { languageCode: string };
  const metadata = {
    '@type': `type.googleapis.com/google.cloud.speech.${op.version}.LongRunningRecognizeMetadata`,
    progressPercent: done ? 100 : 0,
    startTime: new Date().toISOString(),
    lastUpdateTime: new Date().toISOString(),
  };
  if (!done) return { name: op.name, metadata };
  const wordInfo = op.words.map((w) => ({
    startTime: seconds(w.start),
    endTime: seconds(w.start + 0.35),
    word: w.word,
    ...(w.speaker ? { speakerTag: w.speaker } : {}),
  }));
  const text = op.words.map((w) => w.word).join(' ');
  const results = [
    // Google repeats every word with its speaker tag in the last result when diarization is on.
    {
      alternatives: [
        { transcript: text, confidence: 0.92, words: wordInfo.map(({ speakerTag: _s, ...w }) => w) },
      ],
      resultEndTime: seconds(op.audioSeconds),
      languageCode: config.languageCode.toLowerCase(),
    },
    ...(op.words.some((w) => w.speaker)
      ? [
          {
            alternatives: [{ words: wordInfo }],
            resultEndTime: seconds(op.audioSeconds),
            languageCode: config.languageCode.toLowerCase(),
          },
        ]
      : []),
  ];
  return {
    name: op.name,
    metadata,
    done: true,
    response: {
      '@type': `type.googleapis.com/google.cloud.speech.${op.version}.LongRunningRecognizeResponse`,
      results,
      totalBilledTime: `${Math.ceil(op.audioSeconds)}s`,
    },
  };
}
