// Speech-to-Text versions: the local Speech-to-Text (test/fakes/google/speech.ts) serves MP3 on
// v1p1beta1 only, as Google documents it, and callsync's recognition of MP3 recordings calls
// v1p1beta1 through the official client.
import { googleAuthClient } from '../../connectors/google/credentials';
import { googleTranscriptionConfigSchema } from '../../connectors/google-speech/config';
import { GoogleSpeech } from '../../connectors/google-speech/google-speech';
import { mp3Info } from '../../connectors/google-speech/mp3-info';
import { mp3Tone } from '../../emulator/media/mp3';
import { startFakeGoogleApps, type FakeGoogleApps } from '../fakes/google/apps-server';

let google: FakeGoogleApps;
const audio = mp3Tone({ seconds: 3, seed: 11 });

beforeAll(async () => {
  google = await startFakeGoogleApps();
});
afterAll(() => google.close());

describe('Speech-to-Text versions', () => {
  it('the local Speech-to-Text refuses encoding MP3 on v1 and recognises it on v1p1beta1', async () => {
    const auth = await googleAuthClient(
      { serviceAccountJson: google.serviceAccount.json, selfSignedJwt: true },
      ['https://www.googleapis.com/auth/cloud-platform'],
    );
    const recognize = (version: string) =>
      auth.request<Record<string, unknown>>({
        url: `${google.url}/${version}/speech:longrunningrecognize`,
        method: 'POST',
        data: {
          config: { encoding: 'MP3', sampleRateHertz: 44_100, languageCode: 'en-GB' },
          audio: { content: audio.toString('base64') },
        },
        validateStatus: () => true,
      });
    const v1 = await recognize('v1');
    expect(v1.status).toBe(400);
    expect(v1.data).toMatchObject({
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: expect.stringContaining('v1p1beta1') as unknown,
      },
    });
    const beta = await recognize('v1p1beta1');
    expect(beta.status).toBe(200);
    expect(google.speech.started().map((s) => s.version)).toEqual(['v1p1beta1']);
    // An operation is read through the version that started it.
    const name = String(beta.data.name);
    expect(
      (await auth.request({ url: `${google.url}/v1/operations/${name}`, validateStatus: () => true })).status,
    ).toBe(404);
  });

  it('callsync recognises MP3 recordings on v1p1beta1', async () => {
    const speech = new GoogleSpeech({
      ...googleTranscriptionConfigSchema.parse({
        credentials: { serviceAccountJson: google.serviceAccount.json, selfSignedJwt: true },
        monthlyCapMinutes: 10,
        speechEndpoint: google.url,
        languageEndpoint: google.url,
      }),
      maxAge: 0,
      every: 0,
    });
    const before = google.requests.length;
    try {
      const name = await speech.start(audio, mp3Info(audio)!);
      expect(google.speech.started().find((s) => s.name === name)).toMatchObject({
        version: 'v1p1beta1',
        request: { config: { encoding: 8 } }, // MP3, as the client sends the enum
      });
      const state = await speech.poll(name);
      expect(state).toMatchObject({ done: true, error: null });
      expect(state.results.length).toBeGreaterThan(0);
      const paths = google.requests.slice(before).map((r) => r.path);
      expect(paths.filter((p) => p.startsWith('/v1p1beta1/'))).toHaveLength(2);
      expect(paths.some((p) => p.startsWith('/v1/'))).toBe(false);
    } finally {
      await speech.close();
    }
  });
});
