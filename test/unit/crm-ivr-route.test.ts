import { callLogBody } from '../../connectors/crm/call-log-body';
import { ivrChoices, ivrRouteText, type TimelineStep } from '../../connectors/crm/ivr-route';
import { callLog } from './crm-fixtures';

const step = (name: string, detail: Record<string, unknown>): TimelineStep => ({ name, detail });

describe('IVR route (where the keys pressed led)', () => {
  it('follows each key press to the next party the call reached', () => {
    const timeline = [
      step('call.initial', { dst: '600', dstName: 'Main menu' }),
      step('call.dtmf', { digits: '2', dst: '600', dstName: 'Main menu' }),
      step('call.ringing', { dst: '700', dstName: 'Sales' }),
      step('call.dtmf', { digits: '1', dst: '700', dstName: 'Sales' }),
      step('call.hold', { dst: '700', dstName: 'Sales' }),
      step('call.ringing', { dst: '101', dstName: 'Amelia' }),
      step('call.hangup', {}),
    ];
    const choices = ivrChoices(timeline);
    expect(choices).toEqual([
      { keys: '2', ledTo: 'Sales (700)' },
      { keys: '1', ledTo: 'Amelia (101)' },
    ]);
    expect(ivrRouteText(choices)).toBe('2 → Sales (700); 1 → Amelia (101)');
  });

  it('says unknown for a choice followed by another menu or nothing, and nothing when no choice led anywhere', () => {
    const choices = ivrChoices([
      step('call.dtmf', { digits: '9', dst: '600' }),
      step('call.dtmf', { digits: '3', dst: '600' }),
      step('call.ringing', { dst: '+442071234567' }),
    ]);
    expect(choices).toEqual([
      { keys: '9', ledTo: null },
      { keys: '3', ledTo: '+442071234567' },
    ]);
    expect(ivrRouteText(choices)).toBe('9 → unknown; 3 → +442071234567');
    expect(
      ivrRouteText(ivrChoices([step('call.dtmf', { digits: '1' }), step('call.hangup', {})])),
    ).toBeNull();
    expect(
      ivrChoices([step('call.ringing', { dst: '1' }), step('x', null as unknown as Record<string, unknown>)]),
    ).toEqual([]);
  });

  it('shows the route under the keys in the call log body', () => {
    expect(
      callLogBody(callLog({ ivrDigits: '21', ivrRoute: '2 → Sales (700); 1 → Amelia (101)', summary: 'S' })),
    ).toBe('IVR keys pressed: 2 1\nIVR route: 2 → Sales (700); 1 → Amelia (101)\n\nSummary: S');
  });
});
