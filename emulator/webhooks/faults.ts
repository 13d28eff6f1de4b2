// Delivery faults on request: duplicates, reordering, delays, drops and late deliveries, drawn from a
// seeded generator so a run can be repeated. (A slow receiver is the receiver's own behaviour, not injected
// here.)
import { z } from 'zod';
import { Rng } from '../data/prng';

/** Milliseconds, or a [min, max] range of them drawn uniformly. */
const msRange = z.union([
  z.number().int().min(0),
  z.tuple([z.number().int().min(0), z.number().int().min(0)]),
]);

function asRange(d: z.infer<typeof msRange> | undefined): [number, number] {
  if (d === undefined) return [0, 0];
  return typeof d === 'number' ? [d, d] : [Math.min(d[0], d[1]), Math.max(d[0], d[1])];
}

/** Body of POST /_emulator/webhooks/faults. */
export const deliveryFaultsBody = z.strictObject({
  duplicate_probability: z.number().min(0).max(1).optional(),
  /** Hold an event back and send it after the next event of the same call (to the same webhook). */
  reorder_probability: z.number().min(0).max(1).optional(),
  drop_probability: z.number().min(0).max(1).optional(),
  /** Extra delay before each send, drawn uniformly from [min, max] ms. */
  delay_ms: msRange.optional(),
  /**
   * Deliver an event late_delay_ms later, on its own: its call's later events do not wait for it. Real
   * platforms send events hours late; a harness converts simulated hours to these real milliseconds.
   */
  late_probability: z.number().min(0).max(1).optional(),
  /** How much later a late event goes, drawn uniformly from [min, max] ms. */
  late_delay_ms: msRange.optional(),
  /** Of the late events, the share also delivered on time (the late one is a copy); the others go only late. */
  late_again_share: z.number().min(0).max(1).optional(),
  seed: z.number().int().optional(),
});
export type DeliveryFaultsInput = z.infer<typeof deliveryFaultsBody>;

/** The active delivery faults. */
export interface DeliveryFaults {
  duplicate_probability: number;
  reorder_probability: number;
  drop_probability: number;
  delay_ms: [number, number];
  late_probability: number;
  late_delay_ms: [number, number];
  late_again_share: number;
  seed: number;
}

export const NO_FAULTS: DeliveryFaults = {
  duplicate_probability: 0,
  reorder_probability: 0,
  drop_probability: 0,
  delay_ms: [0, 0],
  late_probability: 0,
  late_delay_ms: [0, 0],
  late_again_share: 0.5,
  seed: 1,
};

/** What happens to one event on its way to one webhook. */
export interface FaultDecision {
  drop: boolean;
  duplicate: boolean;
  reorder: boolean;
  delayMs: number;
  /** Sent late by `delayMs`: as a second copy (`again`, the event also goes on time) or only then. */
  late: { delayMs: number; again: boolean } | null;
}

/** Holds the faults and draws decisions from a seeded generator. */
export class FaultPlan {
  private faults: DeliveryFaults = { ...NO_FAULTS, delay_ms: [0, 0], late_delay_ms: [0, 0] };
  private rng = new Rng(NO_FAULTS.seed);

  set(input: DeliveryFaultsInput): DeliveryFaults {
    this.faults = {
      duplicate_probability: input.duplicate_probability ?? 0,
      reorder_probability: input.reorder_probability ?? 0,
      drop_probability: input.drop_probability ?? 0,
      delay_ms: asRange(input.delay_ms),
      late_probability: input.late_probability ?? 0,
      late_delay_ms: asRange(input.late_delay_ms),
      late_again_share: input.late_again_share ?? NO_FAULTS.late_again_share,
      seed: input.seed ?? 1,
    };
    this.rng = new Rng(this.faults.seed);
    return this.get();
  }

  clear(): DeliveryFaults {
    return this.set({});
  }

  get(): DeliveryFaults {
    return {
      ...this.faults,
      delay_ms: [...this.faults.delay_ms],
      late_delay_ms: [...this.faults.late_delay_ms],
    };
  }

  /**
   * Draws the fate of one event for one webhook. Always the same number of draws for the same faults, so
   * runs repeat; late deliveries draw only when they are on, so runs without them repeat the runs made
   * before they existed.
   */
  decide(): FaultDecision {
    const f = this.faults;
    const drop = this.rng.next() < f.drop_probability;
    const duplicate = this.rng.next() < f.duplicate_probability;
    const reorder = this.rng.next() < f.reorder_probability;
    const [lo, hi] = f.delay_ms;
    const delayMs = hi > 0 ? lo + Math.floor(this.rng.next() * (hi - lo + 1)) : 0;
    let late: FaultDecision['late'] = null;
    if (f.late_probability > 0) {
      const isLate = this.rng.next() < f.late_probability;
      const [llo, lhi] = f.late_delay_ms;
      const lateMs = llo + Math.floor(this.rng.next() * (lhi - llo + 1));
      const again = this.rng.next() < f.late_again_share;
      if (isLate) late = { delayMs: lateMs, again };
    }
    return { drop, duplicate, reorder, delayMs, late };
  }
}
