// The traffic of a simulated call-centre day, drawn from a seed: who calls when, in which scenario,
// which calls last hours, which callers text, and when the stack is disturbed (an outage of the
// receiver, restarts of the worker and of the receiver). Pure: the same seed and caller pool give
// the same plan, so a failing seed can be replayed.
import { mulberry32 } from '../../lib/seeded-random';

/** Simulated seconds in a day. */
export const DAY_S = 86_400;

/** A call the harness places (through the emulator's simulator) at `at` simulated seconds. */
export interface PlannedCall {
  kind: 'call';
  at: number;
  scenario: string;
  /** The outside party: the caller of inbound calls, the callee of outbound ones (E.164). */
  number: string;
  /** Talk time in simulated seconds, for the calls that last hours (others draw their own). */
  talkS?: number;
}

/** An SMS a caller sends at `at`. */
export interface PlannedSms {
  kind: 'sms';
  at: number;
  number: string;
}

/** Something that happens to the stack, not to the traffic. */
export interface PlannedDisruption {
  kind: 'outage' | 'worker_restart' | 'receiver_restart';
  at: number;
  /** How long the receiver stays down (outage), in simulated seconds. */
  durationS?: number;
}

export interface DayPlan {
  traffic: (PlannedCall | PlannedSms)[];
  disruptions: PlannedDisruption[];
  /** When the last planned traffic starts (simulated seconds from the start). */
  endsAt: number;
}

export interface DayPlanOptions {
  seed: number;
  /** Simulated days (fractions allowed: 0.25 is the first six hours of a day). */
  days: number;
  /** Calls placed per simulated day (callers calling again included). */
  callsPerDay: number;
  /** Numbers the platform knows as contacts (a CRM may know them too). */
  knownNumbers: readonly string[];
  /** Numbers nobody knows. */
  unknownNumbers: readonly string[];
}

/**
 * Scenario weights of a caller's calls: mostly inbound, some outbound calls by agents (who call
 * back missed callers too), and enough misses that callbacks open, close and expire.
 */
export const SCENARIO_MIX: Readonly<Record<string, number>> = {
  inbound_answered: 16,
  inbound_queue_answered: 14,
  inbound_ring_group: 10,
  inbound_queue_missed: 9,
  inbound_missed: 9,
  inbound_voicemail: 5,
  outbound_answered: 14,
  outbound_failed: 6,
  hold_unhold: 4,
  blind_transfer: 5,
  ivr_dtmf: 4,
};

/** Scenarios whose calls can be talked through for hours (they connect). */
const CAN_LAST = new Set(['inbound_answered', 'inbound_queue_answered', 'outbound_answered', 'hold_unhold']);

/** Share of hours of a day that calls arrive in, by hour (a call centre's day: 8 to 18 busy). */
const HOUR_WEIGHTS = [
  0.2, 0.1, 0.1, 0.1, 0.1, 0.2, 0.5, 1.5, 4, 6, 6, 5.5, 4.5, 5, 5.5, 5.5, 5, 4, 2, 1, 0.8, 0.6, 0.4, 0.3,
];

class Draw {
  constructor(private readonly next: () => number) {}
  float(): number {
    return this.next();
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  weighted<T extends string>(weights: Readonly<Record<T, number>>): T {
    const entries = Object.entries(weights) as [T, number][];
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [k, w] of entries) {
      r -= w;
      if (r < 0) return k;
    }
    return entries.at(-1)![0];
  }
  /** A second of a day, busy hours more likely. */
  secondOfDay(): number {
    const hours = Object.fromEntries(HOUR_WEIGHTS.map((w, h) => [String(h), w])) as Record<string, number>;
    const hour = Number(this.weighted(hours));
    return hour * 3600 + this.int(0, 3599);
  }
}

/** The plan of `days` simulated days for `seed`. */
export function planDays(opts: DayPlanOptions): DayPlan {
  if (opts.knownNumbers.length === 0) throw new Error('knownNumbers: give at least one number');
  const d = new Draw(mulberry32(opts.seed * 7919 + 17));
  const traffic: (PlannedCall | PlannedSms)[] = [];
  const disruptions: PlannedDisruption[] = [];
  const span = opts.days * DAY_S;
  const wholeDays = Math.ceil(opts.days);
  for (let day = 0; day < wholeDays; day++) {
    const base = day * DAY_S;
    // Callers make one to four calls a day; a few are frequent (the same numbers come back).
    const callers = Math.max(3, Math.round(opts.callsPerDay / 2.2));
    for (let c = 0; c < callers; c++) {
      const known = d.chance(0.8) || opts.unknownNumbers.length === 0;
      const number = known ? d.pick(opts.knownNumbers) : d.pick(opts.unknownNumbers);
      const calls = d.weighted({ '1': 4, '2': 3, '3': 2, '4': 1 });
      for (let k = 0; k < Number(calls); k++) {
        const at = base + d.secondOfDay();
        const scenario = d.weighted(SCENARIO_MIX);
        const long = CAN_LAST.has(scenario) && d.chance(0.05);
        traffic.push({
          kind: 'call',
          at,
          scenario,
          number,
          ...(long ? { talkS: d.int(2 * 3600 + 600, 5 * 3600) } : {}),
        });
      }
      if (d.chance(0.12)) traffic.push({ kind: 'sms', at: base + d.secondOfDay(), number });
    }
    // The stack is disturbed during the busy hours: the receiver goes away for two to three hours
    // (the platform redelivers later), the worker and the receiver restart mid-call.
    disruptions.push({
      kind: 'outage',
      at: base + d.int(10, 11) * 3600,
      durationS: d.int(2 * 3600, 3 * 3600),
    });
    disruptions.push({ kind: 'worker_restart', at: base + d.int(14, 15) * 3600 + d.int(0, 3599) });
    disruptions.push({ kind: 'receiver_restart', at: base + d.int(16, 17) * 3600 + d.int(0, 3599) });
  }
  const inSpan = <T extends { at: number }>(xs: T[]) =>
    xs.filter((x) => x.at < span).sort((a, b) => a.at - b.at);
  const kept = inSpan(traffic);
  return {
    traffic: kept,
    disruptions: inSpan(disruptions),
    endsAt: kept.at(-1)?.at ?? 0,
  };
}
