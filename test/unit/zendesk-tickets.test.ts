// The Zendesk destination's pure parts: what a ticket update sends, the digits a phone search asks
// for, the config's errors, and Zendesk's error answers as CrmErrors.
import { CrmError } from '../../connectors/crm/errors';
import { zendeskConfigSchema } from '../../connectors/zendesk/config';
import { toCrmError, ZendeskHttpError, zendeskRateLimit } from '../../connectors/zendesk/errors';
import {
  callbackTicket,
  callTicket,
  createBody,
  digestTag,
  EXPIRED_TAG,
  updateBody,
  type HeldTicket,
} from '../../connectors/zendesk/tickets';
import { phoneSearchDigits } from '../../connectors/zendesk/users';
import type { CallbackTask } from '../../connectors/crm/crm-connector';

const task: CallbackTask = {
  key: 'acme:callback:+442079460000:1',
  subject: 'Call back +44 20 7946 0000',
  body: 'Missed call at 10:15.',
  status: 'open',
  dueAt: '2026-11-20T11:15:00.000Z',
  callerNumber: '+442079460000',
  assigneeEmail: null,
  contact: { crmId: '42', kind: 'contact', name: 'Ada', ownerId: null, updatedAt: null },
};

const heldOf = (body: { ticket: Record<string, unknown> }): HeldTicket => ({
  status: body.ticket.status as string,
  subject: body.ticket.subject as string,
  tags: body.ticket.tags as string[],
  requester_id: body.ticket.requester_id as number,
  due_at: body.ticket.due_at as string,
});

describe('Zendesk tickets', () => {
  it('creates a callback as an open task ticket of its caller, keyed by external_id, text private', () => {
    const { ticket } = createBody(callbackTicket(task, 7, ['team_a']), 99);
    expect(ticket).toMatchObject({
      type: 'task',
      status: 'open',
      due_at: task.dueAt,
      external_id: task.key,
      requester_id: 42,
      assignee_id: 7,
      group_id: 99,
      comment: { body: task.body, public: false },
    });
    expect(ticket.tags).toEqual(['callsync', 'callsync_callback', 'team_a', digestTag(task.body)]);
  });

  it('updates nothing when the ticket already holds it, and only the changes otherwise', () => {
    const held = heldOf(createBody(callbackTicket(task, null, []), undefined));
    expect(updateBody(held, callbackTicket(task, null, []))).toBeNull();

    const expired = updateBody(
      held,
      callbackTicket({ ...task, status: 'expired', body: 'Gave up.' }, null, []),
    );
    expect(expired).toEqual({
      ticket: {
        status: 'solved',
        comment: { body: 'Gave up.', public: false },
        additional_tags: [EXPIRED_TAG, digestTag('Gave up.')],
        remove_tags: [digestTag(task.body)],
      },
    });
    // Reopened: the expired tag goes, agents' own tags stay.
    const reopened = updateBody(
      { ...held, status: 'solved', tags: [...held.tags, EXPIRED_TAG, 'vip'] },
      callbackTicket(task, null, []),
    );
    expect(reopened?.ticket).toEqual({ status: 'open', remove_tags: [EXPIRED_TAG] });
    // An agent's pending or on-hold callback is still open work: its status stays the agent's.
    expect(updateBody({ ...held, status: 'pending' }, callbackTicket(task, null, []))).toBeNull();
  });

  it('leaves the status of a call ticket an agent reopened', () => {
    const log = {
      key: 'acme:1',
      title: 'Inbound call',
      direction: 'inbound' as const,
      status: 'completed' as const,
      startedAt: '2026-11-20T10:15:00.000Z',
      durationSeconds: 60,
      fromNumber: null,
      toNumber: null,
      userEmail: null,
      contact: null,
      recordingUrl: null,
      summary: null,
      transcriptExcerpt: null,
      sentiment: null,
      ivrDigits: null,
    };
    const held = { ...heldOf(createBody(callTicket(log, null, []), undefined)), status: 'open' };
    const later = updateBody(held, callTicket({ ...log, summary: 'Later.' }, null, []));
    expect(later?.ticket.status).toBeUndefined();
    expect(later?.ticket.comment).toEqual({
      body: expect.stringContaining('Summary: Later.'),
      public: false,
    });
  });

  it('searches the national number: the digits every written form of it ends with', () => {
    expect(phoneSearchDigits('+442079460000')).toBe('2079460000');
    expect(phoneSearchDigits('+12025550123')).toBe('2025550123');
    expect(phoneSearchDigits('+44123')).toBeNull();
  });
});

describe('Zendesk config', () => {
  const base = {
    type: 'zendesk',
    subdomain: 'acme',
    auth: { type: 'api-token', email: 'a@b.example', apiToken: 't' },
  };

  it('names the field that is wrong', () => {
    const bad = (input: object) => zendeskConfigSchema.safeParse(input).error?.issues[0]?.path.join('.');
    expect(bad({ ...base, subdomain: 'https://acme.zendesk.com' })).toBe('subdomain');
    expect(bad({ ...base, auth: { type: 'api-token', email: 'not-an-email', apiToken: 't' } })).toBe(
      'auth.email',
    );
    expect(bad({ ...base, auth: { type: 'oauth', clientId: 'c' } })).toBe('auth.refreshToken');
    expect(bad({ ...base, requestsPerMinute: 5000 })).toBe('requestsPerMinute');
    expect(bad({ ...base, tags: ['two words'] })).toBe('tags.0');
  });

  it("defaults to half a Team plan minute over Zendesk's minute", () => {
    expect(zendeskConfigSchema.parse(base)).toMatchObject({
      requestsPerMinute: 100,
      rateWindowSeconds: 60,
      tags: [],
    });
  });
});

describe('Zendesk errors', () => {
  it('makes 429 a rate-limit signal with its Retry-After, 5xx retryable, 4xx final, with no field values', () => {
    const limited = new ZendeskHttpError(429, { error: 'APIRateLimitExceeded' }, 7000, 'create call ticket');
    expect(zendeskRateLimit(limited)).toMatchObject({ retryAfterMs: 7000, status: 429 });
    expect(toCrmError(new ZendeskHttpError(503, null, undefined, 'x')).retryable).toBe(true);
    const invalid = toCrmError(
      new ZendeskHttpError(
        422,
        {
          error: 'RecordInvalid',
          details: { requester: [{ description: 'Requester: +44 20 7946 0000 is invalid' }] },
        },
        undefined,
        'create call ticket',
      ),
    );
    expect(invalid).toMatchObject({ status: 422, code: 'RecordInvalid', retryable: false });
    expect(invalid.message).toContain('requester');
    expect(invalid.message).not.toContain('7946');
  });

  it('makes a request without an answer a retryable CrmError', () => {
    const err = toCrmError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    expect(err).toBeInstanceOf(CrmError);
    expect(err).toMatchObject({ retryable: true, code: 'ECONNRESET' });
  });
});
