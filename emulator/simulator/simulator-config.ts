// The simulator's settings: the bodies of its control endpoints, the defaults, and how a change applies.
import { z } from 'zod';
import { CALL_SCENARIOS, DEFAULT_MIX, TRAFFIC_KINDS, type TrafficKind } from './plan';

const mixSchema = z.partialRecord(z.enum(TRAFFIC_KINDS), z.number().min(0));

/** A [min, max] range of whole simulated seconds, each drawn uniformly per call. */
const secondsRange = (min: number, max: number) =>
  z
    .tuple([z.number().int().min(min).max(max), z.number().int().min(min).max(max)])
    .refine(([lo, hi]) => lo <= hi, 'must be [min, max] with min <= max');

const share = z.number().min(0).max(1);

/** A week: the longest delay the simulator plays. */
const WEEK_S = 7 * 86_400;

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
  /**
   * Play calls created through POST /calls (click-to-call, callbacks): true always, at the simulator's
   * speed while traffic runs and in real time while it is stopped (as the platform rings a call its CTI
   * connector places); 'always' at the simulator's speed even while stopped; false never.
   */
  drive_api_calls: z
    .union([z.boolean(), z.literal('always')], { error: "must be true, false or 'always'" })
    .optional(),
  /** Share of API-placed calls that connect (the others fail busy). */
  api_answer_rate: z.number().min(0).max(1).optional(),
  /** No new traffic while this many calls are live. */
  max_active: z.number().int().min(1).max(1_000_000).optional(),
  /** Simulated seconds after hangup before the CDR (and a voice message) is written. */
  cdr_delay_s: secondsRange(0, WEEK_S).optional(),
  /** Simulated seconds after hangup before a recorded call's recording is listed (never before its CDR). */
  recording_delay_s: secondsRange(0, WEEK_S).optional(),
  /** Simulated seconds after a recording (or voice message) is listed before its .mp3 stops answering 404. */
  audio_delay_s: secondsRange(0, WEEK_S).optional(),
  /** Share of recordings whose .mp3 never stops answering 404. */
  audio_lost_share: share.optional(),
  /** Share of calls whose talk time is drawn from long_call_s instead (it shows on the calls that connect). */
  long_call_share: share.optional(),
  /** Talk time of long calls, simulated seconds. */
  long_call_s: secondsRange(1, 86_400).optional(),
  /** Share of queue and ring-group calls that report the agents' unanswered legs as call.missed events. */
  missed_leg_share: share.optional(),
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
  drive_api_calls: boolean | 'always';
  api_answer_rate: number;
  max_active: number;
  cdr_delay_s: [number, number];
  recording_delay_s: [number, number];
  audio_delay_s: [number, number];
  audio_lost_share: number;
  long_call_share: number;
  long_call_s: [number, number];
  missed_leg_share: number;
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
  /** Talk time in seconds, up to a day (calls of several hours happen). */
  talk_s: z.number().int().min(1).max(86_400).optional(),
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
  cdr_delay_s: [0, 0],
  recording_delay_s: [0, 0],
  audio_delay_s: [0, 0],
  audio_lost_share: 0,
  long_call_share: 0,
  long_call_s: [7200, 14_400],
  missed_leg_share: 0,
};

/** A copy that shares no array or object with `c`. */
export function cloneConfig(c: SimulatorConfig): SimulatorConfig {
  return {
    ...c,
    mix: { ...c.mix },
    cdr_delay_s: [...c.cdr_delay_s],
    recording_delay_s: [...c.recording_delay_s],
    audio_delay_s: [...c.audio_delay_s],
    long_call_s: [...c.long_call_s],
  };
}

/**
 * Whether CDRs carry their call's true start as calldate. Off (the default), a CDR is never dated
 * before the latest one, as the store's seeded history is; with late writes or long calls on, calldates
 * go back as real platforms' do.
 */
export function trueCalldates(c: SimulatorConfig): boolean {
  return c.cdr_delay_s[1] > 0 || c.recording_delay_s[1] > 0 || c.long_call_share > 0;
}

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
  const next = cloneConfig(c);
  const { mix: _mix, ...fields } = input;
  // Every other field has the same name and type in the body and the settings.
  for (const [k, v] of Object.entries(fields))
    if (v !== undefined) Object.assign(next, { [k]: Array.isArray(v) ? [...(v as number[])] : v });
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
