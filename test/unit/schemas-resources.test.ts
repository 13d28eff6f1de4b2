import { z } from 'zod';
import * as schemas from '../../connectors/platform/schemas';
import {
  cdrSchema,
  DEPRECATED_FIELDS,
  deprecatedFieldsOf,
  formatZodIssues,
  isTwoFactorChallenge,
  loginResponseSchema,
  userSchema,
} from '../../connectors/platform/schemas';

function issuesOf(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : formatZodIssues(r.error);
}

// A CDR in the spec's model form, as the emulator emits it.
const modelCdr = {
  id: 100234,
  duration: 74,
  live_id: 5501234,
  parent_live_id: 0,
  user_id: 12,
  sip_endpoint_id: 31,
  server_id: 2,
  type: 'O',
  calldate: '2026-10-30 09:15:02',
  clid: '"Anna Kowalska" <+48221234567>',
  src_id: '12',
  src_name: 'Anna Kowalska',
  src: '+48221234567',
  src_ua: 'Yealink SIP-T46U 108.86.0.45',
  src_codec: 'PCMA',
  dst_id: 'contact:881',
  dst: '+442071234567',
  dst_name: 'Acme Ltd',
  dst_ua: '',
  dst_codec: 'PCMA',
  billsec: 61,
  disposition: 'CONNECTED',
  destination: 'out',
  context: 'PSTN_CALL',
  rate: 0.0125,
  charge: 0.025,
  t_cause: 'Normal Clearing',
  info: '',
};

// The same call in the form real sample responses take.
const sampleCdr = {
  ...modelCdr,
  id: '100234',
  duration: '74',
  billsec: '61',
  type: 0,
  disposition: 2,
  destination: 1,
  rate: '0.0125',
  charge: '0.0250',
  src_id: 12,
  call_id: '5501234',
  is_root: '0',
  root_live_id: null,
  recording_url: 'https://files.example/rec/5501234.mp3',
};

describe('cdrSchema', () => {
  it('parses the model form unchanged', () => {
    expect(cdrSchema.parse(modelCdr)).toEqual(modelCdr);
  });

  it('reads the sample form: numeric strings, integer codes, deprecated fields, extra fields kept', () => {
    const cdr = cdrSchema.parse(sampleCdr);
    expect(cdr).toMatchObject({
      id: 100234,
      duration: 74,
      billsec: 61,
      type: 'O',
      disposition: 'CONNECTED',
      destination: 'out',
      rate: 0.0125,
      charge: 0.025,
      src_id: '12',
      call_id: 5501234,
      is_root: false,
      root_live_id: null,
    });
    expect(cdr.recording_url).toBe('https://files.example/rec/5501234.mp3');
  });

  it('maps every documented code and keeps an unknown code as its string form', () => {
    expect(cdrSchema.parse({ id: 1, type: 1, disposition: 4, destination: 3 })).toMatchObject({
      type: 'I',
      disposition: 'VM',
      destination: 'callmeback',
    });
    expect(cdrSchema.parse({ id: 1, type: 2, disposition: 0, destination: 2 })).toMatchObject({
      type: 'M',
      disposition: 'INITIAL',
      destination: 'webcall',
    });
    expect(cdrSchema.parse({ id: 1, disposition: 9 }).disposition).toBe('9');
  });

  it('accepts nulls and omitted fields for everything but the id', () => {
    expect(cdrSchema.parse({ id: 7, calldate: null, rate: null, type: null })).toEqual({
      id: 7,
      calldate: null,
      rate: null,
      type: null,
    });
  });

  it('fails a record that cannot be understood, naming the field', () => {
    expect(issuesOf(cdrSchema, { ...modelCdr, calldate: {} })).toEqual([
      'calldate: must be a date (YYYY-MM-DD HH:MM:SS)',
    ]);
    expect(issuesOf(cdrSchema, { ...modelCdr, calldate: 'last Tuesday' })).toEqual([
      'calldate: must be a date (YYYY-MM-DD HH:MM:SS)',
    ]);
    const { id: _id, ...withoutId } = modelCdr;
    expect(issuesOf(cdrSchema, withoutId)).toEqual(['id: required']);
    expect(issuesOf(cdrSchema, { ...modelCdr, billsec: 'sixty' })).toEqual(['billsec: must be an integer']);
  });
});

// A user in the sample form: `customer` alias, integer two_factor_auth, lists as strings.
const sampleUser = {
  id: '12',
  is_initial: 1,
  email: 'anna.kowalska@example.com',
  first_name: 'Anna',
  last_name: 'Kowalska',
  roles: 'ROLE_ADMIN,ROLE_USER',
  active: '1',
  visited_apps: '["admin","phone"]',
  two_factor_auth: 1,
  created_at: '2025-03-14 10:02:11',
  customer: 3,
  ext: 201,
  ring_time: 20,
  final_dst_type: 'v',
  vm_emails: '',
  fm_targets: ['+48601234567', 'sip:anna@pbx.example'],
  legacy_api_key: null,
  theme: 'dark',
};

