// The pure parts of the transcription: MP3 headers (sample rate, length), diarized words into the
// platform's speaker segments, sentiment labels and CX scores, and the status section.
import { formatTranscriptionUsage } from '../../cli/commands/status-transcription';
import {
  cxScore,
  durationSeconds,
  mp3Info,
  sentimentLabel,
  toTranscript,
} from '../../connectors/google-speech';
import { usageMonth } from '../../connectors/postgres';
import { mp3Tone } from '../../emulator/media/mp3';

describe('mp3Info', () => {
  it('reads the sample rate and length of an MPEG-1 Layer III file after its ID3 tag', () => {
    const info = mp3Info(mp3Tone({ seconds: 19, seed: 3 }));
    expect(info?.sampleRateHertz).toBe(48000);
    expect(info!.seconds).toBeGreaterThanOrEqual(19);
    expect(info!.seconds).toBeLessThan(19.1);
  });

  it('reads MPEG-2 headers (8 kbit/s steps, 16-24 kHz)', () => {
    // 0xFFF3: MPEG-2 Layer III; 0x10: 8 kbit/s (bitrate index 1), 22050 Hz (rate index 0).
    const frame = Buffer.alloc(1000);
    frame.set([0xff, 0xf3, 0x10, 0xc4]);
    expect(mp3Info(frame)).toEqual({ sampleRateHertz: 22050, seconds: 1 });
  });

  it('is null for audio that is not MP3', () => {
    expect(mp3Info(Buffer.from('RIFF....WAVEfmt '))).toBeNull();
    expect(mp3Info(new Uint8Array(0))).toBeNull();
  });
});

describe('toTranscript', () => {
  const word = (w: string, start: number, speakerTag?: number) => ({
    word: w,
    startTime: { seconds: Math.floor(start), nanos: Math.round((start % 1) * 1e9) },
    endTime: { seconds: Math.floor(start + 0.5), nanos: Math.round(((start + 0.5) % 1) * 1e9) },
    ...(speakerTag ? { speakerTag } : {}),
  });

  it('groups diarized words of the last result into speaker turns', () => {
    const results = [
      {
        alternatives: [
          { transcript: 'hello there hi', words: [word('hello', 0), word('there', 0.5), word('hi', 2)] },
        ],
      },
      {
        alternatives: [
          { words: [word('hello', 0, 1), word('there', 0.5, 1), word('hi', 2, 2), word('bye', 3.2, 1)] },
        ],
      },
    ];
    const { transcript, segments } = toTranscript(results);
    expect(transcript).toBe('Speaker 1: hello there\nSpeaker 2: hi\nSpeaker 1: bye');
    expect(segments).toEqual([
      { speaker: 'speaker 1', start: 0, end: 1, text: 'hello there' },
      { speaker: 'speaker 2', start: 2, end: 2.5, text: 'hi' },
      { speaker: 'speaker 1', start: 3.2, end: 3.7, text: 'bye' },
    ]);
  });

  it('without speaker tags, keeps each result as one stretch', () => {
    const results = [
      { alternatives: [{ transcript: ' first part', words: [word('first', 1), word('part', 1.5)] }] },
      { alternatives: [{ transcript: 'second part' }] },
    ];
    expect(toTranscript(results)).toEqual({
      transcript: 'first part\nsecond part',
      segments: [
        { speaker: 'speaker 1', start: 1, end: 2, text: 'first part' },
        { speaker: 'speaker 1', start: 0, end: 0, text: 'second part' },
      ],
    });
    expect(toTranscript([])).toEqual({ transcript: '', segments: [] });
  });

  it('reads protobuf durations given as strings (int64) or absent', () => {
    expect(durationSeconds({ seconds: '12', nanos: 340_000_000 })).toBe(12.3);
    expect(durationSeconds(undefined)).toBe(0);
  });
});

describe('sentiment', () => {
  it('labels scores as the platform does and maps them to 0-100', () => {
    expect([sentimentLabel(0.6), sentimentLabel(0.1), sentimentLabel(-0.25)]).toEqual([
      'positive',
      'neutral',
      'negative',
    ]);
    expect([cxScore(-1), cxScore(0), cxScore(0.8), cxScore(3)]).toEqual([0, 50, 90, 100]);
  });
});

describe('transcription usage', () => {
  it('counts minutes in UTC months and shows them against the cap', () => {
    expect(usageMonth(new Date('2026-11-30T23:59:59Z'))).toBe('2026-11');
    expect(usageMonth(new Date('2026-12-01T00:00:00Z'))).toBe('2026-12');
    expect(
      formatTranscriptionUsage([
        {
          account: 'acme',
          month: '2026-11',
          minutes: 12.5,
          capMinutes: 600,
          byStatus: { skipped: 1, done: 14 },
        },
      ]),
    ).toBe('TRANSCRIPTION (Google Speech-to-Text, 2026-11)\nacme  12.5 of 600 min  (14 done, 1 skipped)');
    expect(formatTranscriptionUsage([])).toBe('');
  });
});
