// Bytes of the binary endpoints, from the media generators of emulator/media (real MP3 frames, PCAP
// captures, SIP traces and CSV), sized by the record they belong to.
import { cdrsCsv, mp3Tone, pcapFile, sipTrace } from '../../media';
import { mp3ToneStream, type Mp3ToneStream } from '../../media/mp3';
import type { Row } from '../../store';

function seconds(v: unknown, fallback: number): number {
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** A recording's audio, as long as its duration says (streamed, so a long call costs no memory). */
export function monitorAudio(row: Row): Mp3ToneStream {
  return mp3ToneStream({ seconds: seconds(row.duration, 5), seed: Number(row.id) || 1 });
}

/** A voice message's audio, as long as its duration says. */
export function voicemessageAudio(row: Row): Mp3ToneStream {
  return mp3ToneStream({ seconds: seconds(row.duration, 5), seed: Number(row.id) || 1 });
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
