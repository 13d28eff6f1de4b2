// Pure mapping from Google's answers to the platform's recording fields: diarized words into speaker
// segments and a transcript, and a sentiment score into the platform's label and CX score.
import type { protos as speechProtos } from '@google-cloud/speech';

type RecognitionResult = speechProtos.google.cloud.speech.v1p1beta1.ISpeechRecognitionResult;
type Duration = speechProtos.google.protobuf.IDuration | null | undefined;

/** One speaker's turn, as the platform's `transcript_speakers` holds them. */
export interface SpeakerSegment {
  speaker: string;
  start: number;
  end: number;
  text: string;
}

/** A protobuf Duration in seconds (tenths). */
export function durationSeconds(d: Duration): number {
  if (!d) return 0;
  const s = Number(d.seconds ?? 0) + Number(d.nanos ?? 0) / 1e9;
  return Math.round(s * 10) / 10;
}

/**
 * Speaker segments and the transcript text. With diarization Google repeats every word, tagged with
 * its speaker, in the last result; without it, each result's best alternative is one stretch of text.
 */
export function toTranscript(results: readonly RecognitionResult[]): {
  transcript: string;
  segments: SpeakerSegment[];
} {
  const last = results[results.length - 1]?.alternatives?.[0];
  const tagged = (last?.words ?? []).filter((w) => w.speakerTag);
  if (tagged.length > 0) {
    const segments: SpeakerSegment[] = [];
    for (const w of tagged) {
      const speaker = `speaker ${w.speakerTag}`;
      const prev = segments[segments.length - 1];
      if (prev && prev.speaker === speaker) {
        prev.text += ` ${w.word ?? ''}`;
        prev.end = durationSeconds(w.endTime);
      } else {
        segments.push({
          speaker,
          start: durationSeconds(w.startTime),
          end: durationSeconds(w.endTime),
          text: w.word ?? '',
        });
      }
    }
    const transcript = segments.map((s) => `Speaker ${s.speaker.slice(8)}: ${s.text}`).join('\n');
    return { transcript, segments };
  }
  const segments = results
    .map((r) => r.alternatives?.[0])
    .filter((a) => a?.transcript)
    .map((a) => ({
      speaker: 'speaker 1',
      start: durationSeconds(a!.words?.[0]?.startTime),
      end: durationSeconds(a!.words?.[a!.words.length - 1]?.endTime),
      text: a!.transcript!.trim(),
    }));
  return { transcript: segments.map((s) => s.text).join('\n'), segments };
}

/** The platform's sentiment label for a Natural Language score (-1 … 1). */
export function sentimentLabel(score: number): 'positive' | 'neutral' | 'negative' {
  if (score >= 0.25) return 'positive';
  if (score <= -0.25) return 'negative';
  return 'neutral';
}

/** A 0-100 customer-experience score from a sentiment score (-1 → 0, 0 → 50, 1 → 100). */
export function cxScore(score: number): number {
  return Math.max(0, Math.min(100, Math.round((score + 1) * 50)));
}
