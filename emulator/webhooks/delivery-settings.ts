// The delivery's settings (POST /_emulator/webhooks/settings): timeouts, retries, backoff, concurrency,
// and redelivery after an outage.
import { z } from 'zod';

/** Delivery settings (POST /_emulator/webhooks/settings). */
export const deliverySettingsBody = z.strictObject({
  timeout_ms: z.number().int().min(1).max(120_000).optional(),
  /** Retries after the first attempt (0 = none). */
  retries: z.number().int().min(0).max(10).optional(),
  /** Wait before retry n (the last value repeats). */
  backoff_ms: z.array(z.number().int().min(0)).min(1).optional(),
  /** In-flight POSTs per webhook. */
  concurrency: z.number().int().min(1).max(1024).optional(),
  /** How long a held-back (reordered) event waits for its call's next event before it goes anyway. */
  reorder_hold_ms: z.number().int().min(0).max(600_000).optional(),
  /**
   * An event whose every retry failed (the receiver was down) is sent once more this long after its last
   * failure, as real platforms redeliver after an outage; null: never.
   */
  redeliver_after_ms: z.number().int().min(0).max(2_000_000_000).nullable().optional(),
});
export interface DeliverySettings {
  timeout_ms: number;
  retries: number;
  backoff_ms: number[];
  concurrency: number;
  reorder_hold_ms: number;
  redeliver_after_ms: number | null;
}

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  timeout_ms: 5000,
  retries: 3,
  backoff_ms: [500, 2000, 8000],
  concurrency: 16,
  reorder_hold_ms: 2000,
  redeliver_after_ms: null,
};
