// The simulator's settings: the bodies of its control endpoints, the defaults, and how a change applies.
import { z } from 'zod';
import { CALL_SCENARIOS, DEFAULT_MIX, TRAFFIC_KINDS, type TrafficKind } from './plan';

const mixSchema = z.partialRecord(z.enum(TRAFFIC_KINDS), z.number().min(0));

/** Body of POST /_emulator/simulator/start (and the simulator's settings). */
export const simulatorConfigBody = z.strictObject({
  /** New calls (and SMS) per real minute. */
  rate_per_minute: z.number().min(0).max(60_000).optional(),
  /** Simulated seconds per real second. */
  speed: z.number().min(0.01).max(100_000).optional(),
  seed: z.number().int().optional(),
  /** Relative weights per traffic kind; kinds left out get 0. */
  mix: mixSchema.optional(),
  /** Simulated seconds between a recording's creation and its transcript, summary and sentiment. */
  transcript_delay_s: z.number().min(0).max(86_400).optional(),
  /** Share of connected calls that are recorded. */
  recorded_share: z.number().min(0).max(1).optional(),
  customer_id: z.number().int().optional(),
  /** Move the emulator clock forward with simulated time. */
  advance_clock: z.boolean().optional(),
  /** Play calls created through POST /calls (click-to-call, callbacks) while running. */
  drive_api_calls: z.boolean().optional(),
  /** Share of API-placed calls that connect (the others fail busy). */
  api_answer_rate: z.number().min(0).max(1).optional(),
  /** No new traffic while this many calls are live. */
  max_active: z.number().int().min(1).max(1_000_000).optional(),
});
export type SimulatorConfigInput = z.infer<typeof simulatorConfigBody>;

export interface SimulatorConfig {
  rate_per_minute: number;
  speed: number;
  seed: number;
  mix: Record<TrafficKind, number>;
  transcript_delay_s: number;
  recorded_share: number;
  customer_id: number | null;
  advance_clock: boolean;
  drive_api_calls: boolean;
  api_answer_rate: number;
  max_active: number;
}

/** Body of POST /_emulator/simulator/calls. */
export const placeCallBody = z.strictObject({
  scenario: z.enum(CALL_SCENARIOS, { error: `must be one of ${CALL_SCENARIOS.join(', ')}` }),
  /** The external number (caller of inbound calls, callee of outbound ones), E.164. */
  caller: z
    .string()
    .regex(/^\+\d{6,15}$/, 'must be an E.164 number')
    .optional(),
  callee_user_id: z.number().int().optional(),
  recorded: z.boolean().optional(),
  talk_s: z.number().int().min(1).max(7200).optional(),
  customer_id: z.number().int().optional(),
});
export type PlaceCallInput = z.infer<typeof placeCallBody>;

/** Body of POST /_emulator/simulator/sms. */
export const sendSmsBody = z.strictObject({
  from: z
    .string()
    .regex(/^\+\d{6,15}$/, 'must be an E.164 number')
    .optional(),
  user_id: z.number().int().optional(),
  text: z.string().min(1).max(1600).optional(),
  customer_id: z.number().int().optional(),
});
export type SendSmsInput = z.infer<typeof sendSmsBody>;

/** Settings of a simulator nobody configured. */
export const DEFAULT_SIMULATOR_CONFIG: SimulatorConfig = {
  rate_per_minute: 6,
  speed: 60,
  seed: 1,
  mix: { ...DEFAULT_MIX },
  transcript_delay_s: 120,
  recorded_share: 0.6,
  customer_id: null,
  advance_clock: true,
  drive_api_calls: true,
  api_answer_rate: 0.7,
  max_active: 500,
};

/** Zero per traffic kind. */
export function zeroCounts(): Record<string, number> {
  return Object.fromEntries(TRAFFIC_KINDS.map((k) => [k, 0]));
}

/** The settings after a change; throws naming the field when the change is not possible. */
export function applyConfig(
  c: SimulatorConfig,
  input: SimulatorConfigInput,
  customers: readonly { id: number }[],
): SimulatorConfig {
  const next: SimulatorConfig = {
    ...c,
    ...(input.rate_per_minute !== undefined ? { rate_per_minute: input.rate_per_minute } : {}),
    ...(input.speed !== undefined ? { speed: input.speed } : {}),
    ...(input.seed !== undefined ? { seed: input.seed } : {}),
    ...(input.transcript_delay_s !== undefined ? { transcript_delay_s: input.transcript_delay_s } : {}),
    ...(input.recorded_share !== undefined ? { recorded_share: input.recorded_share } : {}),
    ...(input.customer_id !== undefined ? { customer_id: input.customer_id } : {}),
    ...(input.advance_clock !== undefined ? { advance_clock: input.advance_clock } : {}),
    ...(input.drive_api_calls !== undefined ? { drive_api_calls: input.drive_api_calls } : {}),
    ...(input.api_answer_rate !== undefined ? { api_answer_rate: input.api_answer_rate } : {}),
    ...(input.max_active !== undefined ? { max_active: input.max_active } : {}),
  };
  if (input.mix !== undefined) {
    const mix = zeroCounts() as Record<TrafficKind, number>;
    for (const [k, w] of Object.entries(input.mix)) mix[k as TrafficKind] = w ?? 0;
    if (Object.values(mix).every((w) => w === 0)) throw new Error('mix: give at least one positive weight');
    next.mix = mix;
  }
  if (next.customer_id !== null && !customers.some((x) => x.id === next.customer_id))
    throw new Error('customer_id: no such customer');
  return next;
}
