// The simulation's oracle (bench/simulation/oracle.ts) on hand-made days: a day that kept every
// promise passes, and each kind of broken promise is found and named.
import type { DayFacts, LedgerCall } from '../../bench/simulation/facts';
import { EXPIRY_SLACK_MS, judgeDay } from '../../bench/simulation/oracle';

const T0 = 1_800_000_000; // platform epoch seconds at the day's start
const REAL0 = 1_700_000_000_000; // real epoch ms at the day's start
const SPEED = 1000;
const EXPIRE_MS = 30_000;
const VOICEMAIL = 'b2cf5968-551e-4856-9783-52b3da59a7d0';

function call(id: number, over: Partial<LedgerCall>): LedgerCall {
  return {
    call_id: id,
    customer_id: 1,
    scenario: 'inbound_answered',
    from_api: false,
    direction: 'in',
    external: '+441110000001',
    start: T0 + id * 100,
    end: T0 + id * 100 + 60,
    connected: true,
    missed: false,
    voicemail: false,
    user_id: 1,
    legs_missed: 0,
    long: false,
    recorded: false,
    cdr_id: 1000 + id,
    cdr_written_at: T0 + id * 100 + 90,
    recording_id: null,
    recording_at: null,
    audio_ready_at: null,
    audio_lost: false,
    transcript_at: null,
    hangup_sent: true,
    pending: false,
    ...over,
  };
}

const missed = (id: number, over: Partial<LedgerCall> = {}) =>
  call(id, { scenario: 'inbound_missed', connected: false, missed: true, ...over });

/** A day where callsync kept every promise for `calls`; tests then break one thing. */
function keptDay(calls: LedgerCall[], now = REAL0 + 5_000): DayFacts {
  const contact = 'c1';
  return {
    account: 'acme',
    now,
    clock: { speed: SPEED, realAt: REAL0, platformAt: T0 * 1000 },
    ledger: { calls, sms: [] },
    platform: {
      cdrs: calls.map((c) => c.cdr_id!),
      recordings: calls.flatMap((c) => (c.recording_id ? [c.recording_id] : [])),
      sms: [],
      voicemessages: [],
      transcribed: new Set(),
    },
    warehouse: {
      cdrs: new Map(calls.map((c) => [c.cdr_id!, 1])),
      recordings: new Map(calls.flatMap((c) => (c.recording_id ? [[c.recording_id, 1] as const] : []))),
      sms: new Map(),
      voicemessages: new Map(),
      archive: new Map(
        calls.flatMap((c) =>
          c.recording_id
            ? [
                [
                  c.recording_id,
                  { id: c.recording_id, audioUri: 'file:///a.mp3', audioMd5: 'abc', lostReason: null },
                ] as const,
              ]
            : [],
        ),
      ),
    },
    platformAudioMd5: new Map(
      calls.flatMap((c) => (c.recording_id ? [[c.recording_id, 'abc'] as const] : [])),
    ),
    archiveFiles: new Map(calls.flatMap((c) => (c.recording_id ? [[c.recording_id, 1] as const] : []))),
    crm: {
      calls: calls.map((c) => ({
        key: `acme:${c.call_id}`,
        status: c.connected || c.voicemail ? 'COMPLETED' : c.direction === 'in' ? 'NO_ANSWER' : 'FAILED',
        disposition: c.voicemail ? VOICEMAIL : null,
        contactIds: [contact],
        recordingUrl: c.recording_id ? 'https://x/1.mp3' : null,
        body: '',
      })),
      tasks: [],
      contacts: [{ id: contact, phone: '+441110000001' }],
    },
    crmKnownBefore: new Map([['+441110000001', contact]]),
    settings: { autoDial: false, maxDialAttempts: 1, createUnknownContacts: false, expireAfterMs: EXPIRE_MS },
  };
}

const task = (firstCall: number, status: string, calls: number[], reachedBy?: number) => ({
  key: `acme:callback:+441110000001:${firstCall}`,
  status,
  body: [
    `${calls.length} missed calls from +441110000001:`,
    ...calls.map((c) => `- 2026-11-26T10:00:00Z UTC (call ${c})`),
    ...(reachedBy ? [`Reached by call ${reachedBy}`] : []),
  ].join('\n'),
});

const promises = (f: DayFacts) => judgeDay(f).map((b) => `${b.promise}: ${b.detail}`);

