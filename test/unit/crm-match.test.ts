import { chooseContact } from '../../connectors/crm/match';
import { toE164 } from '../../lib/phone';
import type { CrmContact } from '../../connectors/crm/crm-connector';

const c = (
  crmId: string,
  updatedAt: string | null,
  ownerId: string | null = null,
  kind: 'contact' | 'lead' = 'contact',
): CrmContact => ({
  crmId,
  kind,
  name: `n${crmId}`,
  ownerId,
  updatedAt,
});

describe('phone numbers to E.164', () => {
  it.each([
    ['+44 20 7946 0018', 'GB', '+442079460018'],
    ['020 7946 0018', 'GB', '+442079460018'],
    ['0044 20 7946 0018', 'US', '+442079460018'],
    ['(415) 555-2671', 'US', '+14155552671'],
    ['+49 30 901820', 'GB', '+4930901820'],
    // International digits without + (the platform's SMS numbers), and national ones as before.
    ['447911123456', 'GB', '+447911123456'],
    ['4930901820', 'GB', '+4930901820'],
    ['7911123456', 'GB', '+447911123456'],
    ['4155552671', 'US', '+14155552671'],
  ] as const)('%s (default %s) → %s', (raw, country, expected) => {
    expect(toE164(raw, country)).toBe(expected);
  });

  it.each(['101', 'anonymous', '', '+1', 'not a number'])('rejects %p', (raw) => {
    expect(toE164(raw, 'GB')).toBeNull();
  });
});

describe('choosing among contacts with the same number', () => {
  it('takes the most recently updated', () => {
    expect(
      chooseContact([c('1', '2026-01-01'), c('2', '2026-03-01'), c('3', null)], 'most_recent', null)?.crmId,
    ).toBe('2');
  });

  it('prefers the contact owned by the call user under call_owner, else the most recent', () => {
    const list = [c('1', '2026-01-01', 'u7'), c('2', '2026-03-01', 'u8')];
    expect(chooseContact(list, 'call_owner', 'u7')?.crmId).toBe('1');
    expect(chooseContact(list, 'call_owner', 'u9')?.crmId).toBe('2');
    expect(chooseContact(list, 'most_recent', 'u7')?.crmId).toBe('2');
  });

  it('prefers contacts to leads, and is stable on ties', () => {
    expect(
      chooseContact([c('9', '2026-05-01', null, 'lead'), c('4', '2026-01-01')], 'most_recent', null)?.crmId,
    ).toBe('4');
    expect(chooseContact([c('10', null), c('2', null)], 'most_recent', null)?.crmId).toBe('2');
    expect(chooseContact([], 'most_recent', null)).toBeNull();
  });
});
