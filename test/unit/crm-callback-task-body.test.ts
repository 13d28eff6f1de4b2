// The body of a callback task: its missed calls, the callback attempts, and why it ended.
import { callbackTaskLines, durationText } from '../../connectors/crm/callback-task-body';

const missed = [
  { callId: 11, at: '2026-11-01T10:00:00.000Z', queueId: null },
  { callId: 12, at: '2026-11-01T11:00:00.000Z', queueId: 4 },
];

describe('callback task body', () => {
  it('lists the missed calls and the attempts of an open callback', () => {
    expect(
      callbackTaskLines({
        number: '+442079460000',
        status: 'open',
        missed,
        dialAttempts: [{ at: '2026-11-01T12:00:00.000Z', outcome: 'busy' }],
      }),
    ).toEqual([
      '2 missed calls from +442079460000:',
      '- 2026-11-01T10:00:00.000Z UTC (call 11)',
      '- 2026-11-01T11:00:00.000Z UTC (call 12, queue 4)',
      'Callback attempts:',
      '- 2026-11-01T12:00:00.000Z UTC: busy',
    ]);
  });

  it('says which call reached the caller, or that nobody did in time', () => {
    const base = { number: '+442079460000', missed: missed.slice(0, 1), dialAttempts: [] };
    expect(callbackTaskLines({ ...base, status: 'closed', closedByCallId: 13 }).at(-1)).toBe(
      'Reached by call 13',
    );
    expect(callbackTaskLines({ ...base, status: 'expired' }).at(-1)).toBe(
      'Expired: nobody reached the caller within 7 days',
    );
    expect(callbackTaskLines({ ...base, status: 'expired', expireAfterMs: 36 * 3_600_000 }).at(-1)).toBe(
      'Expired: nobody reached the caller within 36 hours',
    );
  });

  it('names a duration in its largest whole unit', () => {
    expect(durationText(86_400_000)).toBe('1 day');
    expect(durationText(8000)).toBe('8 seconds');
    expect(durationText(90 * 60_000)).toBe('90 minutes');
  });
});
