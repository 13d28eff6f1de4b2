// Integer codes that sample responses send for fields the spec's model types as strings.
// The spec shows the integers but not their meaning, so these mappings are OUR choice: each maps
// the spec's listing order, starting at 0. They are exported so the emulator's sample-form output
// and the client's parsing agree. Codes outside a map are kept as their string form ("7").

/** CDR `type`: 0 outbound, 1 inbound, 2 missed (spec lists O, I, M). */
export const CDR_TYPE_CODES = { 0: 'O', 1: 'I', 2: 'M' } as const;

/** CDR `disposition` in the spec's listing order. */
export const CDR_DISPOSITION_CODES = {
  0: 'INITIAL',
  1: 'RINGING',
  2: 'CONNECTED',
  3: 'ON_HOLD',
  4: 'VM',
} as const;

/** CDR `destination` (direction) in the spec's listing order. */
export const CDR_DESTINATION_CODES = { 0: 'in', 1: 'out', 2: 'webcall', 3: 'callmeback' } as const;

/** User `two_factor_auth`: 0 disabled, 1 code by e-mail (the usual off/on reading of a flag). */
export const TWO_FACTOR_CODES = { 0: 'D', 1: 'E' } as const;

export const CDR_TYPES = ['O', 'I', 'M'] as const;
export const CDR_DISPOSITIONS = ['INITIAL', 'RINGING', 'CONNECTED', 'ON_HOLD', 'VM'] as const;
export const CDR_DESTINATIONS = ['in', 'out', 'webcall', 'callmeback'] as const;
export const TWO_FACTOR_MODES = ['D', 'E'] as const;
/** User final destination types: user, voicemail, ring group, IVR, queue, conference room, hang up. */
export const FINAL_DST_TYPES = ['U', 'V', 'R', 'I', 'Q', 'C', 'H'] as const;
