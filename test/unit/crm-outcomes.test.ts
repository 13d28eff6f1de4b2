import { outcomesConfigSchema } from '../../config/outcomes';
import {
  callIdOfKey,
  cdrLabelNames,
  labelsAfterOutcome,
  outcomeLabel,
  outcomeNote,
} from '../../connectors/crm/outcomes';
import { ownDisposition } from '../../connectors/hubspot/properties';
import { outcomesQuery } from '../../connectors/salesforce/outcomes';
import { ownCallDisposition } from '../../connectors/salesforce/fields';

describe('CRM outcome rules', () => {
  const rules = { labelPrefix: '', map: {} };

  it('labels an outcome with its text, or the configured name (by value or text), prefixed', () => {
    const o = { value: 'f240bbac', label: 'Connected' };
    expect(outcomeLabel(o, rules)).toBe('Connected');
    expect(outcomeLabel(o, { labelPrefix: 'CRM: ', map: {} })).toBe('CRM: Connected');
    expect(outcomeLabel(o, { labelPrefix: '', map: { f240bbac: 'Reached' } })).toBe('Reached');
    expect(outcomeLabel(o, { labelPrefix: '', map: { connected: 'Reached' } })).toBe('Reached');
    expect(outcomeLabel({ value: 'x', label: 'y'.repeat(100) }, rules)).toHaveLength(64);
  });

  it('notes who and when, when known', () => {
    expect(outcomeNote({ label: 'Busy', by: 'Ada', modifiedAt: '2026-11-24T10:00:00.000Z' }, 'HubSpot')).toBe(
      'Outcome in HubSpot: Busy (set by Ada at 2026-11-24T10:00:00.000Z)',
    );
    expect(outcomeNote({ label: 'Busy', by: null, modifiedAt: 't' }, 'Salesforce')).toBe(
      'Outcome in Salesforce: Busy (set at t)',
    );
  });

  it('keeps the agent’s labels, replaces the previous outcome label, reads names in any shape', () => {
    expect(cdrLabelNames(['VIP', { name: 'Connected' }, 3, 'VIP'])).toEqual(['VIP', 'Connected']);
    expect(cdrLabelNames(undefined)).toEqual([]);
    expect(labelsAfterOutcome(['VIP', 'Connected'], 'Connected', 'Busy')).toEqual(['VIP', 'Busy']);
    expect(labelsAfterOutcome(['Busy', 'VIP'], null, 'Busy')).toEqual(['VIP', 'Busy']);
  });

  it('takes only this account’s call keys', () => {
    expect(callIdOfKey('acme:42', 'acme')).toBe(42);
    expect(callIdOfKey('other:42', 'acme')).toBeNull();
    expect(callIdOfKey('acme:callback:+44:1', 'acme')).toBeNull();
  });

  it('knows the dispositions callsync writes itself', () => {
    expect(ownDisposition('missed')).toBe('73a0d17f-1163-4015-bdd5-ec830791da20');
    expect(ownDisposition('failed')).toBeNull();
    expect(ownCallDisposition('completed')).toBe('Connected');
  });

  it('queries Salesforce from the cursor, with an unquoted datetime', () => {
    expect(outcomesQuery(null)).not.toContain('SystemModstamp >=');
    expect(outcomesQuery('2026-11-24T10:00:00.000Z')).toContain('SystemModstamp >= 2026-11-24T10:00:00.000Z');
  });

  it('is on by default, every 5 minutes, in PATCH batches of 100', () => {
    expect(outcomesConfigSchema.parse({})).toEqual({
      enabled: true,
      every: 300_000,
      labelPrefix: '',
      map: {},
      batchSize: 100,
    });
  });
});
