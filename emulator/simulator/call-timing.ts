// When a call's records appear after its hangup, how long it talks when it is a long call, and whether its
// audio is lost. Drawn per call from a generator of its own (never the plan's), always the same number of
// draws, so turning one of these on changes nothing else a seeded run draws, and with all of them off the
// run is the one it was before they existed.
import type { Rng } from '../data/prng';
import { trueCalldates, type SimulatorConfig } from './simulator-config';

/** One call's timing after hangup (simulated seconds). */
export interface CallTiming {
  /** Talk time drawn from long_call_s; undefined when the call is not a long one. */
  longTalk: number | undefined;
  /** Seconds from hangup to the CDR (and a voice message). */
  cdrDelay: number;
  /** Seconds from hangup to the recording: never before the CDR, which it points to (cdr_id). */
  recordingDelay: number;
  /** Seconds from a recording or voice message being listed to its audio being downloadable. */
  audioDelay: number;
  /** The recording's audio never becomes downloadable. */
  audioLost: boolean;
  /** The CDR's calldate is the call's true start, even before CDRs already written. */
  trueCalldate: boolean;
}

/** Draws one call's timing; `talkGiven`: the caller fixed the talk time, so the call is not made long. */
export function drawTiming(c: SimulatorConfig, rng: Rng, talkGiven: boolean): CallTiming {
  const longDraw = rng.next();
  const longTalk = rng.int(c.long_call_s[0], c.long_call_s[1]);
  const cdrDelay = rng.int(c.cdr_delay_s[0], c.cdr_delay_s[1]);
  const recordingDelay = rng.int(c.recording_delay_s[0], c.recording_delay_s[1]);
  const audioDelay = rng.int(c.audio_delay_s[0], c.audio_delay_s[1]);
  const lostDraw = rng.next();
  return {
    longTalk: !talkGiven && longDraw < c.long_call_share ? longTalk : undefined,
    cdrDelay,
    recordingDelay: Math.max(cdrDelay, recordingDelay),
    audioDelay,
    audioLost: lostDraw < c.audio_lost_share,
    trueCalldate: trueCalldates(c),
  };
}
