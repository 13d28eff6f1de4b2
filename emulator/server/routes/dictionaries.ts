// Label tables served by the …/dictionaries endpoints. The spec does not show them; these give each
// code or enum value the emulator emits a human-readable label.

/** Dictionary bodies by resource. */
export const DICTIONARIES = {
  cdrs: {
    type: { O: 'Outbound', I: 'Inbound', M: 'Missed' },
    disposition: {
      INITIAL: 'Initial',
      RINGING: 'Ringing',
      CONNECTED: 'Connected',
      ON_HOLD: 'On hold',
      VM: 'Voicemail',
    },
    destination: { in: 'Inbound', out: 'Outbound', webcall: 'Web call', callmeback: 'Call Me Back' },
    context: {
      PSTN_CALL: 'Call to or from the public network',
      USER_LOCAL: 'Call between extensions',
      IVR: 'IVR',
      QUEUE: 'Queue',
      FOLLOW_ME: 'Follow Me',
      TEST_CALL: 'Test call',
    },
  },
  msdrs: {
    type: { AUDIO: 'Audio', VIDEO: 'Video', SCREEN_SHARE: 'Screen sharing' },
  },
  sms: {
    type: { I: 'Inbound', O: 'Outbound' },
    result: { SENT: 'Sent', DELIVERED: 'Delivered', FAILED: 'Failed', RECEIVED: 'Received' },
  },
  mediasessions: {
    type: { AUDIO: 'Audio', VIDEO: 'Video', SCREEN_SHARE: 'Screen sharing' },
    status: { ACTIVE: 'Active', ENDED: 'Ended' },
  },
  callflows: {
    status: { A: 'Active', I: 'Inactive' },
  },
  ddis: {
    status: { 0: 'Inactive', 1: 'Active', 2: 'Porting' },
    target_type: {
      0: 'None',
      1: 'User',
      2: 'Ring group',
      3: 'IVR',
      4: 'Queue',
      5: 'Conference',
      6: 'Call flow',
    },
  },
  ringgroups: {
    strategy: { 0: 'Ring all', 1: 'Hunt', 2: 'Memory hunt' },
    final_dst_type: {
      U: 'User',
      V: 'Voicemail',
      R: 'Ring group',
      I: 'IVR',
      Q: 'Queue',
      C: 'Conference',
      H: 'Hang up',
    },
  },
  reportschedules: {
    format: { 0: 'PDF', 1: 'CSV', 2: 'XLSX' },
    // Culture codes as BCP 47 tags; callsync's default reports.cultures maps the same codes.
    culture: { 0: 'en', 1: 'en-GB', 2: 'en-US', 3: 'de-DE', 4: 'fr-FR', 5: 'es-ES' },
    frequency: { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' },
    status: { 0: 'Inactive', 1: 'Active' },
  },
} as const satisfies Record<string, Record<string, unknown>>;
