// Building live-call rows for click-to-call and lead calls, and the SIP trace entries of a call.
import { randomUUID } from 'node:crypto';
import { sipDialog } from '../../media';
import type { EmulatorClock, Row } from '../../store';

/** Numeric live-call state of a call that has just been placed (INITIAL). */
const STATE_INITIAL = 0;
/** Live-call `destination` code of an outbound call. */
const DESTINATION_OUT = 1;

function text(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** A new live call from a user to a number, in the Live Call field set (times are epoch seconds). */
export function liveCallRow(
  clock: EmulatorClock,
  user: Row,
  opts: { to: string; callerId?: string; tts?: string },
): Record<string, unknown> {
  const name = `${text(user.first_name)} ${text(user.last_name)}`.trim();
  const src = opts.callerId ?? (text(user.cli) || text(user.ext));
  return {
    clid: opts.callerId === 'anonymous' ? 'anonymous' : `"${name}" <${src}>`,
    connected_at: 0,
    context: 'PSTN_CALL',
    destination: DESTINATION_OUT,
    dst: opts.to,
    dst_call_id: randomUUID(),
    dst_codec: 'PCMA',
    dst_connection: 0,
    dst_contact: '',
    dst_id: '',
    dst_name: '',
    dst_rate: 0.02,
    dst_ua: '',
    duration: 0,
    min_charge: 0,
    monitor_state: 0,
    parent_id: 0,
    queue_state: '',
    referred_by: '',
    src,
    src_call_id: randomUUID(),
    src_codec: 'PCMA',
    src_contact: '',
    src_id: String(user.id),
    src_name: name,
    src_rate: 0,
    src_ua: 'callsync-emulator',
    start_time: Math.floor(clock.now().getTime() / 1000),
    state: STATE_INITIAL,
    ...(opts.tts !== undefined ? { tts: opts.tts } : {}),
  };
}

function dateString(epochSeconds: number): string {
  return new Date(Math.floor(epochSeconds) * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** A live call seen as the call record it will become, up to now. */
function asRecord(live: Row, nowSeconds: number): Row {
  const start = typeof live.start_time === 'number' ? live.start_time : nowSeconds;
  const connectedAt = typeof live.connected_at === 'number' ? live.connected_at : 0;
  return {
    ...live,
    calldate: dateString(start),
    duration: Math.max(0, nowSeconds - start),
    billsec: connectedAt > 0 ? Math.max(0, nowSeconds - connectedAt) : 0,
  };
}

/**
 * The SIP messages of a call as call-trace collection entries: the same dialog as the .trace and .pcap
 * files of its CDR. A live call shows the messages exchanged so far.
 */
export function callTraceEntries(source: Row, isLive: boolean, clock: EmulatorClock): Row[] {
  const nowSeconds = Math.floor(clock.now().getTime() / 1000);
  const dialog = sipDialog(isLive ? asRecord(source, nowSeconds) : source);
  const messages = isLive ? dialog.messages.filter((m) => m.at < nowSeconds) : dialog.messages;
  return messages.map((m, i) => {
    const firstLine = m.text.slice(0, m.text.indexOf('\r\n'));
    return {
      id: i + 1,
      created_at: dateString(m.at),
      call_id: dialog.callId,
      method: firstLine.startsWith('SIP/2.0 ') ? firstLine.slice('SIP/2.0 '.length) : firstLine.split(' ')[0],
      from: `${m.from.ip}:${m.from.port}`,
      to: `${m.to.ip}:${m.to.port}`,
      message: m.text,
    };
  });
}
