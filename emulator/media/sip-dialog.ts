import type { Row } from '../store/types';

// The SIP dialog behind a CDR (or MSDR): the same messages feed the text trace and the PCAP, so the two
// agree with each other and with the record (numbers, codecs, ring time, talk time, hang-up cause).

export interface Endpoint {
  ip: string;
  port: number;
}

export interface SipMessage {
  /** Epoch seconds (fractional). */
  at: number;
  from: Endpoint;
  to: Endpoint;
  text: string;
}

export interface SipDialog {
  callId: string;
  messages: SipMessage[];
  /** When media flowed, for RTP packets: start, end (epoch seconds) and the negotiated payload type. */
  media?: { start: number; end: number; payloadType: number; caller: Endpoint; callee: Endpoint };
}

const PBX_HOST = 'pbx.callsync.example';
const PBX: Endpoint = { ip: '198.51.100.10', port: 5060 };
const PAYLOAD_TYPES: Record<string, [number, string]> = {
  PCMU: [0, 'PCMU/8000'],
  PCMA: [8, 'PCMA/8000'],
  G722: [9, 'G722/8000'],
  opus: [111, 'opus/48000/2'],
};
const FAILURES: Record<string, [number, string]> = {
  'User busy': [486, 'Busy Here'],
  'No user responding': [480, 'Temporarily Unavailable'],
  'Call rejected': [603, 'Decline'],
  'Unallocated number': [404, 'Not Found'],
  'Originator cancel': [487, 'Request Terminated'],
};

function text(v: unknown, fallback = ''): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : fallback;
}

function num(v: unknown, fallback = 0): number {
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : fallback;
}

