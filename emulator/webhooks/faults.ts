// Delivery faults on request: duplicates, reordering, delays and drops, drawn from a seeded generator so
// a run can be repeated. (A slow receiver is the receiver's own behaviour, not injected here.)
import { z } from 'zod';
import { Rng } from '../data/prng';

/** Body of POST /_emulator/webhooks/faults. */
export const deliveryFaultsBody = z.strictObject({
  duplicate_probability: z.number().min(0).max(1).optional(),
  /** Hold an event back and send it after the next event of the same call (to the same webhook). */
  reorder_probability: z.number().min(0).max(1).optional(),
  drop_probability: z.number().min(0).max(1).optional(),
  /** Extra delay before each send, drawn uniformly from [min, max] ms. */
  delay_ms: z
    .union([z.number().int().min(0), z.tuple([z.number().int().min(0), z.number().int().min(0)])])
    .optional(),
  seed: z.number().int().optional(),
});
export type DeliveryFaultsInput = z.infer<typeof deliveryFaultsBody>;

/** The active delivery faults. */
export interface DeliveryFaults {
  duplicate_probability: number;
  reorder_probability: number;
  drop_probability: number;
  delay_ms: [number, number];
  seed: number;
}

export const NO_FAULTS: DeliveryFaults = {
  duplicate_probability: 0,
  reorder_probability: 0,
  drop_probability: 0,
  delay_ms: [0, 0],
  seed: 1,
};

/** What happens to one event on its way to one webhook. */
export interface FaultDecision {
  drop: boolean;
  duplicate: boolean;
  reorder: boolean;
  delayMs: number;
}

/** Holds the faults and draws decisions from a seeded generator. */
export class FaultPlan {
  private faults: DeliveryFaults = { ...NO_FAULTS, delay_ms: [0, 0] };
  private rng = new Rng(NO_FAULTS.seed);

  set(input: DeliveryFaultsInput): DeliveryFaults {
    const d = input.delay_ms;
    const delay: [number, number] =
      d === undefined
        ? [0, 0]
        : typeof d === 'number'
          ? [d, d]
          : [Math.min(d[0], d[1]), Math.max(d[0], d[1])];
    this.faults = {
      duplicate_probability: input.duplicate_probability ?? 0,
      reorder_probability: input.reorder_probability ?? 0,
      drop_probability: input.drop_probability ?? 0,
      delay_ms: delay,
      seed: input.seed ?? 1,
    };
    this.rng = new Rng(this.faults.seed);
    return this.get();
  }

  clear(): DeliveryFaults {
    return this.set({});
  }

  get(): DeliveryFaults {
    return { ...this.faults, delay_ms: [...this.faults.delay_ms] };
  }

  /** Draws the fate of one event for one webhook (always the same number of draws, so runs repeat). */
  decide(): FaultDecision {
    const f = this.faults;
    const drop = this.rng.next() < f.drop_probability;
    const duplicate = this.rng.next() < f.duplicate_probability;
    const reorder = this.rng.next() < f.reorder_probability;
    const [lo, hi] = f.delay_ms;
    const delayMs = hi > 0 ? lo + Math.floor(this.rng.next() * (hi - lo + 1)) : 0;
    return { drop, duplicate, reorder, delayMs };
  }
}
