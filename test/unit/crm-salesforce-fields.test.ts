import {
  callbackTaskFields,
  callLogTaskFields,
  newContactFields,
  phoneHitsSosl,
  soqlString,
  taskByKeyQuery,
  toCrmContact,
  toSalesforceDate,
  userByEmailQuery,
} from '../../connectors/salesforce/fields';
import { callbackTask, callLog, contact } from './crm-fixtures';

describe('callLogTaskFields', () => {
  it('maps a call log to a Task of subtype Call on create', () => {
    const log = callLog({ key: 'acme:42', contact: contact('003A'), summary: 'S' });
    expect(callLogTaskFields(log, 'create', { ownerId: '005U' })).toEqual({
      Subject: 'Inbound call from +44 20 7946 0000',
      TaskSubtype: 'Call',
      CallType: 'Inbound',
      CallDurationInSeconds: 125,
      CallDisposition: 'Connected',
      CallObject: 'acme:42',
      Description: 'Summary: S',
      ActivityDate: '2026-11-20',
      Status: 'Completed',
      Priority: 'Normal',
      WhoId: '003A',
      OwnerId: '005U',
    });
  });

  it('leaves out the create-only TaskSubtype and CallDisposition on update, and links when known', () => {
    const fields = callLogTaskFields(callLog({ status: 'busy', direction: 'outbound' }), 'update');
    expect(fields).not.toHaveProperty('TaskSubtype');
    expect(fields).not.toHaveProperty('WhoId');
    // An agent's outcome set since the Task was created is not overwritten.
    expect(fields).not.toHaveProperty('CallDisposition');
    expect(fields).toMatchObject({ CallType: 'Outbound' });
    expect(callLogTaskFields(callLog({ status: 'busy' }), 'create').CallDisposition).toBe('Busy');
  });

  it('puts the IVR keys pressed into the Description', () => {
    const fields = callLogTaskFields(callLog({ ivrDigits: '21', summary: 'S' }), 'update');
    expect(fields.Description).toBe('IVR keys pressed: 2 1\n\nSummary: S');
  });

  it.each([
    ['missed', 'Missed'],
    ['voicemail', 'Voicemail'],
    ['failed', 'Failed'],
  ] as const)('maps status %s to CallDisposition %s', (status, disposition) => {
    expect(callLogTaskFields(callLog({ status }), 'create').CallDisposition).toBe(disposition);
  });

  it('cuts long subjects and refuses keys CallObject cannot hold', () => {
    expect((callLogTaskFields(callLog({ title: 'x'.repeat(300) }), 'create').Subject as string).length).toBe(
      255,
    );
    expect(() => callLogTaskFields(callLog({ key: `acme:${'9'.repeat(300)}` }), 'create')).toThrow(
      RangeError,
    );
  });
});

describe('callbackTaskFields', () => {
  it('maps open and closed callback tasks', () => {
    const task = callbackTask({ key: 'acme:callback:+44:1', contact: contact('00QL', { kind: 'lead' }) });
    expect(callbackTaskFields(task, 'create')).toEqual({
      Subject: 'Call back +44 20 7946 0000',
      Description: 'Missed call at 10:15 (1 attempt).',
      Status: 'Not Started',
      ActivityDate: '2026-11-20',
      Priority: 'High',
      CallObject: 'acme:callback:+44:1',
      TaskSubtype: 'Task',
      WhoId: '00QL',
    });
    expect(callbackTaskFields({ ...task, status: 'closed' }, 'update', {}, 'Normal')).toMatchObject({
      Status: 'Completed',
      Priority: 'Normal',
    });
  });

  it('defers an expired callback task: nobody reached the caller, so it is not completed', () => {
    expect(callbackTaskFields(callbackTask({ status: 'expired' }), 'update').Status).toBe('Deferred');
  });
});

describe('SOQL and SOSL', () => {
  it('escapes string literals', () => {
    expect(soqlString("it's a \\ test")).toBe("'it\\'s a \\\\ test'");
  });

  it('builds the key and user queries', () => {
    expect(taskByKeyQuery("acme:1'x", 'Call')).toBe(
      "SELECT Id FROM Task WHERE CallObject = 'acme:1\\'x' AND TaskSubtype = 'Call' ORDER BY CreatedDate ASC LIMIT 1",
    );
    expect(userByEmailQuery('a@b.c')).toBe(
      "SELECT Id FROM User WHERE Email = 'a@b.c' AND IsActive = true LIMIT 1",
    );
  });

  it('searches phone fields for a FIND text, reading back every phone field', () => {
    expect(phoneHitsSosl('442079460000 OR 0000')).toBe(
      'FIND {442079460000 OR 0000} IN PHONE FIELDS RETURNING ' +
        'Contact(Id, Name, OwnerId, LastModifiedDate, Phone, MobilePhone, HomePhone, OtherPhone, AssistantPhone), ' +
        'Lead(Id, Name, OwnerId, LastModifiedDate, Phone, MobilePhone WHERE IsConverted = false)',
    );
  });
});

describe('records', () => {
  it('reads Contacts and Leads from search results and ignores other objects', () => {
    expect(
      toCrmContact({
        attributes: { type: 'Lead' },
        Id: '00Q1',
        Name: 'Kay',
        OwnerId: '005',
        LastModifiedDate: '2026-01-01T00:00:00.000+0000',
      }),
    ).toEqual({
      crmId: '00Q1',
      kind: 'lead',
      name: 'Kay',
      ownerId: '005',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(toCrmContact({ attributes: { type: 'Account' }, Id: '001' })).toBeNull();
  });

  it('fills the required LastName of a new Contact', () => {
    expect(newContactFields({ phone: '+1555', name: null })).toEqual({ LastName: '+1555', Phone: '+1555' });
    expect(newContactFields({ phone: '+1555', name: 'Ada Lovelace' })).toEqual({
      FirstName: 'Ada',
      LastName: 'Lovelace',
      Phone: '+1555',
    });
  });

  it('dates are UTC days', () => {
    expect(toSalesforceDate('2026-11-20T23:30:00-02:00')).toBe('2026-11-21');
  });
});
