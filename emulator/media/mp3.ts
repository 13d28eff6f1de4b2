import { Readable } from 'node:stream';
import { BitWriter } from './bit-writer';

// A tiny MPEG-1 Layer III writer for test tones. Instead of analysing PCM, it writes the spectrum
// directly: each granule carries one non-zero frequency line (Huffman table 1, no scale factors,
// no bit reservoir), which any decoder's hybrid synthesis turns into a steady tone near that line.

const SAMPLE_RATE = 48_000;
const BITRATE = 32_000;
/** 144 * bitrate / sample rate: a whole number at 48 kHz, so frames need no padding. */
const FRAME_BYTES = (144 * BITRATE) / SAMPLE_RATE;
const SAMPLES_PER_FRAME = 1152;
/** Hz per frequency line: 576 lines span half the sample rate. */
const LINE_HZ = SAMPLE_RATE / 2 / 576;
/** MPEG-1, Layer III, no CRC | 32 kbit/s, 48 kHz, no padding | mono, original. */
const HEADER = [0xff, 0xfb, 0x14, 0xc4] as const;
/** Default tones (multiples of 83.3 Hz, see below); a seed picks one, so recordings differ but stay few. */
const TONES = [333, 417, 500, 583, 667, 750, 833, 917] as const;

export interface Mp3ToneOptions {
  seconds: number;
  frequencyHz?: number;
  seed?: number;
  /** Loudness step: global_gain of the granules (higher is louder); the default is a moderate level. */
  gain?: number;
}

/** Side information and main data of one granule carrying a single spectral line. */
function granule(
  line: number,
  negative: boolean,
  gain: number,
): { side: (w: BitWriter) => void; main: string } {
  // Pairs before the line are (0,0) -> '1'; the line's pair is (1,0) -> '01' or (0,1) -> '001', then a sign bit.
  const pairs = Math.floor(line / 2) + 1;
  const main = '1'.repeat(pairs - 1) + (line % 2 === 0 ? '01' : '001') + (negative ? '1' : '0');
  const side = (w: BitWriter): void => {
    w.write(main.length, 12); // part2_3_length (no scale factor bits)
    w.write(pairs, 9); // big_values
    w.write(gain, 8); // global_gain
    w.write(0, 4); // scalefac_compress: slen1 = slen2 = 0
    w.write(0, 1); // window_switching_flag: long blocks
    w.write(1, 5); // table_select[0..2]: Huffman table 1 everywhere
    w.write(1, 5);
    w.write(1, 5);
    w.write(7, 4); // region0_count
    w.write(7, 3); // region1_count
    w.write(0, 1); // preflag
    w.write(0, 1); // scalefac_scale
    w.write(0, 1); // count1table_select
  };
  return { side, main };
}

/** One 96-byte frame whose two granules carry the line with the given signs (true = negative). */
function frame(line: number, signs: readonly [boolean, boolean], gain: number): Uint8Array {
  const w = new BitWriter(FRAME_BYTES);
  for (const b of HEADER) w.write(b, 8);
  const grs = signs.map((s) => granule(line, s, gain));
  w.write(0, 9); // main_data_begin: no bit reservoir
  w.write(0, 5); // private_bits (mono)
  w.write(0, 4); // scfsi
  for (const g of grs) g.side(w);
  for (const g of grs) w.writeCode(g.main);
  return w.buffer;
}

/** An ID3v2.4 tag with a title and an encoder text frame. */
function id3Tag(title: string): Uint8Array {
  const textFrame = (id: string, text: string): Buffer => {
    const body = Buffer.concat([Buffer.from([3]), Buffer.from(text, 'utf8')]); // encoding 3 = UTF-8
    const head = Buffer.alloc(10);
    head.write(id, 0, 'latin1');
    writeSyncsafe(head, 4, body.length);
    return Buffer.concat([head, body]);
  };
  const frames = Buffer.concat([textFrame('TIT2', title), textFrame('TSSE', 'callsync emulator tone')]);
  const header = Buffer.alloc(10);
  header.write('ID3', 0, 'latin1');
  header[3] = 4; // version 2.4.0
  header[4] = 0;
  header[5] = 0; // flags
  writeSyncsafe(header, 6, frames.length);
  return Buffer.concat([header, frames]);
}

function writeSyncsafe(buf: Buffer, at: number, n: number): void {
  buf[at] = (n >>> 21) & 0x7f;
  buf[at + 1] = (n >>> 14) & 0x7f;
  buf[at + 2] = (n >>> 7) & 0x7f;
  buf[at + 3] = n & 0x7f;
}

const cache = new Map<string, Buffer>();
const CACHE_LIMIT = 64;

