import { z } from 'zod';
import * as schemas from '../../connectors/platform/schemas';
import {
  bulkPatchCallTrackingDdisBody,
  bulkPatchUsersBody,
  createCallBody,
  createCallMeBackSettingBody,
  createContactBody,
  createQueueBody,
  createReportScheduleBody,
  createSmsBody,
  createVmAnnouncementBody,
  formatZodIssues,
  login2faBody,
  loginBody,
  patchCallBody,
  patchContactBody,
  patchReportScheduleBody,
  patchRoutingRuleBody,
  resetBody,
} from '../../connectors/platform/schemas';

/** The 400 `errors` the emulator would answer with, or [] when the body is valid. */
function errorsFor(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : formatZodIssues(r.error);
}

describe('request body exports', () => {
  const names = [
    'loginBody',
    'login2faBody',
    'confirmationBody',
    'passwordBody',
    'resetBody',
    'createCallBody',
    'patchCallBody',
    'createWebcallBody',
    'createLeadcallBody',
    'createCallLabelBody',
    'patchCallLabelBody',
    'createSmsBody',
    'createVmAnnouncementBody',
    'patchVmAnnouncementBody',
    'createCannedResponseBody',
    'patchCannedResponseBody',
    'createQueueGroupBody',
    'patchQueueGroupBody',
    'bulkPatchUsersBody',
    'createUserGroupBody',
    'patchUserGroupBody',
    'createUserGroupPolicyBody',
    'patchUserGroupPolicyBody',
    'bulkPatchCdrsBody',
    'patchMonitorBody',
    'bulkPatchVoicemessagesBody',
    'createCallMeBackSettingBody',
    'patchCallMeBackSettingBody',
    'createCallMeBackButtonBody',
    'patchCallMeBackButtonBody',
    'bulkPatchCallTrackingDdisBody',
    'createCallTrackingCampaignBody',
    'createContactBody',
    'patchContactBody',
    'bulkPatchContactsBody',
    'createConferenceBody',
    'patchConferenceBody',
    'createQueueBody',
    'createRingGroupBody',
    'patchRingGroupBody',
    'createRoutingRuleBody',
    'patchRoutingRuleBody',
    'createIvrBody',
    'createReportScheduleBody',
    'patchReportScheduleBody',
  ];

  it.each(names)('%s is a zod schema', (name) => {
    expect((schemas as Record<string, unknown>)[name]).toBeInstanceOf(z.ZodType);
  });

  it('rejects a body that is not JSON of the right kind', () => {
    expect(errorsFor(schemas.createCallBody, 'to=+442071234567')).toEqual(['body: must be a JSON object']);
    expect(errorsFor(schemas.bulkPatchCdrsBody, { id: 1 })).toEqual(['body: must be a JSON array']);
    expect(errorsFor(schemas.bulkPatchCdrsBody, [])).toEqual(['body: must not be empty']);
  });
});

describe('calls', () => {
  it('accepts a click-to-call with optional from and caller id', () => {
    expect(errorsFor(createCallBody, { to: '+442071234567' })).toEqual([]);
    expect(errorsFor(createCallBody, { to: '+442071234567', from: '12', caller_id: 'anonymous' })).toEqual(
      [],
    );
    expect(errorsFor(createCallBody, { to: '+442071234567', from: 12, caller_id: '+48221234567' })).toEqual(
      [],
    );
  });

  it('names a missing or malformed destination', () => {
    expect(errorsFor(createCallBody, {})).toEqual(['to: required']);
    const problem = 'to: must be an E.164 number or an extension';
    expect(errorsFor(createCallBody, { to: '02071234567' })).toEqual([problem]);
    expect(errorsFor(createCallBody, { to: 442071234567 })).toEqual([problem]);
    expect(errorsFor(createCallBody, { to: '+44', caller_id: 'nobody' })).toEqual([
      problem,
      'caller_id: must be an E.164 number or "anonymous"',
    ]);
  });

  it('checks a transfer patch', () => {
    expect(errorsFor(patchCallBody, { dst: '+442071234568', labels: ['sales'] })).toEqual([]);
    expect(errorsFor(patchCallBody, { dst: 'reception', action_url: 'javascript:alert(1)' })).toEqual([
      'dst: must be an E.164 number or an extension',
      'action_url: must be an http(s) URL',
    ]);
  });

  it('reads numbers as the clients dial them: without + (as E.164) or an extension', () => {
    expect(createCallBody.parse({ to: '442071234567' }).to).toBe('+442071234567');
    expect(createCallBody.parse({ to: '+442071234567' }).to).toBe('+442071234567');
    expect(createCallBody.parse({ to: '2001' }).to).toBe('2001');
    expect(patchCallBody.parse({ dst: '442071234568' }).dst).toBe('+442071234568');
    expect(createSmsBody.parse({ to: '447700900123', message: 'hi' }).to).toBe('+447700900123');
    expect(errorsFor(createSmsBody, { to: '2001', message: 'hi' })).toEqual(['to: must be an E.164 number']);
  });
});

