import type { Row } from '../store/types';
import { sipDialog, type Endpoint } from './sip-dialog';

// A libpcap capture (Ethernet, IPv4, UDP) of a call: its SIP dialog and a short burst of RTP each way.

/** libpcap magic number, microsecond timestamps. */
export const PCAP_MAGIC = 0xa1b2c3d4;
const LINKTYPE_ETHERNET = 1;
/** RTP packets per direction: one second of 20 ms packets, enough to see the stream in a player. */
const RTP_PACKETS = 50;
const RTP_PAYLOAD = 160;

interface Packet {
  at: number;
  from: Endpoint;
  to: Endpoint;
  payload: Buffer;
}

function ipBytes(ip: string): number[] {
  return ip.split('.').map((p) => Number(p) & 0xff);
}

function mac(ip: string): Buffer {
  return Buffer.from([0x02, 0x00, ...ipBytes(ip)]);
}

function ipChecksum(header: Buffer): number {
  let sum = 0;
  for (let i = 0; i < header.length; i += 2) sum += header.readUInt16BE(i);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return ~sum & 0xffff;
}

/** One Ethernet frame: Ethernet II, IPv4 (checksummed), UDP (checksum 0: optional over IPv4). */
function frame(p: Packet, ipId: number): Buffer {
  const udpLen = 8 + p.payload.length;
  const eth = Buffer.concat([mac(p.to.ip), mac(p.from.ip), Buffer.from([0x08, 0x00])]);
  const ip = Buffer.alloc(20);
  ip[0] = 0x45;
  ip[1] = p.payload.length === 12 + RTP_PAYLOAD ? 0xb8 : 0x68; // DSCP EF for RTP, CS3 for SIP
  ip.writeUInt16BE(20 + udpLen, 2);
  ip.writeUInt16BE(ipId & 0xffff, 4);
  ip.writeUInt16BE(0x4000, 6); // don't fragment
  ip[8] = 64;
  ip[9] = 17; // UDP
  Buffer.from(ipBytes(p.from.ip)).copy(ip, 12);
  Buffer.from(ipBytes(p.to.ip)).copy(ip, 16);
  ip.writeUInt16BE(ipChecksum(ip), 10);
  const udp = Buffer.alloc(8);
  udp.writeUInt16BE(p.from.port, 0);
  udp.writeUInt16BE(p.to.port, 2);
  udp.writeUInt16BE(udpLen, 4);
  return Buffer.concat([eth, ip, udp, p.payload]);
}

function rtp(pt: number, seq: number, timestamp: number, ssrc: number): Buffer {
  const b = Buffer.alloc(12 + RTP_PAYLOAD, pt === 0 ? 0xff : 0xd5); // G.711 silence
  b[0] = 0x80;
  b[1] = (seq === 0 ? 0x80 : 0) | (pt & 0x7f); // marker on the first packet
  b.writeUInt16BE(seq & 0xffff, 2);
  b.writeUInt32BE(timestamp >>> 0, 4);
  b.writeUInt32BE(ssrc >>> 0, 8);
  return b;
}

/** The packets of a call record's capture, in time order. */
function packets(row: Row): Packet[] {
  const dialog = sipDialog(row);
  const out: Packet[] = dialog.messages.map((m) => ({
    at: m.at,
    from: m.from,
    to: m.to,
    payload: Buffer.from(m.text, 'utf8'),
  }));
  const media = dialog.media;
  if (media !== undefined) {
    const n = Math.min(RTP_PACKETS, Math.max(1, Math.floor((media.end - media.start) / 0.02)));
    for (let i = 0; i < n; i++) {
      const at = media.start + i * 0.02;
      out.push({
        at,
        from: media.caller,
        to: media.callee,
        payload: rtp(media.payloadType, i, i * 160, 0x1234abcd),
      });
      out.push({
        at: at + 0.001,
        from: media.callee,
        to: media.caller,
        payload: rtp(media.payloadType, i, i * 160, 0x5678ef01),
      });
    }
  }
  return out.sort((a, b) => a.at - b.at);
}

/** A valid libpcap file (magic a1b2c3d4, Ethernet) of the call's SIP signalling and some RTP. */
export function pcapFile(row: Row): Buffer {
  const global = Buffer.alloc(24);
  global.writeUInt32LE(PCAP_MAGIC, 0);
  global.writeUInt16LE(2, 4);
  global.writeUInt16LE(4, 6);
  global.writeInt32LE(0, 8); // thiszone
  global.writeUInt32LE(0, 12); // sigfigs
  global.writeUInt32LE(65_535, 16); // snaplen
  global.writeUInt32LE(LINKTYPE_ETHERNET, 20);
  const parts: Buffer[] = [global];
  for (const [i, p] of packets(row).entries()) {
    const data = frame(p, i + 1);
    const rec = Buffer.alloc(16);
    const usec = Math.round(p.at * 1e6);
    rec.writeUInt32LE(Math.floor(usec / 1e6), 0);
    rec.writeUInt32LE(usec % 1e6, 4);
    rec.writeUInt32LE(data.length, 8);
    rec.writeUInt32LE(data.length, 12);
    parts.push(rec, data);
  }
  return Buffer.concat(parts);
}
