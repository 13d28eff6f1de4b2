// The fixed traffic of the cost bench: one account's day in small numbers, placed through the
// emulator's simulator at simulated times. Voicemails first, then missed calls (each opens the
// caller's callback), SMS, connected calls, and last the agents calling the missed callers back
// (connected calls that close those callbacks). Every connected call is recorded and transcribed.
import type { SeedStack } from '../simulation/stack';

export interface MixCounts {
  connected: number;
  missed: number;
  sms: number;
  voicemail: number;
}

export type CallKind = 'connected' | 'callback_reached' | 'missed' | 'voicemail';

export interface PlacedCall {
  kind: CallKind;
  scenario: string;
  callId: number;
  number: string;
  /** Simulated seconds from the start of the traffic. */
  at: number;
}

export interface PlacedSms {
  eventId: string;
  number: string;
  at: number;
}

interface Planned {
  at: number;
  kind: CallKind | 'sms';
  scenario?: string;
  number: string;
  talkS?: number;
}

const MISSED_SCENARIOS = ['inbound_missed', 'inbound_queue_missed'];
const CONNECTED_SCENARIOS = ['inbound_answered', 'inbound_queue_answered'];

/**
 * The day's traffic at simulated seconds: voicemails, missed calls, SMS and the connected calls in
 * the first hour, the missed callers reached in the second (within callbacks.expireAfter). Of the
 * `connected` calls, up to `missed` are the agents' calls back to the missed callers.
 */
export function planMix(counts: MixCounts, numbers: readonly string[]): Planned[] {
  const pool = [...numbers];
  const take = (): string => {
    const n = pool.shift();
    if (!n) throw new Error('not enough platform numbers for the mix');
    return n;
  };
  const plan: Planned[] = [];
  const firstHour = counts.voicemail + counts.missed + counts.sms + counts.connected;
  const step = Math.floor(3600 / Math.max(1, firstHour));
  let at = 0;
  const next = (): number => (at += step) - step;
  for (let i = 0; i < counts.voicemail; i++)
    plan.push({ at: next(), kind: 'voicemail', scenario: 'inbound_voicemail', number: take() });
  const missed: string[] = [];
  for (let i = 0; i < counts.missed; i++) {
    const number = take();
    missed.push(number);
    plan.push({ at: next(), kind: 'missed', scenario: MISSED_SCENARIOS[i % 2]!, number });
  }
  for (let i = 0; i < counts.sms; i++) plan.push({ at: next(), kind: 'sms', number: take() });
  const reached = Math.min(missed.length, counts.connected);
  for (let i = 0; i < counts.connected - reached; i++)
    plan.push({
      at: next(),
      kind: 'connected',
      scenario: CONNECTED_SCENARIOS[i % 2]!,
      number: take(),
      talkS: 180,
    });
  const backStep = Math.floor(3600 / Math.max(1, reached));
  missed.slice(0, reached).forEach((number, i) =>
    plan.push({
      at: 3600 + i * backStep,
      kind: 'callback_reached',
      scenario: 'outbound_answered',
      number,
      talkS: 120,
    }),
  );
  return plan.sort((a, b) => a.at - b.at);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Places the plan at its times (`speed` simulated seconds per real second). */
export async function playMix(
  stack: SeedStack,
  plan: readonly Planned[],
  speed: number,
  log: (m: string) => void,
): Promise<{ calls: PlacedCall[]; sms: PlacedSms[] }> {
  const started = Date.now();
  const calls: PlacedCall[] = [];
  const sms: PlacedSms[] = [];
  for (const p of plan) {
    const wait = started + (p.at * 1000) / speed - Date.now();
    if (wait > 0) await sleep(wait);
    if (p.kind === 'sms') {
      const { event } = (await stack.control('POST', '/simulator/sms', { from: p.number })) as {
        event: { id: string };
      };
      sms.push({ eventId: event.id, number: p.number, at: p.at });
      continue;
    }
    const placed = (await stack.control('POST', '/simulator/calls', {
      scenario: p.scenario,
      caller: p.number,
      ...(p.kind === 'connected' || p.kind === 'callback_reached' ? { recorded: true } : {}),
      ...(p.talkS !== undefined ? { talk_s: p.talkS } : {}),
    })) as { call_id: number };
    calls.push({ kind: p.kind, scenario: p.scenario!, callId: placed.call_id, number: p.number, at: p.at });
    log(`placed ${p.kind} call ${placed.call_id} (${p.scenario})`);
  }
  return { calls, sms };
}
