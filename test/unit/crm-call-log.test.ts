import { buildCallLog, summarizeCdr, TRANSCRIPT_EXCERPT_CHARS } from '../../connectors/crm/call-log';
import type { Cdr, Monitor } from '../../connectors/platform';

const cdr = (over: Partial<Cdr>): Cdr => ({
  id: 5000001,
  live_id: 880000001,
  type: 'I',
  calldate: '2026-11-01 10:15:00',
  src: '+442079460018',
  dst: '101',
  billsec: 95,
  duration: 110,
  disposition: 'CONNECTED',
  t_cause: 'Normal Clearing',
  user_id: 120001,
  ...over,
});

const input = (c: Cdr, recording: Monitor | null = null, ivrDigits: string | null = null) => ({
  account: 'acme',
  callId: 880000001,
  cdr: c,
  recording,
  recordingUrl: 'https://pbx.example/v1.1/voipstudio/monitors/7.mp3',
  userEmail: 'amelia@acme.example',
  contact: null,
  defaultCountry: 'GB' as const,
  ivrDigits,
});

describe('summarizing a CDR', () => {
  it.each([
    [{ type: 'I' as const }, 'inbound', 'completed', '+442079460018'],
    [{ type: 'M' as const, billsec: 0, disposition: 'RINGING' }, 'inbound', 'missed', '+442079460018'],
    [{ type: 'I' as const, billsec: 0, disposition: 'VM' }, 'inbound', 'voicemail', '+442079460018'],
    [
      { type: 'O' as const, src: '101', dst: '020 7946 0018', billsec: 0, t_cause: 'User busy' },
      'outbound',
      'busy',
      '+442079460018',
    ],
    [
      { type: 'O' as const, src: '101', dst: '+33142685300', billsec: 0, t_cause: 'No user responding' },
      'outbound',
      'failed',
      '+33142685300',
    ],
  ])('%o → %s %s', (over, direction, status, external) => {
    const s = summarizeCdr(cdr(over), 'GB');
    expect(s).toMatchObject({ direction, status, externalNumber: external });
    expect(s.missed).toBe(status === 'missed');
    expect(s.connected).toBe(status === 'completed');
  });
});

describe('building a call log', () => {
  it('keys the log by account and call id and carries the call facts', () => {
    const log = buildCallLog(input(cdr({})));
    expect(log).toMatchObject({
      key: 'acme:880000001',
      title: 'Inbound call from +442079460018',
      direction: 'inbound',
      status: 'completed',
      startedAt: '2026-11-01T10:15:00Z',
      durationSeconds: 95,
      fromNumber: '+442079460018',
      toNumber: '101',
      recordingUrl: null,
      summary: null,
      transcriptExcerpt: null,
      ivrDigits: null,
    });
  });

  it('carries the IVR keys pressed, none when the timeline had none', () => {
    expect(buildCallLog(input(cdr({}), null, '21#')).ivrDigits).toBe('21#');
    expect(buildCallLog(input(cdr({}), null, '')).ivrDigits).toBeNull();
  });

  it('adds the recording, summary, sentiment and a bounded transcript excerpt once they exist', () => {
    const long = 'Agent: hello. '.repeat(100);
    const log = buildCallLog(
      input(cdr({}), {
        id: 7,
        live_id: 880000001,
        transcript: long,
        summary: 'Asked for a refund',
        sentiment: 'negative',
      }),
    );
    expect(log.recordingUrl).toBe('https://pbx.example/v1.1/voipstudio/monitors/7.mp3');
    expect(log.summary).toBe('Asked for a refund');
    expect(log.sentiment).toBe('negative');
    expect(log.transcriptExcerpt!.length).toBe(TRANSCRIPT_EXCERPT_CHARS);
    expect(log.transcriptExcerpt!.endsWith('…')).toBe(true);
  });

  it('titles missed calls and counts no talk time for them', () => {
    const log = buildCallLog(input(cdr({ type: 'M', billsec: 0, disposition: 'RINGING' })));
    expect(log.title).toBe('Missed call from +442079460018');
    expect(log.durationSeconds).toBe(0);
  });
});
