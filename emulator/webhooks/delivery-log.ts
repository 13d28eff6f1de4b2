// The log of every delivery attempt and dropped event (GET /_emulator/webhooks/deliveries): tests compare
// it with what their receiver got. Bounded, oldest entries go first.
import type { PostResult } from './http-post';

/** One attempt (or one dropped event) in the delivery log. */
export interface DeliveryLogEntry {
  seq: number;
  /** null for the test event of a webhook not saved yet. */
  webhook_id: number | null;
  event_id: string;
  event_name: string;
  call_id: number | null;
  /** 1 for the first try, 2… for retries. */
  attempt: number;
  /** 1, 2 for the injected duplicate copy, 3 for a late copy. */
  copy: number;
  status: number | null;
  error: string | null;
  ok: boolean;
  /**
   * What fault injection did to this attempt's event: dropped, duplicate (copy 2), reordered, late (sent
   * only late), late_copy (a late second sending, copy 3), redelivered (once more after every retry failed).
   */
  fault: 'dropped' | 'duplicate' | 'reordered' | 'late' | 'late_copy' | 'redelivered' | null;
  delay_ms: number;
  ms: number;
  /** Wall-clock time of the attempt (ISO 8601). */
  at: string;
}

/** Filter of GET /_emulator/webhooks/deliveries. */
export interface DeliveryLogFilter {
  event_id?: string;
  call_id?: number;
  webhook_id?: number;
  event_name?: string;
}

const LOG_LIMIT = 200_000;

/** Delivery attempts, oldest first. */
export class DeliveryLog {
  private entries: DeliveryLogEntry[] = [];
  private seq = 0;

  /** Log entries, oldest first. */
  log(filter: DeliveryLogFilter = {}): DeliveryLogEntry[] {
    return this.entries.filter(
      (e) =>
        (filter.event_id === undefined || e.event_id === filter.event_id) &&
        (filter.call_id === undefined || e.call_id === filter.call_id) &&
        (filter.webhook_id === undefined || e.webhook_id === filter.webhook_id) &&
        (filter.event_name === undefined || e.event_name === filter.event_name),
    );
  }

  /** Empties the log; returns how many entries it held. */
  clear(): number {
    const n = this.entries.length;
    this.entries = [];
    return n;
  }

  /** Logs one attempt; `result` null for an event dropped by fault injection. */
  record(
    a: {
      webhookId: number | null;
      event: { id: string; event_name: string };
      callId: number | null;
      attempt: number;
      copy: number;
      fault: DeliveryLogEntry['fault'];
      delayMs: number;
    },
    result: PostResult | null,
  ): void {
    const status = result?.status ?? null;
    this.entries.push({
      seq: ++this.seq,
      webhook_id: a.webhookId,
      event_id: a.event.id,
      event_name: a.event.event_name,
      call_id: a.callId,
      attempt: a.attempt,
      copy: a.copy,
      status,
      error: result === null ? 'dropped by fault injection' : result.error,
      ok: status !== null && status >= 200 && status < 300,
      fault: a.fault,
      delay_ms: a.delayMs,
      ms: Math.round((result?.ms ?? 0) * 10) / 10,
      at: new Date().toISOString(),
    });
    if (this.entries.length > LOG_LIMIT) this.entries.splice(0, this.entries.length - LOG_LIMIT);
  }
}
