// Bytes of the binary endpoints, from the media generators of emulator/media (real MP3 frames, PCAP
// captures, SIP traces and CSV), sized by the record they belong to.
import { cdrsCsv, mp3Tone, pcapFile, sipTrace } from '../../media';
import type { Row } from '../../store';

/** Longest recording the emulator renders, so a long call does not produce megabytes per request. */
const MAX_AUDIO_SECONDS = 30;

function seconds(v: unknown, fallback: number): number {
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) && n > 0 ? Math.min(n, MAX_AUDIO_SECONDS) : fallback;
}

/** A recording's audio (length from its duration when known). */
export function monitorAudio(row: Row): Buffer {
  return mp3Tone({ seconds: seconds(row.duration, 5), seed: Number(row.id) || 1 });
}

/** A voice message's audio. */
export function voicemessageAudio(row: Row): Buffer {
  return mp3Tone({ seconds: seconds(row.duration, 5), seed: Number(row.id) || 1 });
}

/** A user's audio resource (greeting). */
export function userAudio(user: Row): Buffer {
  return mp3Tone({ seconds: 3, seed: Number(user.id) || 1 });
}

/** The SIP trace of a CDR or MSDR, as text. */
export function sipTraceOf(row: Row): string {
  return sipTrace(row);
}

/** The packet capture of a CDR or MSDR. */
export function pcapOf(row: Row): Buffer {
  return pcapFile(row);
}

/** CDR rows as CSV. */
export function cdrsCsvExport(rows: readonly Row[]): string {
  return cdrsCsv(rows);
}