/** The frequency a tone request resolves to: the explicit one, else one picked by the seed. */
export function toneFrequency(opts: Pick<Mp3ToneOptions, 'frequencyHz' | 'seed'>): number {
  if (opts.frequencyHz !== undefined) return opts.frequencyHz;
  const seed = Math.abs(Math.floor(opts.seed ?? 0));
  return TONES[seed % TONES.length] ?? 440;
}

/** A playable MP3 (ID3v2 tag + MPEG-1 Layer III frames, 48 kHz mono 32 kbit/s) of a steady tone. */
export function mp3Tone(opts: Mp3ToneOptions): Buffer {
  const seconds = Math.max(0.1, Math.min(600, Number.isFinite(opts.seconds) ? opts.seconds : 1));
  const hz = toneFrequency(opts);
  // Identical granules repeat every 576 samples, so the tone sits on a multiple of 83.3 Hz: an even line.
  const line = 2 * Math.max(1, Math.min(200, Math.round(hz / (2 * LINE_HZ))));
  const gain = Math.max(120, Math.min(230, Math.round(opts.gain ?? 204)));
  const frames = Math.max(1, Math.ceil((seconds * SAMPLE_RATE) / SAMPLES_PER_FRAME));
  const key = `${frames}:${line}:${gain}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  // The same positive line in every granule decodes to a clean sine at line * LINE_HZ (checked with
  // ffmpeg: all the energy within 2 Hz of it), so every frame is the same 96 bytes.
  const one = frame(line, [false, false], gain);
  const tag = id3Tag(`Tone ${Math.round(line * LINE_HZ)} Hz`);
  const out = Buffer.alloc(tag.length + frames * FRAME_BYTES);
  out.set(tag, 0);
  for (let i = 0; i < frames; i++) out.set(one, tag.length + i * FRAME_BYTES);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value ?? '');
  cache.set(key, out);
  return out;
}

/** Longest audio the emulator renders (a call lasts at most a few hours). */
const MAX_STREAM_SECONDS = 6 * 3600;
/** Frames per chunk of a streamed tone (about 100 KB, 24 s of audio). */
const CHUNK_FRAMES = 1000;

/** A tone of any length, produced lazily: its byte length, and a stream of it (one chunk reused). */
export interface Mp3ToneStream {
  length: number;
  stream(): Readable;
}

/**
 * The same MP3 as mp3Tone, for recordings as long as their call: nothing is built until it is read,
 * and a read holds one ~100 KB chunk however long the audio is.
 */
export function mp3ToneStream(opts: Mp3ToneOptions): Mp3ToneStream {
  const seconds = Math.max(
    0.1,
    Math.min(MAX_STREAM_SECONDS, Number.isFinite(opts.seconds) ? opts.seconds : 1),
  );
  const frames = Math.max(1, Math.ceil((seconds * SAMPLE_RATE) / SAMPLES_PER_FRAME));
  if (seconds <= 600) {
    const whole = mp3Tone({ ...opts, seconds });
    return { length: whole.length, stream: () => Readable.from([whole]) };
  }
  const sample = mp3Tone({ ...opts, seconds: (CHUNK_FRAMES * SAMPLES_PER_FRAME) / SAMPLE_RATE });
  const tagLength = sample.length - CHUNK_FRAMES * FRAME_BYTES;
  return {
    length: tagLength + frames * FRAME_BYTES,
    stream: () =>
      Readable.from(
        (function* chunks(): Generator<Buffer> {
          yield sample.subarray(0, tagLength);
          const chunk = sample.subarray(tagLength);
          for (let left = frames; left > 0; left -= CHUNK_FRAMES)
            yield left >= CHUNK_FRAMES ? chunk : chunk.subarray(0, left * FRAME_BYTES);
        })(),
      ),
  };
}

/** Byte length of mp3ToneStream(opts) without producing it (what a recording's `size` says). */
export function mp3Size(opts: Mp3ToneOptions): number {
  const seconds = Math.max(
    0.1,
    Math.min(MAX_STREAM_SECONDS, Number.isFinite(opts.seconds) ? opts.seconds : 1),
  );
  const frames = Math.max(1, Math.ceil((seconds * SAMPLE_RATE) / SAMPLES_PER_FRAME));
  const line = 2 * Math.max(1, Math.min(200, Math.round(toneFrequency(opts) / (2 * LINE_HZ))));
  return id3Tag(`Tone ${Math.round(line * LINE_HZ)} Hz`).length + frames * FRAME_BYTES;
}

/** Audio parameters of the generated stream (for tests and Content-Length math). */
export const MP3_FORMAT = {
  sampleRate: SAMPLE_RATE,
  bitrate: BITRATE,
  frameBytes: FRAME_BYTES,
  channels: 1,
} as const;