describe('storage', () => {
  it('requires to and message for an SMS', () => {
    expect(
      errorsFor(createSmsBody, { to: '+48601234567', message: 'Your callback is booked for 10:00' }),
    ).toEqual([]);
    // `from` without `+` is a number as `to` is (the platform's CLI sends it bare); an extension is not.
    expect(createSmsBody.parse({ from: '48601234567', to: '+48601234568', message: 'hi' }).from).toBe(
      '+48601234567',
    );
    expect(errorsFor(createSmsBody, { from: '2001' })).toEqual([
      'from: must be an E.164 number',
      'to: required',
      'message: required',
    ]);
    expect(errorsFor(createSmsBody, { to: '+48601234567', message: '   ' })).toEqual([
      'message: must not be empty',
    ]);
  });

  it('requires Base64 audio for a voicemail announcement', () => {
    expect(
      errorsFor(createVmAnnouncementBody, {
        extension_id: 201,
        data: 'SUQzBAAAAAAAI1RTU0UAAAAPAAADTGF2ZjU4LjI5LjEwMAAAAA==',
      }),
    ).toEqual([]);
    expect(errorsFor(createVmAnnouncementBody, { data: 'data:audio/mpeg;base64,SUQzBAAAAA==' })).toEqual([]);
    expect(errorsFor(createVmAnnouncementBody, { extension_id: '201', data: 'not base64!' })).toEqual([
      'extension_id: must be an integer',
      'data: must be Base64-encoded data',
    ]);
  });
});

describe('authentication', () => {
  it('requires email and password to log in', () => {
    expect(errorsFor(loginBody, { email: 'anna.kowalska@example.com', password: 'correct horse' })).toEqual(
      [],
    );
    expect(errorsFor(loginBody, {})).toEqual(['email: required', 'password: required']);
    expect(errorsFor(loginBody, { email: 'anna', password: 'x', remember_me: 'yes' })).toEqual([
      'email: must be an e-mail address',
      'remember_me: must be a boolean',
    ]);
  });

  it('never echoes a secret in its messages', () => {
    const secret = 'S3cr3t-Passw0rd';
    const messages = [
      ...errorsFor(loginBody, { email: secret, password: { value: secret } }),
      ...errorsFor(resetBody, { token: [secret], password: 12345 }),
    ];
    expect(messages).toEqual([
      'email: must be an e-mail address',
      'password: must be a string',
      'token: must be a string',
      'password: must be a string',
    ]);
    expect(messages.join(' ')).not.toContain(secret);
  });

  it('requires code and nonce for the second factor', () => {
    expect(errorsFor(login2faBody, { code: '482913', nonce: 'n-7f3a' })).toEqual([]);
    expect(errorsFor(login2faBody, { code: 482913 })).toEqual(['code: must be a string', 'nonce: required']);
  });
});

