// Webhook delivery: every event goes as a JSON POST to each enabled webhook whose categories select it,
// concurrently per webhook but bounded, with a timeout, retries with backoff on a non-2xx answer or a
// network error, optional redelivery after an outage, optional faults, and a log of every attempt (tests
// compare it with what arrived).
// The spec does not show retry behaviour or time-outs (Events, Rule 6): the defaults here are ours.
import { z } from 'zod';
import { categoriesSelect } from './categories';
import { FaultPlan, type FaultDecision } from './faults';
import { postJson, type PostResult } from './http-post';
import { DeliveryLog, type DeliveryLogEntry, type DeliveryLogFilter } from './delivery-log';
import {
  DEFAULT_DELIVERY_SETTINGS,
  type deliverySettingsBody,
  type DeliverySettings,
} from './delivery-settings';
import type { Webhook, WebhookRegistry } from './registry';

export { DeliveryLog, type DeliveryLogEntry, type DeliveryLogFilter } from './delivery-log';
export { DEFAULT_DELIVERY_SETTINGS, deliverySettingsBody, type DeliverySettings } from './delivery-settings';

/** A webhook event body as sent (call event, SMS event, test event or anything else). */
export type EventBody = Record<string, unknown> & { id: string; event_name: string };

interface Job {
  hook: Webhook;
  event: EventBody;
  callId: number | null;
  attempt: number;
  copy: number;
  fault: DeliveryLogEntry['fault'];
  delayMs: number;
  /** `webhook:call` when the job is one of a call's events in order; null otherwise (duplicates, SMS). */
  chain: string | null;
}

interface Lane {
  active: number;
  queue: Job[];
}

/** A second sending of an event that also goes on time, `delayMs` later and outside its call's order. */
function lateCopy(job: Job, delayMs: number): Job {
  return { ...job, copy: 3, fault: 'late_copy', delayMs, chain: null };
}

function callIdOf(event: EventBody): number | null {
  const v = event.call_id;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  return null;
}

/** Delivers events to the registered webhooks. */
export class WebhookDelivery {
  readonly faults = new FaultPlan();
  private settings: DeliverySettings = { ...DEFAULT_DELIVERY_SETTINGS };
  private readonly lanes = new Map<number, Lane>();
  private readonly held = new Map<string, { job: Job; timer: NodeJS.Timeout }>();
  /** Per webhook and call: events waiting for the previous one of the same call. */
  private readonly chains = new Map<string, Job[]>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly attempts = new DeliveryLog();
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(private readonly registry: WebhookRegistry) {}

  getSettings(): DeliverySettings {
    return { ...this.settings, backoff_ms: [...this.settings.backoff_ms] };
  }

  setSettings(patch: z.infer<typeof deliverySettingsBody>): DeliverySettings {
    const next = { ...this.settings };
    for (const [k, v] of Object.entries(patch)) if (v !== undefined) Object.assign(next, { [k]: v });
    this.settings = next;
    return this.getSettings();
  }

  /** Sends an event to every enabled webhook of the customer that selects it; returns how many. */
  dispatch(customerId: number, event: EventBody): number {
    if (this.closed) return 0;
    const hooks = this.registry.active(customerId).filter((h) => categoriesSelect(h.categories, event));
    const callId = callIdOf(event);
    for (const hook of hooks) this.route(hook, event, callId, this.faults.decide());
    return hooks.length;
  }

  /** Sends the test event of a webhook being saved (no faults, no retries) and logs the attempt. */
  async sendTest(url: string, event: EventBody, webhookId: number | null): Promise<PostResult> {
    const result = await postJson(url, event, this.settings.timeout_ms);
    this.attempts.record(
      { webhookId, event, callId: null, attempt: 1, copy: 1, fault: null, delayMs: 0 },
      result,
    );
    return result;
  }

  /** Log entries, oldest first. */
  log(filter: DeliveryLogFilter = {}): DeliveryLogEntry[] {
    return this.attempts.log(filter);
  }

  clearLog(): number {
    return this.attempts.clear();
  }

  /** Events queued, in flight, delayed, held back or waiting for a retry. */
  get inFlight(): number {
    return this.pending;
  }

