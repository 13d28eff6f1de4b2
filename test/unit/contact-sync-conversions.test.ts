import type { ContactLink } from '../../connectors/postgres/repositories/contact-sync';
import { followConversions } from '../../sync/contacts/conversions';
import { emptyState } from '../../sync/contacts/model';

const link = (platformId: string, crmKind: 'contact' | 'lead', crmId: string): ContactLink => ({
  platformId,
  crmKind,
  crmId,
  platformState: { ...emptyState(), lastName: platformId },
  crmState: { ...emptyState(), lastName: platformId },
  platformHash: `p${platformId}`,
  crmHash: `c${platformId}`,
  deletedSide: null,
});

describe('followConversions', () => {
  it('moves the link of a converted Lead to its Contact and keeps the synced states', () => {
    const links = [link('1', 'lead', '00Q1'), link('2', 'contact', '0032'), link('3', 'lead', '00Q3')];
    const out = followConversions(links, [{ leadId: '00Q1', contactId: '003new' }]);
    expect(out.moved).toEqual([{ ...links[0], crmKind: 'contact', crmId: '003new' }]);
    expect(out.leftLeads).toEqual(['00Q1']);
    expect(out.links.map((l) => [l.platformId, l.crmKind, l.crmId])).toEqual([
      ['1', 'contact', '003new'],
      ['2', 'contact', '0032'],
      ['3', 'lead', '00Q3'],
    ]);
    expect(out.conflicts).toEqual([]);
  });

  it('records a conversion into a Contact another platform contact holds, and leaves that link', () => {
    const links = [link('1', 'lead', '00Q1'), link('2', 'contact', '0032'), link('3', 'lead', '00Q3')];
    const out = followConversions(links, [
      { leadId: '00Q1', contactId: '0032' },
      // Two Leads merged into one new Contact: the first keeps it, the second is recorded.
      { leadId: '00Q3', contactId: '003new' },
      { leadId: '00Q9', contactId: '003new' },
    ]);
    expect(out.moved.map((l) => l.platformId)).toEqual(['3']);
    expect(out.conflicts).toEqual([
      expect.objectContaining({ side: 'platform', recordId: '1', candidates: ['0032'] }),
    ]);
    expect(out.conflicts[0]!.reason).toMatch(/Lead 00Q1 was converted into Contact 0032.*platform contact 2/);
    expect(out.links[0]).toBe(links[0]);
  });

  it('leaves a link already marked deleted, and Contacts, alone', () => {
    const gone = { ...link('1', 'lead', '00Q1'), deletedSide: 'crm' as const };
    const out = followConversions(
      [gone, link('2', 'contact', '0032')],
      [
        { leadId: '00Q1', contactId: '003a' },
        { leadId: '0032', contactId: '003b' },
      ],
    );
    expect(out.moved).toEqual([]);
    expect(out.conflicts).toEqual([]);
  });
});
