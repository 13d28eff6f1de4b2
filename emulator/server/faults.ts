// Fault injection per route template: latency, error statuses with a probability (429 with Retry-After,
// 500, 503…), connection resets and token expiry. Set through /_emulator/faults; applied in an onRequest hook.
import { z } from 'zod';
import { mulberry32 } from '../../lib/seeded-random';

/** Body of POST /_emulator/faults. */
export const faultInputSchema = z
  .strictObject({
    /** 'METHOD /template', '/template' (any method) or '*' (every API route). */
    route: z.string().min(1).default('*'),
    latency_ms: z.number().int().min(0).max(600_000).optional(),
    status: z.number().int().min(400).max(599).optional(),
    /** Chance that a matching request is hit, 0..1. */
    probability: z.number().min(0).max(1).default(1),
    /** Retry-After seconds sent with the status (429 gets 1 when not given). */
    retry_after_s: z.number().int().min(0).max(86_400).optional(),
    /** Destroy the connection without answering. */
    reset: z.boolean().optional(),
    /** Handle the request (a POST creates its record), then destroy the connection instead of answering. */
    drop_response: z.boolean().optional(),
    /** Expire the caller's session token before authenticating (the request then gets 401). */
    expire_token: z.boolean().optional(),
    /** Apply at most this many times. */
    times: z.number().int().min(1).optional(),
  })
  .refine(
    (f) =>
      f.latency_ms !== undefined || f.status !== undefined || f.reset || f.expire_token || f.drop_response,
    {
      message: 'give at least one of latency_ms, status, reset, expire_token, drop_response',
      path: ['status'],
    },
  );

/** A fault as configured by a control request. */
export type FaultInput = z.infer<typeof faultInputSchema>;

/** A registered fault with its id and how often it has been applied. */
export type Fault = FaultInput & { id: number; applied: number };

/** The combined effect of the faults that hit one request. */
export interface FaultEffect {
  latencyMs: number;
  reset: boolean;
  /** Answer nothing after the handler ran (the client sees a reset, the server kept the effect). */
  dropResponse: boolean;
  expireToken: boolean;
  status?: { code: number; retryAfterS?: number };
}

/** Registered faults and the decision which of them hit a request. */
export class FaultRegistry {
  private faults: Fault[] = [];
  private nextId = 1;
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = mulberry32(seed);
  }

  /** Registers a fault; returns it with its id. */
  add(input: FaultInput): Fault {
    const fault = { ...input, id: this.nextId++, applied: 0 };
    this.faults.push(fault);
    return fault;
  }

  /** All registered faults, in order. */
  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** Removes one fault; false when unknown. */
  remove(id: number): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.id !== id);
    return this.faults.length < before;
  }

  /** Removes every fault; returns how many there were. */
  clear(): number {
    const n = this.faults.length;
    this.faults = [];
    return n;
  }

  /** Decides the effect for one request of a route ('GET /cdrs'); undefined when no fault hits. */
  decide(routeKey: string): FaultEffect | undefined {
    if (this.faults.length === 0) return undefined;
    const template = routeKey.slice(routeKey.indexOf(' ') + 1);
    let effect: FaultEffect | undefined;
    for (const fault of this.faults) {
      if (fault.route !== '*' && fault.route !== routeKey && fault.route !== template) continue;
      if (fault.times !== undefined && fault.applied >= fault.times) continue;
      if (fault.probability < 1 && this.random() >= fault.probability) continue;
      fault.applied++;
      effect ??= { latencyMs: 0, reset: false, dropResponse: false, expireToken: false };
      effect.latencyMs += fault.latency_ms ?? 0;
      effect.reset ||= fault.reset === true;
      effect.dropResponse ||= fault.drop_response === true;
      effect.expireToken ||= fault.expire_token === true;
      if (fault.status !== undefined && !effect.status) {
        const retryAfterS = fault.retry_after_s ?? (fault.status === 429 ? 1 : undefined);
        effect.status =
          retryAfterS === undefined ? { code: fault.status } : { code: fault.status, retryAfterS };
      }
    }
    return effect;
  }
}
