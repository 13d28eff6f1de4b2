import {
  CALL_OUTCOMES,
  callProperties,
  contactAssociations,
  newContactProperties,
  phoneFilterGroups,
  taskProperties,
  toCrmContact,
} from '../../connectors/hubspot/properties';
import { callbackTask, callLog, contact } from './crm-fixtures';

describe('callProperties', () => {
  it('maps a connected inbound call', () => {
    const log = callLog({ key: 'acme:42' });
    expect(callProperties(log)).toEqual({
      hs_timestamp: '2026-11-20T10:15:00.000Z',
      hs_call_title: 'Inbound call from +44 20 7946 0000',
      hs_call_body: '',
      hs_call_direction: 'INBOUND',
      hs_call_status: 'COMPLETED',
      hs_call_disposition: CALL_OUTCOMES.connected,
      hs_call_duration: '125000',
      hs_call_from_number: '+442079460000',
      hs_call_to_number: '+442079460999',
      callsync_key: 'acme:42',
    });
  });

  it.each([
    ['missed', 'NO_ANSWER', CALL_OUTCOMES.noAnswer],
    ['voicemail', 'COMPLETED', CALL_OUTCOMES.leftVoicemail],
    ['busy', 'BUSY', CALL_OUTCOMES.busy],
    ['failed', 'FAILED', undefined],
  ] as const)('maps status %s to %s', (status, hsStatus, outcome) => {
    const props = callProperties(callLog({ status, direction: 'outbound' }));
    expect(props.hs_call_status).toBe(hsStatus);
    expect(props.hs_call_disposition).toBe(outcome);
    expect(props.hs_call_direction).toBe('OUTBOUND');
  });

  it("writes the outcome when the log is created only, so an update keeps an agent's outcome", () => {
    const log = callLog({ status: 'missed' });
    expect(callProperties(log, null, 'create').hs_call_disposition).toBe(CALL_OUTCOMES.noAnswer);
    const update = callProperties(log, null, 'update');
    expect(update).not.toHaveProperty('hs_call_disposition');
    expect(update.hs_call_status).toBe('NO_ANSWER');
  });

  it('adds recording, body and owner when known, and omits absent numbers', () => {
    const props = callProperties(
      callLog({ fromNumber: null, recordingUrl: 'https://r/1.mp3', summary: 'Hi', durationSeconds: 1.4 }),
      '55',
    );
    expect(props).toMatchObject({
      hs_call_recording_url: 'https://r/1.mp3',
      hs_call_body: 'Summary: Hi\n\nRecording: https://r/1.mp3',
      hubspot_owner_id: '55',
      hs_call_duration: '1400',
    });
    expect(props).not.toHaveProperty('hs_call_from_number');
  });

  it('puts the IVR keys pressed into the body', () => {
    expect(callProperties(callLog({ ivrDigits: '2' })).hs_call_body).toBe('IVR keys pressed: 2');
  });
});

describe('taskProperties', () => {
  it('maps an open callback task and a closed one', () => {
    const task = callbackTask({ key: 'acme:callback:+442079460000:1' });
    expect(taskProperties(task)).toEqual({
      hs_timestamp: '2026-11-20T11:15:00.000Z',
      hs_task_subject: 'Call back +44 20 7946 0000',
      hs_task_body: 'Missed call at 10:15 (1 attempt).',
      hs_task_status: 'NOT_STARTED',
      hs_task_type: 'CALL',
      hs_task_priority: 'HIGH',
      callsync_key: 'acme:callback:+442079460000:1',
    });
    expect(taskProperties({ ...task, status: 'closed' }, '9', 'LOW')).toMatchObject({
      hs_task_status: 'COMPLETED',
      hs_task_priority: 'LOW',
      hubspot_owner_id: '9',
    });
  });

  it('defers an expired callback task: nobody reached the caller, so it is not completed', () => {
    expect(taskProperties(callbackTask({ status: 'expired' })).hs_task_status).toBe('DEFERRED');
  });
});

describe('contactAssociations', () => {
  it('links to the contact with a HubSpot-defined type, or nothing', () => {
    expect(contactAssociations(contact('101'), 194)).toEqual([
      { to: { id: '101' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 194 }] },
    ]);
    expect(contactAssociations(null, 194)).toEqual([]);
  });
});

describe('phoneFilterGroups', () => {
  it('ORs phone, mobile and the calculated searchable numbers', () => {
    const groups = phoneFilterGroups('+442079460000', '2079460000');
    expect(groups).toHaveLength(4);
    expect(groups[0]).toEqual({
      filters: [{ propertyName: 'phone', operator: 'EQ', value: '+442079460000' }],
    });
    expect(groups[3]!.filters[0]).toEqual({
      propertyName: 'hs_searchable_calculated_mobile_number',
      operator: 'EQ',
      value: '2079460000',
    });
    expect(phoneFilterGroups('+442079460000', null)).toHaveLength(2);
  });
});

describe('toCrmContact / newContactProperties', () => {
  it('reads a search result', () => {
    expect(
      toCrmContact({
        id: '7',
        properties: { firstname: 'Ada', lastname: null, hubspot_owner_id: '' },
        updatedAt: new Date('2026-01-02T03:04:05Z'),
      }),
    ).toEqual({
      crmId: '7',
      kind: 'contact',
      name: 'Ada',
      ownerId: null,
      updatedAt: '2026-01-02T03:04:05.000Z',
    });
    expect(toCrmContact({ id: '8', properties: {} })).toMatchObject({ name: null, updatedAt: null });
  });

  it('splits the name and keeps the phone', () => {
    expect(newContactProperties({ phone: '+1555', name: 'Grace Brewster Hopper' })).toEqual({
      phone: '+1555',
      firstname: 'Grace Brewster',
      lastname: 'Hopper',
    });
    expect(newContactProperties({ phone: '+1555', name: null })).toEqual({ phone: '+1555' });
  });
});