describe('userSchema', () => {
  it('reads the sample form and fills customer_id_id from customer, keeping both', () => {
    const user = userSchema.parse(sampleUser);
    expect(user).toMatchObject({
      id: 12,
      is_initial: true,
      active: true,
      roles: ['ROLE_ADMIN', 'ROLE_USER'],
      visited_apps: ['admin', 'phone'],
      two_factor_auth: 'E',
      customer: 3,
      customer_id_id: 3,
      ext: '201',
      ring_time: '20',
      final_dst_type: 'V',
      vm_emails: [],
      fm_targets: ['+48601234567', 'sip:anna@pbx.example'],
      theme: 'dark',
    });
  });

  it('keeps an explicit customer_id_id over the alias', () => {
    expect(userSchema.parse({ id: 1, customer_id_id: 4, customer: 3 }).customer_id_id).toBe(4);
  });

  it('parses the model form', () => {
    const model = { id: 12, roles: ['ROLE_USER'], two_factor_auth: 'D', customer_id_id: 3, is_root: false };
    expect(userSchema.parse(model)).toEqual(model);
  });

  it('maps two_factor_auth code 0 to D and fails a record with an unreadable field', () => {
    expect(userSchema.parse({ id: 1, two_factor_auth: 0 }).two_factor_auth).toBe('D');
    expect(issuesOf(userSchema, { id: 1, roles: { admin: true } })).toEqual(['roles: must be a list']);
  });
});

describe('deprecated fields', () => {
  it('marks the spec-deprecated fields with metadata, and only them', () => {
    expect(deprecatedFieldsOf(cdrSchema)).toEqual([...DEPRECATED_FIELDS.cdr]);
    expect(deprecatedFieldsOf(userSchema)).toEqual([...DEPRECATED_FIELDS.user]);
    expect(cdrSchema.shape.call_id.meta()).toEqual({ deprecated: true });
    expect(cdrSchema.shape.live_id.meta()).toBeUndefined();
  });
});

describe('every resource schema', () => {
  // Me and Ddi have string ids; CallTrace, Dictionary and the answers have no id at all.
  const withIntId = [
    'aclRoleSchema',
    'userSchema',
    'cdrSchema',
    'liveCallSchema',
    'webcallSchema',
    'mediaSessionSchema',
    'callLabelSchema',
    'smsSchema',
    'cannedResponseSchema',
    'faxSchema',
    'vmAnnouncementSchema',
    'contactSchema',
    'queueGroupSchema',
    'userGroupSchema',
    'userGroupPolicySchema',
    'chatSchema',
    'chatMessageSchema',
    'monitorSchema',
    'monitorAiDictionarySchema',
    'msdrSchema',
    'voicemessageSchema',
    'callMeBackSchema',
    'callFlowSchema',
    'conferenceSchema',
    'queueSchema',
    'ringGroupSchema',
    'pickupGroupSchema',
    'routingRuleSchema',
    'ivrSchema',
    'reportScheduleSchema',
    'cdrNoteSchema',
    'callTrackingCampaignSchema',
  ] as const;

  it.each(withIntId)('%s reads a numeric-string id, keeps extra fields and requires the id', (name) => {
    const schema: z.ZodType = schemas[name];
    expect(schema.parse({ id: '17', vendor_extra: { a: [1] } })).toMatchObject({ vendor_extra: { a: [1] } });
    expect(issuesOf(schema, { name: 'x' })).toContain('id: required');
  });

  it.each(['meSchema', 'ddiSchema'] as const)('%s keeps its id as a string', (name) => {
    expect(schemas[name].parse({ id: 442071234567 }).id).toBe('442071234567');
  });
});

describe('other resources', () => {
  it('liveCallSchema reads epoch times and numeric codes', () => {
    const call = schemas.liveCallSchema.parse({
      id: '5501234',
      start_time: '1793527200',
      connected_at: 1793527205,
      state: '2',
      destination: 1,
      src_rate: '0.0100',
    });
    expect(call).toMatchObject({
      id: 5501234,
      start_time: 1793527200,
      connected_at: 1793527205,
      state: 2,
      src_rate: 0.01,
    });
  });

  it('reportScheduleSchema keeps emails and frequency in either form', () => {
    const asSent = schemas.reportScheduleSchema.parse({
      id: 3,
      emails: ['ops@example.com'],
      frequency: { type: 'weekly', day_of_week: [1] },
      next_run_at: '2026-11-02 06:00:00',
    });
    expect(asSent).toMatchObject({
      emails: ['ops@example.com'],
      frequency: { type: 'weekly', day_of_week: [1] },
    });
    expect(
      schemas.reportScheduleSchema.parse({ id: 3, emails: 'ops@example.com', frequency: 'weekly' }),
    ).toMatchObject({
      emails: 'ops@example.com',
      frequency: 'weekly',
    });
  });

  it('callTrackingCampaignSchema keeps its id as sent', () => {
    expect(schemas.callTrackingCampaignSchema.parse({ id: 9 }).id).toBe(9);
    expect(schemas.callTrackingCampaignSchema.parse({ id: 'cmp-9' }).id).toBe('cmp-9');
  });

  it('dictionarySchema keeps everything', () => {
    const dict = { type: { O: 'Outbound', I: 'Inbound' }, disposition: ['INITIAL'] };
    expect(schemas.dictionarySchema.parse(dict)).toEqual(dict);
  });
});

describe('loginResponseSchema', () => {
  it('reads a token answer', () => {
    const r = loginResponseSchema.parse({ message: 'OK', user_token: 'a1b2c3d4e5', user_id: '12' });
    expect(r).toEqual({ message: 'OK', user_token: 'a1b2c3d4e5', user_id: 12 });
    expect(isTwoFactorChallenge(r)).toBe(false);
  });

  it('reads a two-factor challenge', () => {
    const r = loginResponseSchema.parse({ message: 'Code sent', two_factor_required: true, nonce: 'n-7f3a' });
    expect(isTwoFactorChallenge(r)).toBe(true);
  });

  it('rejects an answer that is neither', () => {
    expect(loginResponseSchema.safeParse({ message: 'OK' }).success).toBe(false);
    expect(loginResponseSchema.safeParse({ two_factor_required: false, nonce: 'n' }).success).toBe(false);
  });
});