describe('simulation oracle', () => {
  it('passes a day that kept every promise', () => {
    const f = keptDay([call(1, {}), missed(2), call(3, {})]);
    f.crm.tasks = [task(2, 'COMPLETED', [2], 3)];
    expect(promises(f)).toEqual([]);
  });

  it('finds a record missing from the warehouse and a second row of one', () => {
    const f = keptDay([call(1, {}), call(2, {})]);
    f.warehouse.cdrs.delete(1001);
    f.warehouse.cdrs.set(1002, 2);
    const broken = judgeDay(f);
    expect(broken.map((b) => [b.promise, b.final, b.callId])).toEqual([
      ['warehouse exactly once', true, 2],
      ['warehouse exactly once', false, 1],
    ]);
  });

  it('finds a call without its log, a call logged twice and a log of no call', () => {
    const f = keptDay([call(1, {}), call(2, {})]);
    const [first, second] = f.crm.calls;
    f.crm.calls = [second!, second!, { ...first!, key: 'acme:99' }];
    expect(promises(f)).toEqual([
      'one CRM log per call: a log for no call of the day (acme:99)',
      'one CRM log per call: 2 logs for call 2 (inbound_answered)',
      'one CRM log per call: 0 logs for call 1 (inbound_answered)',
    ]);
  });

  it('judges the final outcome: a call whose missed leg was answered by another agent is connected', () => {
    const f = keptDay([call(1, { scenario: 'inbound_ring_group', legs_missed: 2 })]);
    f.crm.calls[0]!.status = 'NO_ANSWER';
    expect(promises(f)).toEqual([
      'log has the final outcome: call 1 (inbound_ring_group, connected) logged as NO_ANSWER',
    ]);
  });

  it("wants the caller's contact on the log, and the recording on it", () => {
    const f = keptDay([call(1, { recording_id: 7, audio_ready_at: T0 })]);
    f.crm.calls[0]!.contactIds = [];
    f.crm.calls[0]!.recordingUrl = null;
    expect(promises(f)).toEqual([
      "log on the right contact: associated with [], the number's contact is c1",
      'log has the recording and transcript: log of call 1 lacks its recording link',
    ]);
  });

  it('wants one open callback when the latest call was missed, and expires it after the policy', () => {
    const calls = [call(1, {}), missed(2)];
    const missEnd = REAL0 + ((calls[1]!.end - T0) * 1000) / SPEED;
    const early = keptDay(calls, missEnd + 1_000);
    expect(promises(early)).toEqual([
      'callback state: latest call 2 was missed and nothing reached the caller later, but 0 callbacks that are not closed hold it (tasks: none)',
    ]);
    early.crm.tasks = [task(2, 'NOT_STARTED', [2])];
    expect(promises(early)).toEqual([]);
    const late = keptDay(calls, missEnd + EXPIRE_MS + EXPIRY_SLACK_MS + 1_000);
    late.crm.tasks = [task(2, 'NOT_STARTED', [2])];
    expect(promises(late)).toEqual([
      expect.stringMatching(
        /^callback state: callback acme:callback:\+441110000001:2 is NOT_STARTED, should be DEFERRED/,
      ),
    ]);
    late.crm.tasks = [task(2, 'DEFERRED', [2])];
    expect(promises(late)).toEqual([]);
    // Near the bound either state is right: processes are not instant.
    const near = keptDay(calls, missEnd + EXPIRE_MS);
    near.crm.tasks = [task(2, 'DEFERRED', [2])];
    expect(promises(near)).toEqual([]);
  });

  it('refuses a callback closed by a call that started before the miss, and one left open after a reach', () => {
    // Call 1 starts before the miss (call 2) and lasts past it: it did not reach the caller after.
    const calls = [call(1, { end: T0 + 100 + 5000 }), missed(2)];
    const f = keptDay(calls);
    f.crm.tasks = [task(2, 'COMPLETED', [2], 1)];
    expect(promises(f)).toEqual([
      'callback state: callback acme:callback:+441110000001:2 closed by call 1, which did not reach the caller after the miss',
      'callback state: latest call 2 was missed and nothing reached the caller later, but 0 callbacks that are not closed hold it (tasks: acme:callback:+441110000001:2 COMPLETED)',
    ]);
    const reached = keptDay([missed(1), call(2, {})]);
    reached.crm.tasks = [task(1, 'NOT_STARTED', [1])];
    expect(promises(reached)).toEqual([
      'callback state: callback acme:callback:+441110000001:1 still open though call 2 reached the caller after every miss',
    ]);
  });

  it('finds a missed call in two callbacks', () => {
    const f = keptDay([missed(1), call(2, {}), missed(3)]);
    f.crm.tasks = [task(1, 'COMPLETED', [1], 2), task(3, 'NOT_STARTED', [1, 3])];
    expect(judgeDay(f).map((b) => [b.promise, b.detail, b.final])).toEqual([
      ['callback state', 'missed call 1 is in 2 callback tasks', true],
    ]);
  });

  it('counts the calls placed through the API against the callbacks', () => {
    const dial = call(3, { from_api: true, direction: 'out', scenario: 'outbound_failed', connected: false });
    const f = keptDay([missed(1), dial, { ...dial, call_id: 4, start: dial.start + 1, cdr_id: 1004 }]);
    f.settings.autoDial = true;
    f.crm.tasks = [task(1, 'NOT_STARTED', [1])];
    expect(promises(f)).toEqual([
      'dialled at most once: 2 calls placed to the caller through the API for 1 callback(s) (calls 3, 4)',
    ]);
  });

  it('wants audio archived with its checksum, or listed lost only when it never came', () => {
    const f = keptDay([
      call(1, { recording_id: 7, audio_ready_at: T0 }),
      call(2, { recording_id: 8, audio_ready_at: null, audio_lost: true }),
    ]);
    f.warehouse.archive.set(8, { id: 8, audioUri: null, audioMd5: null, lostReason: null });
    f.platformAudioMd5.set(7, 'other');
    expect(promises(f)).toEqual([
      "recording archived or lost: recording 7: checksum abc is not the audio's other",
      'recording archived or lost: recording 8: not listed as lost, though the platform never had its audio',
    ]);
    f.warehouse.archive.set(8, {
      id: 8,
      audioUri: null,
      audioMd5: null,
      lostReason: 'the platform answered 404',
    });
    f.platformAudioMd5.set(7, 'abc');
    expect(promises(f)).toEqual([]);
  });

  it('wants an unknown caller created once, and only when asked', () => {
    const f = keptDay([call(1, { external: '+442220000002' })]);
    f.crm.calls[0]!.contactIds = [];
    expect(promises(f)).toEqual([]);
    f.settings.createUnknownContacts = true;
    expect(promises(f)).toEqual([
      'unknown caller created once: no contact was created for an unknown caller',
    ]);
    f.crm.contacts.push({ id: 'n1', phone: '+442220000002' }, { id: 'n2', phone: '+442220000002' });
    expect(judgeDay(f)[0]).toMatchObject({ promise: 'unknown caller created once', final: true });
  });
});
