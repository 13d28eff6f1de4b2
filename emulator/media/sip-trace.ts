import type { Row } from '../store/types';
import { sipDialog } from './sip-dialog';

function stamp(at: number): string {
  const d = new Date(Math.round(at * 1000));
  return d.toISOString().replace('T', ' ').replace('Z', '');
}

/** The SIP messages of a call as text: one block per message, headed by time and addresses (ngrep style). */
export function sipTrace(row: Row): string {
  const dialog = sipDialog(row);
  return dialog.messages
    .map((m) => `U ${stamp(m.at)} ${m.from.ip}:${m.from.port} -> ${m.to.ip}:${m.to.port}\r\n${m.text}`)
    .join('\r\n');
}