  /** Resolves once nothing is pending (or after `timeoutMs`). */
  idle(timeoutMs = 30_000): Promise<boolean> {
    if (this.pending === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Stops every timer; pending deliveries are abandoned. */
  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    for (const h of this.held.values()) clearTimeout(h.timer);
    this.timers.clear();
    this.held.clear();
  }

  private route(hook: Webhook, event: EventBody, callId: number | null, d: FaultDecision): void {
    const key = callId === null ? null : `${hook.id}:${callId}`;
    const heldBefore = key === null ? undefined : this.held.get(key);
    if (heldBefore) {
      clearTimeout(heldBefore.timer);
      this.held.delete(key as string);
      this.pending--; // counted again when submitted
    }
    const job: Job = {
      hook,
      event,
      callId,
      attempt: 1,
      copy: 1,
      fault: null,
      delayMs: d.delayMs,
      chain: key,
    };
    if (d.drop) {
      this.attempts.record(
        { webhookId: hook.id, event, callId, attempt: 1, copy: 1, fault: 'dropped', delayMs: 0 },
        null,
      );
    } else if (d.late !== null && !d.late.again) {
      // Sent for the first time much later, on its own: the call's later events do not wait for it.
      const late: Job = { ...job, fault: 'late', delayMs: d.late.delayMs, chain: null };
      this.submit(late);
      if (d.duplicate) this.submit({ ...late, copy: 2 });
    } else if (d.reorder && key !== null && heldBefore === undefined) {
      // Held back until the call's next event for this webhook has gone first (or the hold times out).
      job.fault = 'reordered';
      this.pending++;
      const timer = setTimeout(() => {
        if (this.held.get(key)?.job === job) {
          this.held.delete(key);
          this.pending--;
          this.submit(job);
        }
      }, this.settings.reorder_hold_ms);
      this.held.set(key, { job, timer });
      if (d.late !== null) this.submit(lateCopy(job, d.late.delayMs));
      return;
    } else {
      this.submit(job);
      if (d.duplicate) {
        const copy: Job = { ...job, copy: 2, fault: 'duplicate', chain: null };
        this.submit(copy);
      }
      if (d.late !== null) this.submit(lateCopy(job, d.late.delayMs));
    }
    if (heldBefore) this.submit(heldBefore.job);
  }

  /**
   * A first attempt enters delivery. A call's events go to one webhook one after the other (the next
   * leaves once the previous one's first attempt is answered), so without faults a receiver sees them
   * in order; other events go concurrently, bounded per webhook.
   */
  private submit(job: Job): void {
    this.pending++;
    if (job.chain === null) {
      this.startJob(job);
      return;
    }
    const chain = this.chains.get(job.chain);
    if (chain) chain.push(job);
    else {
      this.chains.set(job.chain, []);
      this.startJob(job);
    }
  }

  /** After a chained job's first attempt: the call's next event may go. */
  private releaseChain(key: string): void {
    const chain = this.chains.get(key);
    const next = chain?.shift();
    if (next) this.startJob(next);
    else this.chains.delete(key);
  }

  /** Queues a job on its webhook's lane, after its injected delay. */
  private startJob(job: Job): void {
    if (job.delayMs > 0) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.enqueue(job);
      }, job.delayMs);
      this.timers.add(timer);
      return;
    }
    this.enqueue(job);
  }

  private enqueue(job: Job): void {
    const lane = this.lane(job.hook.id);
    lane.queue.push(job);
    this.pump(job.hook.id, lane);
  }

  private lane(id: number): Lane {
    let lane = this.lanes.get(id);
    if (!lane) {
      lane = { active: 0, queue: [] };
      this.lanes.set(id, lane);
    }
    return lane;
  }

  private pump(id: number, lane: Lane): void {
    while (lane.active < this.settings.concurrency && lane.queue.length > 0 && !this.closed) {
      const job = lane.queue.shift() as Job;
      lane.active++;
      void this.send(job).finally(() => {
        lane.active--;
        this.pump(id, lane);
      });
    }
  }

  private async send(job: Job): Promise<void> {
    const current = this.registry.get(job.hook.id);
    let result: PostResult;
    if (!current?.enabled) {
      result = { status: null, error: current ? 'webhook disabled' : 'webhook deleted', ms: 0 };
    } else {
      result = await postJson(current.url, job.event, this.settings.timeout_ms);
    }
    if (this.closed) return;
    this.attempts.record(
      {
        webhookId: job.hook.id,
        event: job.event,
        callId: job.callId,
        attempt: job.attempt,
        copy: job.copy,
        fault: job.fault,
        delayMs: job.attempt === 1 || job.fault === 'redelivered' ? job.delayMs : 0,
      },
      result,
    );
    if (job.attempt === 1 && job.chain !== null) this.releaseChain(job.chain);
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    if (!ok && current?.enabled && job.attempt <= this.settings.retries) {
      const backoff = this.settings.backoff_ms;
      const wait = backoff[Math.min(job.attempt - 1, backoff.length - 1)] ?? 0;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.enqueue({ ...job, attempt: job.attempt + 1, chain: null });
      }, wait);
      this.timers.add(timer);
      return;
    }
    const redeliverMs = this.settings.redeliver_after_ms;
    if (!ok && current?.enabled && job.fault !== 'redelivered' && redeliverMs !== null) {
      // Every retry failed (an outage): sent once more, long after, whatever its call has done since.
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.enqueue({
          ...job,
          attempt: job.attempt + 1,
          fault: 'redelivered',
          delayMs: redeliverMs,
          chain: null,
        });
      }, redeliverMs);
      this.timers.add(timer);
      return;
    }
    this.done();
  }

  private done(): void {
    this.pending--;
    if (this.pending === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }
}
