// The pure parts of the Google Tasks destination: a callback task as a Google task, the key line a
// retry finds it by, the mapping-table id, the list titles, Google's errors, and the config.
import { CrmRateLimitedError } from '../../connectors/crm/errors';
import {
  NOTES_MAX_CHARS,
  decodeTaskRef,
  encodeTaskRef,
  googleApiError,
  googleTasksConfigSchema,
  keyLine,
  listTitleFor,
  notesCarryKey,
  toGoogleTask,
} from '../../connectors/google-tasks';
import { configSchema } from '../../config/schema';
import { callbackTask, contact } from './crm-fixtures';

describe('Google Tasks mapping', () => {
  it('maps an open task with the contact, the due time and the key line', () => {
    const t = toGoogleTask(
      callbackTask({ key: 'acme:callback:+44:1', contact: contact('7', { name: 'Ada Lovelace' }) }),
    );
    expect(t).toMatchObject({
      title: 'Call back +44 20 7946 0000 (Ada Lovelace)',
      status: 'needsAction',
      completed: null,
      due: '2026-11-20T11:15:00.000Z',
    });
    expect(t.notes).toBe(
      'Contact: Ada Lovelace\nMissed call at 10:15 (1 attempt).\n\ncallsync key: acme:callback:+44:1',
    );
  });

  it('completes a closed task and never sends a completion time of its own', () => {
    const t = toGoogleTask(callbackTask({ status: 'closed' }));
    expect(t.status).toBe('completed');
    expect('completed' in t).toBe(false);
  });

  it('keeps an expired task needing action (Tasks has no such status) and says so in its notes', () => {
    const t = toGoogleTask(
      callbackTask({ status: 'expired', contact: contact('7', { name: 'Ada Lovelace' }) }),
    );
    expect(t).toMatchObject({ status: 'needsAction', completed: null });
    expect(t.notes).toMatch(
      /^Status: expired \(callsync stopped following this callback\)\nContact: Ada Lovelace\n/,
    );
  });

  it('keeps the key line when long notes are cut to what Google accepts', () => {
    const key = 'acme:callback:+44:9';
    const t = toGoogleTask(callbackTask({ key, body: 'x'.repeat(20_000) }));
    expect(t.notes!.length).toBeLessThanOrEqual(NOTES_MAX_CHARS);
    expect(notesCarryKey(t.notes, key)).toBe(true);
  });

  it('finds a key only as a whole line', () => {
    const notes = `body\n\n${keyLine('acme:callback:+44:12')}`;
    expect(notesCarryKey(notes, 'acme:callback:+44:12')).toBe(true);
    expect(notesCarryKey(notes, 'acme:callback:+44:1')).toBe(false);
    expect(notesCarryKey(undefined, 'acme:callback:+44:1')).toBe(false);
  });

  it('round-trips the mapping id, owner e-mails included, and rejects other ids', () => {
    const ref = { owner: 'ann/x@example.com', tasklist: 'L1', task: 'T1' };
    expect(decodeTaskRef(encodeTaskRef(ref))).toEqual(ref);
    expect(decodeTaskRef(encodeTaskRef({ owner: '', tasklist: 'L', task: 'T' }))).toEqual({
      owner: '',
      tasklist: 'L',
      task: 'T',
    });
    expect(decodeTaskRef('12345')).toBeNull();
    expect(decodeTaskRef('a/b/')).toBeNull();
  });

  it('names one list per assignee, and the plain title for unassigned tasks', () => {
    expect(listTitleFor('Callbacks', 'ann@example.com')).toBe('Callbacks – ann@example.com');
    expect(listTitleFor('Callbacks', null)).toBe('Callbacks');
  });

  it("reads Google's error body: reason, retryability, Retry-After", () => {
    const notFound = googleApiError({
      message: 'Request failed with status code 404',
      status: 404,
      response: {
        status: 404,
        data: {
          error: { code: 404, message: 'Requested entity was not found.', errors: [{ reason: 'notFound' }] },
        },
      },
    });
    expect(notFound).toMatchObject({ status: 404, code: 'notFound', retryable: false });
    expect(notFound.message).toBe('google-tasks: Requested entity was not found.');
    const limited = googleApiError({
      message: 'x',
      status: 403,
      response: {
        status: 403,
        headers: new Headers({ 'retry-after': '3' }),
        data: { error: { errors: [{ reason: 'userRateLimitExceeded' }] } },
      },
    });
    expect(limited).toBeInstanceOf(CrmRateLimitedError);
    expect(limited).toMatchObject({ retryAfterMs: 3000, retryable: true });
    expect(googleApiError(new Error('socket hang up'))).toMatchObject({ retryable: true, status: undefined });
    expect(googleApiError({ message: 'x', status: 503 })).toMatchObject({ retryable: true });
  });
});

describe('Google Tasks config', () => {
  it('takes crm.destination google-tasks with defaults, lower-casing e-mail keys', () => {
    const c = googleTasksConfigSchema.parse({
      type: 'google-tasks',
      tasklists: { ' Ann@Example.com ': 'L1', '120001': 'L2' },
    });
    expect(c).toMatchObject({
      perUser: 'list',
      listTitle: 'Callbacks',
      rootUrl: 'https://tasks.googleapis.com',
    });
    expect(c.tasklists).toEqual({ 'ann@example.com': 'L1', '120001': 'L2' });
    expect(c.credentials.selfSignedJwt).toBe(false);
  });

  it('names the field of a bad value', () => {
    const r = configSchema.safeParse({
      accounts: [
        {
          name: 'acme',
          platform: {
            baseUrl: 'https://p.example/v1.1/voipstudio',
            credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
          },
        },
      ],
      crm: { destination: { type: 'google-tasks', perUser: 'everyone' } },
    });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path.join('.')).toBe('crm.destination.perUser');
  });
});
