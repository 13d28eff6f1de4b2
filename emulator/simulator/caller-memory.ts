// What the simulator remembers about callers and users between calls: each user's transcript and
// voicemail pools, and the numbers that recently went unanswered (some call again).
import { hashSeed, Rng } from '../data/prng';
import { buildTranscriptPool, buildVoicemailPool, type TranscriptEntry } from '../data/transcripts';
import type { CallPlan } from './plan';
import type { SimWorld } from './world';

/** Per-user pools and per-customer recent missed numbers; forgotten when the store is replaced. */
export class CallerMemory {
  private aiPools = new Map<number, TranscriptEntry[]>();
  private vmPools = new Map<number, string[]>();
  private recentMissed = new Map<number, string[]>();

  constructor(
    private readonly seed: () => number,
    private readonly world: (customerId: number) => SimWorld | undefined,
  ) {}

  clear(): void {
    this.aiPools.clear();
    this.vmPools.clear();
    this.recentMissed.clear();
  }

  /** Numbers of the customer that recently went unanswered. */
  missed(customerId: number): string[] {
    return this.recentMissed.get(customerId) ?? [];
  }

  aiPool(plan: CallPlan): TranscriptEntry[] {
    let pool = this.aiPools.get(plan.user.id);
    if (!pool) {
      const world = this.world(plan.customerId);
      const rng = new Rng(hashSeed(this.seed(), `ai-${plan.user.id}`));
      pool = buildTranscriptPool(rng, plan.user.name, world?.company ?? '', world?.language ?? 'en-GB', 6);
      this.aiPools.set(plan.user.id, pool);
    }
    return pool;
  }

  vmPool(plan: CallPlan): string[] {
    let pool = this.vmPools.get(plan.user.id);
    if (!pool) {
      const world = this.world(plan.customerId);
      const rng = new Rng(hashSeed(this.seed(), `vm-${plan.user.id}`));
      pool = buildVoicemailPool(rng, plan.user.name, world?.language ?? 'en-GB', 4);
      this.vmPools.set(plan.user.id, pool);
    }
    return pool;
  }

  rememberMissed(customerId: number, number: string): void {
    const list = this.recentMissed.get(customerId) ?? [];
    if (!list.includes(number)) list.push(number);
    if (list.length > 50) list.shift();
    this.recentMissed.set(customerId, list);
  }

  forgetMissed(customerId: number, number: string): void {
    const list = this.recentMissed.get(customerId);
    const i = list?.indexOf(number) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
  }
}
