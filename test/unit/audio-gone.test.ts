// Which download failures mean the audio is gone for good (recorded as lost), and which are retried.
import { audioGoneReason } from '../../activities/audio-activities';
import { NotFoundError, PlatformError, ServerError } from '../../connectors/platform';
import { audioObjectKey } from '../../connectors/object-store';

const init = (status: number) => ({
  status,
  method: 'GET',
  path: '/monitors/7.mp3',
  message: `GET /monitors/7.mp3: ${status}`,
});

describe('lost audio', () => {
  it('is a 404 or a 410 from the platform, with the status and message as the reason', () => {
    expect(audioGoneReason(new NotFoundError(init(404)))).toBe(
      'the platform answered 404 for the .mp3: GET /monitors/7.mp3: 404',
    );
    expect(audioGoneReason(new PlatformError(init(410)))).toMatch(/^the platform answered 410 for the \.mp3/);
  });

  it('is not a server error, a rate limit or anything else (those are retried)', () => {
    expect(audioGoneReason(new ServerError(init(503)))).toBeUndefined();
    expect(audioGoneReason(new PlatformError(init(403)))).toBeUndefined();
    expect(audioGoneReason(new Error('socket hang up'))).toBeUndefined();
  });
});

describe('archived audio keys', () => {
  it('name the account, the UTC day and the id; the old form when the day is unknown', () => {
    expect(audioObjectKey('recordings', 'acme eu', 5, new Date('2026-10-30T23:59:59Z'))).toBe(
      'recordings/acme%20eu/2026/10/30/5.mp3',
    );
    expect(audioObjectKey('voicemessages', 'acme', 6, null)).toBe('voicemessages/acme/6.mp3');
    expect(audioObjectKey('voicemessages', 'acme', 6, new Date('not a date'))).toBe(
      'voicemessages/acme/6.mp3',
    );
  });
});