describe('customer and settings', () => {
  it('checks each item of a bulk user patch', () => {
    expect(errorsFor(bulkPatchUsersBody, [{ id: 12, location_id: 3, groups: [1] }])).toEqual([]);
    expect(
      errorsFor(bulkPatchUsersBody, [{ id: 12 }, { location_id: 3 }, { id: '14', groups: 'a' }]),
    ).toEqual(['[1].id: required', '[2].id: must be an integer', '[2].groups: must be an array']);
  });

  it('requires nothing for a contact but checks types and keeps unknown keys', () => {
    expect(errorsFor(createContactBody, {})).toEqual([]);
    expect(createContactBody.parse({ first_name: 'Jan', email: '', crm_id: 'hs-991' })).toEqual({
      first_name: 'Jan',
      email: '',
      crm_id: 'hs-991',
    });
    expect(
      errorsFor(createContactBody, { user_id: 'twelve', email: 'jan@', transfer_list: 1, labels: 'vip' }),
    ).toEqual([
      'email: must be an e-mail address',
      'labels: must be an array',
      'transfer_list: must be a boolean',
      'user_id: must be an integer',
    ]);
  });

  it('makes a contact patch partial but still typed', () => {
    expect(errorsFor(patchContactBody, { tel: '+48221234567' })).toEqual([]);
    expect(errorsFor(patchContactBody, { outcome_id: 2.5 })).toEqual(['outcome_id: must be an integer']);
  });

  it('accepts a queue with members and both code forms', () => {
    const queue = {
      name: 'Support',
      users: [{ id: 12, status: true }, { id: '14' }],
      ring_strategy: 2,
      final_dst_type: 'V',
    };
    expect(errorsFor(createQueueBody, queue)).toEqual([]);
    expect(errorsFor(createQueueBody, { users: [{ status: 'on' }] })).toEqual([
      'users[0].id: required',
      'users[0].status: must be a boolean or an integer code',
      'name: required',
    ]);
  });

  it('accepts DDI numbers with or without +, as strings or integers', () => {
    expect(errorsFor(createCallMeBackSettingBody, { name: 'Website', ddi_e164: 442071234567 })).toEqual([]);
    expect(errorsFor(bulkPatchCallTrackingDdisBody, [{ e164: '+442071234567', campaign_id: 4 }])).toEqual([]);
    expect(errorsFor(createCallMeBackSettingBody, { name: 'Website', ddi_e164: 12 })).toEqual([
      'ddi_e164: must be an E.164 number',
    ]);
    expect(errorsFor(bulkPatchCallTrackingDdisBody, [{ campaign_id: 4 }])).toEqual(['[0].e164: required']);
  });

  it('refuses a change of direction on a routing rule patch', () => {
    expect(errorsFor(patchRoutingRuleBody, { pos: 2, action: 'block' })).toEqual([]);
    expect(errorsFor(patchRoutingRuleBody, { direction: 'in' })).toEqual([
      'direction: cannot be changed by PATCH',
    ]);
  });
});

describe('reports', () => {
  const schedule = {
    report_id: 4,
    name: 'Weekly call volume',
    emails: ['ops@example.com', 'cto@example.com'],
    format: 'pdf',
    start_at: '2026-11-02',
    frequency: { type: 'weekly', time_of_day: ['06:00'], day_of_week: [1] },
    timezone: 'Europe/Warsaw',
  };

  it('accepts a full schedule', () => {
    expect(errorsFor(createReportScheduleBody, schedule)).toEqual([]);
  });

  it('requires report_id and name and checks each e-mail and the frequency', () => {
    expect(
      errorsFor(createReportScheduleBody, {
        emails: ['ops@example.com', 'not-an-email'],
        start_at: 'next monday',
        frequency: 'weekly',
      }),
    ).toEqual([
      'report_id: required',
      'name: required',
      'emails[1]: must be an e-mail address',
      'start_at: must be a date (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS)',
      'frequency: must be a JSON object',
    ]);
  });

  it('makes the patch partial', () => {
    expect(errorsFor(patchReportScheduleBody, { status: 'paused' })).toEqual([]);
    expect(errorsFor(patchReportScheduleBody, { name: '' })).toEqual(['name: must not be empty']);
  });
});
