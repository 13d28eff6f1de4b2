import { cdrsCsv, MP3_FORMAT, mp3Tone, PCAP_MAGIC, pcapFile, sipTrace } from '../../emulator/media';
import type { Row } from '../../emulator/store';

const BITRATES_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const SAMPLE_RATES = [44_100, 48_000, 32_000];

class BitReader {
  private pos = 0;
  constructor(
    private readonly buf: Buffer,
    start: number,
  ) {
    this.pos = start * 8;
  }
  read(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++, this.pos++)
      v = (v << 1) | ((this.buf[this.pos >>> 3]! >>> (7 - (this.pos & 7))) & 1);
    return v;
  }
}

/** Decodes big_values pairs with Huffman table 1 (1 -> 0,0; 01 -> 1,0; 001 -> 0,1; 000 -> 1,1) plus signs. */
function decodeTable1(r: BitReader, pairs: number): number[] {
  const out: number[] = [];
  for (let p = 0; p < pairs; p++) {
    let zeros = 0;
    while (zeros < 3 && r.read(1) === 0) zeros++;
    let [x, y] = (
      [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const
    )[zeros]!.slice() as [number, number];
    if (x !== 0 && r.read(1) === 1) x = -x;
    if (y !== 0 && r.read(1) === 1) y = -y;
    out.push(x, y);
  }
  return out;
}

function parseMp3(buf: Buffer): { frames: number; lines: number[] } {
  expect(buf.subarray(0, 3).toString('latin1')).toBe('ID3');
  const tagSize =
    ((buf[6]! & 0x7f) << 21) | ((buf[7]! & 0x7f) << 14) | ((buf[8]! & 0x7f) << 7) | (buf[9]! & 0x7f);
  let at = 10 + tagSize;
  let frames = 0;
  const lines: number[] = [];
  while (at < buf.length) {
    // Frame sync (11 bits), MPEG-1, Layer III, no CRC.
    expect(buf[at]).toBe(0xff);
    expect(buf[at + 1]! & 0xfe).toBe(0xfa);
    const bitrate = BITRATES_KBPS[buf[at + 2]! >>> 4]! * 1000;
    const rate = SAMPLE_RATES[(buf[at + 2]! >>> 2) & 3]!;
    const padding = (buf[at + 2]! >>> 1) & 1;
    expect(bitrate).toBeGreaterThan(0);
    expect(rate).toBeDefined();
    expect(buf[at + 3]! >>> 6).toBe(3); // mono
    const length = Math.floor((144 * bitrate) / rate) + padding;
    // Side info of the two granules, then their Huffman data from the start of the main data.
    const r = new BitReader(buf, at + 4);
    expect(r.read(9)).toBe(0); // main_data_begin
    r.read(5 + 4);
    const granules = [0, 1].map(() => {
      const g = { part23: r.read(12), bigValues: r.read(9), gain: r.read(8), sfc: r.read(4), ws: r.read(1) };
      const tables = [r.read(5), r.read(5), r.read(5)];
      r.read(4 + 3 + 3);
      expect(g.sfc).toBe(0);
      expect(g.ws).toBe(0);
      expect(tables).toEqual([1, 1, 1]);
      return g;
    });
    const main = new BitReader(buf, at + 4 + 17);
    for (const g of granules) {
      const values = decodeTable1(main, g.bigValues);
      const nonZero = values.flatMap((v, i) => (v !== 0 ? [i] : []));
      expect(nonZero).toHaveLength(1);
      lines.push(nonZero[0]!);
    }
    at += length;
    frames++;
  }
  expect(at).toBe(buf.length);
  return { frames, lines };
}

describe('mp3Tone', () => {
  it('is an ID3-tagged stream of valid MPEG-1 Layer III frames of the requested length', () => {
    const buf = mp3Tone({ seconds: 2, frequencyHz: 1000 });
    const { frames, lines } = parseMp3(buf);
    expect(frames).toBe(Math.ceil((2 * MP3_FORMAT.sampleRate) / 1152));
    // 1000 Hz = line 24 of 576 at 48 kHz (41.67 Hz per line).
    expect(new Set(lines)).toEqual(new Set([24]));
  });

  it('varies the tone with the seed and caches identical requests', () => {
    const a = mp3Tone({ seconds: 1, seed: 1 });
    const b = mp3Tone({ seconds: 1, seed: 2 });
    expect(parseMp3(a).lines[0]).not.toBe(parseMp3(b).lines[0]);
    expect(mp3Tone({ seconds: 1, seed: 1 })).toBe(a);
    expect(parseMp3(mp3Tone({ seconds: 0.01 })).frames).toBe(5); // at least 0.1 s
  });
});

const connected: Row = {
  id: 5000123,
  live_id: 880001234,
  calldate: '2026-10-01 09:15:00',
  duration: 95,
  billsec: 80,
  disposition: 'CONNECTED',
  src: '+442079460123',
  src_name: 'Jane "JJ" Doe',
  dst: '101',
  src_codec: 'PCMA',
  t_cause: 'Normal Clearing',
};
const busy: Row = {
  ...connected,
  id: 5000124,
  billsec: 0,
  disposition: 'RINGING',
  t_cause: 'User busy',
  duration: 12,
};

function parsePcap(buf: Buffer): { linktype: number; packets: Buffer[]; times: number[] } {
  expect(buf.readUInt32LE(0)).toBe(PCAP_MAGIC);
  expect([buf.readUInt16LE(4), buf.readUInt16LE(6)]).toEqual([2, 4]);
  const packets: Buffer[] = [];
  const times: number[] = [];
  let at = 24;
  while (at < buf.length) {
    const incl = buf.readUInt32LE(at + 8);
    expect(buf.readUInt32LE(at + 12)).toBe(incl);
    times.push(buf.readUInt32LE(at) + buf.readUInt32LE(at + 4) / 1e6);
    packets.push(buf.subarray(at + 16, at + 16 + incl));
    at += 16 + incl;
  }
  expect(at).toBe(buf.length);
  return { linktype: buf.readUInt32LE(20), packets, times };
}

function udpPayload(frame: Buffer): Buffer {
  expect(frame.readUInt16BE(12)).toBe(0x0800); // IPv4
  const ip = frame.subarray(14, 34);
  expect(ip[9]).toBe(17); // UDP
  let sum = 0;
  for (let i = 0; i < 20; i += 2) sum += ip.readUInt16BE(i);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  expect(sum).toBe(0xffff); // header checksum verifies
  expect(ip.readUInt16BE(2)).toBe(frame.length - 14);
  const udpLen = frame.readUInt16BE(34 + 4);
  expect(udpLen).toBe(frame.length - 34);
  return frame.subarray(42);
}

describe('pcapFile and sipTrace', () => {
  it('captures the SIP dialog and RTP of a connected call', () => {
    const { linktype, packets, times } = parsePcap(pcapFile(connected));
    expect(linktype).toBe(1);
    const payloads = packets.map(udpPayload);
    const sip = payloads.map((p) => p.toString('utf8')).filter((t) => /^(SIP\/2\.0|[A-Z]+ sip:)/.test(t));
    expect(sip.map((t) => (t.split(' ')[0] === 'SIP/2.0' ? t.split(' ')[1] : t.split(' ')[0]))).toEqual([
      'INVITE',
      '100',
      '180',
      '200',
      'ACK',
      'BYE',
      '200',
    ]);
    const rtp = payloads.filter((p) => p[0] === 0x80);
    expect(rtp.length).toBeGreaterThan(10);
    expect(rtp[0]![1]! & 0x7f).toBe(8); // PCMA
    expect(times[0]).toBe(Date.parse('2026-10-01T09:15:00Z') / 1000);
    const bye = times[payloads.findIndex((p) => p.toString('utf8').startsWith('BYE'))]!;
    expect(bye - times[0]!).toBeCloseTo(95, 3);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('ends an unanswered call with the failure matching its t_cause', () => {
    const { packets } = parsePcap(pcapFile(busy));
    const texts = packets.map((p) => udpPayload(p).toString('utf8'));
    expect(texts.some((t) => t.startsWith('SIP/2.0 486 Busy Here'))).toBe(true);
    expect(texts.some((t) => t.startsWith('BYE'))).toBe(false);
    expect(texts.every((t) => !t.startsWith('\u0080'))).toBe(true);
  });

  it('writes the same dialog as text', () => {
    const trace = sipTrace(connected);
    expect(trace.startsWith('U 2026-10-01 09:15:00.000 ')).toBe(true);
    expect(trace).toContain('INVITE sip:101@');
    expect(trace).toContain('From: "Jane "JJ" Doe" <sip:+442079460123@');
    expect(trace).toContain('a=rtpmap:8 PCMA/8000');
    expect(trace.match(/^U /gm)).toHaveLength(7);
    expect(sipTrace(busy)).toContain('SIP/2.0 486 Busy Here');
  });
});

/** A strict RFC 4180 reader, to check the writer. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else if (c === '"' || c === '\n' || c === '\r') throw new Error(`bare ${JSON.stringify(c)} at ${i}`);
    else field += c;
    i++;
  }
  if (field !== '' || row.length > 0) throw new Error('missing final CRLF');
  return rows;
}

describe('cdrsCsv', () => {
  it('round-trips awkward values through an RFC 4180 reader', () => {
    const rows: Row[] = [
      {
        id: 1,
        clid: '"Smith, John" <+441234>',
        info: 'line1\nline2',
        charge: 0.0125,
        is_root: true,
        note: null,
      },
      { id: 2, clid: 'Zoë Müller', info: 'ends with quote"', charge: 0, is_root: false, extra: { a: 1 } },
    ];
    const parsed = parseCsv(cdrsCsv(rows));
    expect(parsed[0]).toEqual(['id', 'clid', 'info', 'charge', 'is_root', 'note', 'extra']);
    expect(parsed[1]).toEqual(['1', '"Smith, John" <+441234>', 'line1\nline2', '0.0125', 'true', '', '']);
    expect(parsed[2]).toEqual(['2', 'Zoë Müller', 'ends with quote"', '0', 'false', '', '{"a":1}']);
    expect(cdrsCsv([])).toBe('\r\n');
  });
});
