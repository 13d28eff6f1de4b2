// What Speech-to-Text needs to know of an MP3 before sending it (its sample rate) and what the cost
// guard counts (its length), read from the first MPEG audio frame header after any ID3v2 tag.

/** Kbit/s by bitrate index: MPEG-1 Layer III, and MPEG-2/2.5 Layer III. */
const KBPS_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const KBPS_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
/** Sample rates by version (MPEG-1, 2, 2.5) and index. */
const RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
};

export interface Mp3Info {
  sampleRateHertz: number;
  /** Length in seconds, from the size and the first frame's bitrate (constant-bitrate files). */
  seconds: number;
}

/**
 * Reads an MP3's sample rate and length; null when no Layer III frame header is found. `totalBytes`
 * is the whole file's size when `audio` is only its beginning (long audio staged without buffering).
 */
export function mp3Info(audio: Uint8Array, totalBytes = audio.length): Mp3Info | null {
  let i = 0;
  if (audio.length > 10 && audio[0] === 0x49 && audio[1] === 0x44 && audio[2] === 0x33) {
    i =
      10 +
      (((audio[6]! & 0x7f) << 21) |
        ((audio[7]! & 0x7f) << 14) |
        ((audio[8]! & 0x7f) << 7) |
        (audio[9]! & 0x7f));
  }
  for (; i + 3 < audio.length; i++) {
    if (audio[i] !== 0xff || (audio[i + 1]! & 0xe0) !== 0xe0) continue;
    const version = (audio[i + 1]! >> 3) & 0x03; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
    const layer = (audio[i + 1]! >> 1) & 0x03; // 1: Layer III
    const kbps = (version === 3 ? KBPS_V1 : KBPS_V2)[audio[i + 2]! >> 4];
    const rate = RATES[version]?.[(audio[i + 2]! >> 2) & 0x03];
    if (version === 1 || layer !== 1 || !kbps || !rate) continue;
    return { sampleRateHertz: rate, seconds: ((totalBytes - i) * 8) / (kbps * 1000) };
  }
  return null;
}
