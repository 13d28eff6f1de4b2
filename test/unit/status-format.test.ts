// The status table's LAG says how far the data is behind and how long ago the last good run ended;
// AUDIO says how much of the archive's window is archived.
import { formatAudio, formatLag, formatStatusTable, type StreamStatus } from '../../cli/commands/status';
import { archiveWindow } from '../../activities/audio-activities';

const row = (over: Partial<StreamStatus>): StreamStatus => ({
  account: 'local',
  stream: 'cdrs',
  lastSuccess: '2026-11-23T11:59:30.000Z',
  lagSeconds: 30,
  dataLagSeconds: 3 * 3600,
  cursorMax: '2026-11-23 09:00:00',
  records: 10,
  quarantined: 0,
  backfills: [],
  ...over,
});

describe('status table', () => {
  it('LAG shows the data behind and the time since the last successful run', () => {
    expect(formatLag(row({}))).toBe('data 3h behind, ran 30s ago');
    expect(formatLag(row({ dataLagSeconds: null }))).toBe('ran 30s ago');
    expect(formatLag(row({ dataLagSeconds: 5 * 86_400, lagSeconds: null }))).toBe('data 5d behind');
    expect(formatLag(row({ dataLagSeconds: null, lagSeconds: null }))).toBe('-');
  });

  it('AUDIO shows archived of archived + pending, with the bytes', () => {
    const table = formatStatusTable([
      row({ stream: 'recordings', audio: { archived: 40, pending: 10, lost: 0, bytes: 3 * 1024 * 1024 } }),
      row({}),
    ]);
    const [header, recordings, cdrs] = table.split('\n');
    expect(header).toMatch(/LAG .*AUDIO/);
    expect(recordings).toContain('40/50 (3.0 MB)');
    expect(cdrs).toContain('data 3h behind, ran 30s ago');
  });

  it('AUDIO counts the files the platform lost, when there are any', () => {
    expect(formatAudio({ archived: 40, pending: 10, lost: 3, bytes: 3 * 1024 * 1024 })).toBe(
      '40/50 (3.0 MB, 3 lost)',
    );
    expect(formatAudio({ archived: 1, pending: 0, lost: 0, bytes: 2048 })).toBe('1/1 (2 kB)');
  });
});

describe('archiveWindow', () => {
  it('is unlimited without archive.maxAge, else starts maxAge before now', () => {
    expect(archiveWindow(undefined)).toEqual({});
    expect(archiveWindow(7 * 86_400_000, Date.parse('2026-11-23T00:00:00Z'))).toEqual({
      since: new Date('2026-11-16T00:00:00Z'),
    });
  });
});
