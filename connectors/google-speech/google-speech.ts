// Google Speech-to-Text (v1p1beta1 long-running recognition with diarization: MP3, the encoding of
// every recording, is documented for v1p1beta1 only, "MP3 encoding is a Beta feature and only
// available in v1p1beta1", RecognitionConfig.AudioEncoding) and Natural Language
// (documents:analyzeSentiment) through the official clients in REST mode, so the same code reaches
// Google or, in tests, a local server. Credentials come from config; nothing here logs them.
import type { LanguageServiceClient } from '@google-cloud/language';
import type { protos } from '@google-cloud/speech';
import type { AuthClient } from 'google-auth-library';
import { googleAuthClient } from '../google/credentials';
import type { GoogleTranscriptionConfig } from './config';
import type { Mp3Info } from './mp3-info';
import { lazyPackage } from '../../lib/lazy-package';

const speechPackage = lazyPackage<typeof import('@google-cloud/speech')>('@google-cloud/speech');
const languagePackage = lazyPackage<typeof import('@google-cloud/language')>('@google-cloud/language');

type RecognitionResult = protos.google.cloud.speech.v1p1beta1.ISpeechRecognitionResult;
type SpeechClient = InstanceType<typeof import('@google-cloud/speech').v1p1beta1.SpeechClient>;

/** OAuth scope of Speech-to-Text and Natural Language. */
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/** Inline audio Google accepts for long-running recognition (longer audio must come from Cloud Storage). */
export const INLINE_AUDIO_MAX_SECONDS = 60;

/** The state of a recognition operation. */
export interface RecognitionState {
  done: boolean;
  results: RecognitionResult[];
  /** Audio Google billed, in seconds. */
  billedSeconds: number | null;
  /** Google's error, when the operation failed. */
  error: string | null;
}

/** Client options for an endpoint URL: host, port and protocol (REST transport). */
function endpoint(url: string): { apiEndpoint: string; port: number; protocol: string } {
  const u = new URL(url);
  const protocol = u.protocol.replace(':', '');
  return { apiEndpoint: u.hostname, port: Number(u.port || (protocol === 'http' ? 80 : 443)), protocol };
}

export class GoogleSpeech {
  private clients: Promise<{ speech: SpeechClient; language: LanguageServiceClient }> | undefined;

  constructor(
    private readonly config: GoogleTranscriptionConfig,
    private readonly auth: () => Promise<AuthClient> = () =>
      googleAuthClient(config.credentials, [CLOUD_PLATFORM_SCOPE]),
  ) {}

  private get(): Promise<{ speech: SpeechClient; language: LanguageServiceClient }> {
    this.clients ??= this.auth().then((auth) => {
      // Each client's google-gax types its own copy of google-auth-library; same protocol at run time.
      const authClient = auth as never;
      return {
        speech: new (speechPackage().v1p1beta1.SpeechClient)({
          fallback: true,
          authClient,
          ...endpoint(this.config.speechEndpoint),
        }),
        language: new (languagePackage().LanguageServiceClient)({
          fallback: true,
          authClient,
          ...endpoint(this.config.languageEndpoint),
        }),
      };
    });
    this.clients.catch(() => (this.clients = undefined));
    return this.clients;
  }

  /** Starts long-running recognition of inline MP3 audio or a gs:// object; returns the operation's name. */
  async start(audio: Uint8Array | { uri: string }, info: Mp3Info): Promise<string> {
    const { speech } = await this.get();
    const [first, ...alternatives] = this.config.languages;
    const [operation] = await speech.longRunningRecognize({
      config: {
        encoding: speechPackage().protos.google.cloud.speech.v1p1beta1.RecognitionConfig.AudioEncoding.MP3,
        sampleRateHertz: info.sampleRateHertz,
        languageCode: first!,
        alternativeLanguageCodes: alternatives,
        enableAutomaticPunctuation: true,
        enableWordTimeOffsets: true,
        model: this.config.model,
        diarizationConfig: {
          enableSpeakerDiarization: true,
          minSpeakerCount: this.config.speakers.min,
          maxSpeakerCount: this.config.speakers.max,
        },
      },
      audio: audio instanceof Uint8Array ? { content: audio } : { uri: audio.uri },
    });
    if (!operation.name) throw new Error('Speech-to-Text answered without an operation name');
    return operation.name;
  }

  /** The operation's state now (operations.get). */
  async poll(name: string): Promise<RecognitionState> {
    const { speech } = await this.get();
    const op = await speech.checkLongRunningRecognizeProgress(name);
    if (op.error) return { done: true, results: [], billedSeconds: null, error: op.error.message };
    if (!op.done || !op.result) return { done: false, results: [], billedSeconds: null, error: null };
    const result = op.result as protos.google.cloud.speech.v1p1beta1.ILongRunningRecognizeResponse;
    const billed = result.totalBilledTime;
    return {
      done: true,
      results: result.results ?? [],
      billedSeconds: billed ? Number(billed.seconds ?? 0) + Number(billed.nanos ?? 0) / 1e9 : null,
      error: null,
    };
  }

  /** The document's sentiment score (-1 … 1) and magnitude. */
  async sentiment(text: string, language: string): Promise<{ score: number; magnitude: number }> {
    const { language: client } = await this.get();
    const [res] = await client.analyzeSentiment({
      document: { type: 'PLAIN_TEXT', content: text, language },
      encodingType: 'UTF8',
    });
    return { score: res.documentSentiment?.score ?? 0, magnitude: res.documentSentiment?.magnitude ?? 0 };
  }

  async close(): Promise<void> {
    const c = await this.clients?.catch(() => undefined);
    await c?.speech.close();
    await c?.language.close();
  }
}