/** A small deterministic hash, so tags and ports follow from the record. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

function startOf(row: Row): number {
  const date = text(row.calldate) || text(row.created_at) || '1970-01-01 00:00:00';
  const ms = Date.parse(`${date.replace(' ', 'T')}Z`);
  return Number.isFinite(ms) ? ms / 1000 : 0;
}

/** The dialog of a call record: INVITE, 100, 180, then 200/ACK/BYE/200 or a failure response and ACK. */
export function sipDialog(row: Row): SipDialog {
  const id = text(row.id, '0');
  const h = hash(`${id}:${text(row.live_id)}:${text(row.call_id)}`);
  const callId = /[a-z]/i.test(text(row.call_id))
    ? text(row.call_id)
    : `${text(row.live_id, id)}-${h.toString(16)}@${PBX_HOST}`;
  const caller: Endpoint = { ip: `192.0.2.${(h % 200) + 20}`, port: 5060 };
  const src = text(row.src, 'anonymous');
  const dst = text(row.dst, 'unknown');
  const srcName = text(row.src_name);
  const duration = Math.max(0, num(row.duration));
  // MSDRs have no billsec: a session that ended normally was connected nearly all along.
  const talked =
    row.billsec === undefined && !(text(row.t_cause) in FAILURES) ? Math.max(0, duration - 3) : 0;
  const billsec = Math.min(duration, Math.max(0, num(row.billsec, talked)));
  const connected = billsec > 0 || text(row.disposition) === 'CONNECTED';
  const ring = Math.max(1, duration - billsec);
  const t0 = startOf(row);
  const codec = text(row.src_codec) || text(row.dst_codec) || 'PCMA';
  const [pt, rtpmap] = PAYLOAD_TYPES[codec] ?? [8, 'PCMA/8000'];
  const fromTag = (h >>> 4).toString(16);
  const toTag = (h >>> 12).toString(16);
  const branch = `z9hG4bK${h.toString(36)}`;
  const rtpPort = 10_000 + (h % 5000) * 2;
  const ua = text(row.src_ua) || 'callsync-emulator';
  const sdp = (ip: string, port: number): string =>
    [
      'v=0',
      `o=- ${h} ${h} IN IP4 ${ip}`,
      's=call',
      `c=IN IP4 ${ip}`,
      't=0 0',
      `m=audio ${port} RTP/AVP ${pt} 101`,
      `a=rtpmap:${pt} ${rtpmap}`,
      'a=rtpmap:101 telephone-event/8000',
      'a=sendrecv',
      '',
    ].join('\r\n');
  const request = (method: string, cseq: number, withTo: boolean, body = ''): string =>
    [
      `${method} sip:${dst}@${PBX_HOST} SIP/2.0`,
      `Via: SIP/2.0/UDP ${caller.ip}:${caller.port};branch=${branch}${method === 'ACK' && connected ? 'ack' : ''}`,
      'Max-Forwards: 70',
      `From: ${srcName !== '' ? `"${srcName}" ` : ''}<sip:${src}@${PBX_HOST}>;tag=${fromTag}`,
      `To: <sip:${dst}@${PBX_HOST}>${withTo ? `;tag=${toTag}` : ''}`,
      `Call-ID: ${callId}`,
      `CSeq: ${cseq} ${method === 'ACK' ? 'ACK' : method}`,
      `Contact: <sip:${src}@${caller.ip}:${caller.port}>`,
      `User-Agent: ${ua}`,
      ...(body !== '' ? ['Content-Type: application/sdp'] : []),
      `Content-Length: ${Buffer.byteLength(body)}`,
      '',
      body,
    ].join('\r\n');
  const response = (code: number, reason: string, cseq: string, withTo: boolean, body = ''): string =>
    [
      `SIP/2.0 ${code} ${reason}`,
      `Via: SIP/2.0/UDP ${caller.ip}:${caller.port};branch=${branch}`,
      `From: ${srcName !== '' ? `"${srcName}" ` : ''}<sip:${src}@${PBX_HOST}>;tag=${fromTag}`,
      `To: <sip:${dst}@${PBX_HOST}>${withTo ? `;tag=${toTag}` : ''}`,
      `Call-ID: ${callId}`,
      `CSeq: ${cseq}`,
      ...(code === 200 ? [`Contact: <sip:${dst}@${PBX.ip}:${PBX.port}>`] : []),
      'Server: callsync-emulator PBX',
      ...(body !== '' ? ['Content-Type: application/sdp'] : []),
      `Content-Length: ${Buffer.byteLength(body)}`,
      '',
      body,
    ].join('\r\n');
  const up = (at: number, t: string): SipMessage => ({ at, from: caller, to: PBX, text: t });
  const down = (at: number, t: string): SipMessage => ({ at, from: PBX, to: caller, text: t });
  const messages: SipMessage[] = [
    up(t0, request('INVITE', 1, false, sdp(caller.ip, rtpPort))),
    down(t0 + 0.02, response(100, 'Trying', '1 INVITE', false)),
    down(t0 + Math.min(1, ring / 2), response(180, 'Ringing', '1 INVITE', true)),
  ];
  if (connected) {
    const answered = t0 + ring;
    const end = t0 + duration;
    messages.push(
      down(answered, response(200, 'OK', '1 INVITE', true, sdp(PBX.ip, rtpPort + 2))),
      up(answered + 0.03, request('ACK', 1, true)),
      up(end, request('BYE', 2, true)),
      down(end + 0.02, response(200, 'OK', '2 BYE', true)),
    );
    return {
      callId,
      messages,
      media: {
        start: answered + 0.05,
        end,
        payloadType: pt,
        caller: { ip: caller.ip, port: rtpPort },
        callee: { ip: PBX.ip, port: rtpPort + 2 },
      },
    };
  }
  const [code, reason] = FAILURES[text(row.t_cause)] ?? [480, 'Temporarily Unavailable'];
  const failedAt = t0 + ring;
  if (code === 487) {
    messages.push(
      up(failedAt - 0.05, request('CANCEL', 1, false)),
      down(failedAt - 0.03, response(200, 'OK', '1 CANCEL', false)),
    );
  }
  messages.push(
    down(failedAt, response(code, reason, '1 INVITE', true)),
    up(failedAt + 0.02, request('ACK', 1, true)),
  );
  return { callId, messages };
}
