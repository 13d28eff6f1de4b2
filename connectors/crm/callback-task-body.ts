// The text a callback task carries in the CRM: the caller's missed calls, the callback attempts, and
// why the callback ended (the call that reached the caller, or the policy giving up). Pure.

/** What the body is made of. */
export interface CallbackTaskFacts {
  number: string;
  status: 'open' | 'closed' | 'expired';
  missed: readonly { callId: number; at: string; queueId: number | null }[];
  dialAttempts: readonly { at: string; outcome: string }[];
  /** The call that reached the caller, once closed. */
  closedByCallId?: number | null | undefined;
  /** How long the callback stayed open after its latest missed call (default a week). */
  expireAfterMs?: number | undefined;
}

const UNITS: readonly [string, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** "7 days", "1 day", "36 hours", "90 seconds": a duration in its largest whole unit. */
export function durationText(ms: number): string {
  const [name, size] = UNITS.find(([, size]) => ms >= size && ms % size === 0) ??
    UNITS.find(([, size]) => ms >= size) ?? ['second', 1000];
  const n = Math.round(ms / size);
  return `${n} ${name}${n === 1 ? '' : 's'}`;
}

/** The body's lines: the missed calls, the dial attempts, and why the callback ended. */
export function callbackTaskLines(t: CallbackTaskFacts): string[] {
  const n = t.missed.length;
  return [
    `${n} missed call${n === 1 ? '' : 's'} from ${t.number}:`,
    ...t.missed.map((m) => `- ${m.at} UTC (call ${m.callId}${m.queueId ? `, queue ${m.queueId}` : ''})`),
    ...(t.dialAttempts.length > 0
      ? ['Callback attempts:', ...t.dialAttempts.map((a) => `- ${a.at} UTC: ${a.outcome}`)]
      : []),
    ...(t.status === 'closed' && t.closedByCallId != null ? [`Reached by call ${t.closedByCallId}`] : []),
    ...(t.status === 'expired'
      ? [`Expired: nobody reached the caller within ${durationText(t.expireAfterMs ?? 7 * 86_400_000)}`]
      : []),
  ];
}
