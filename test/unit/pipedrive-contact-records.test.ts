// Pipedrive persons as the contact sync reads and writes them: the one name split and joined, the
// synced number and e-mail entries picked out of the person's arrays and replaced without touching
// the others.
import type { ContactState } from '../../connectors/crm/contact-model';
import {
  changedItems,
  nameOf,
  personRecord,
  slots,
  splitName,
} from '../../connectors/pipedrive/contact-records';
import { emptyState } from '../../sync/contacts/model';

const keys = { link: 'a'.repeat(40), deleted: 'b'.repeat(40) };
const state = (over: Partial<ContactState> = {}): ContactState => ({ ...emptyState(), ...over });

describe('Pipedrive contact records', () => {
  it('splits the name at its first space and joins it back; a nameless contact is named by a number', () => {
    expect(splitName('Mary Ann Smith')).toEqual({ firstName: 'Mary', lastName: 'Ann Smith' });
    expect(splitName('Cher')).toEqual({ firstName: 'Cher', lastName: null });
    expect(nameOf(state({ firstName: 'Mary', lastName: 'Ann Smith' }))).toBe('Mary Ann Smith');
    expect(nameOf(state({ mobile: '+447911100202', email: 'x@example.com' }))).toBe('+447911100202');
  });

  it('reads the primary non-mobile number as phone, the mobile-labelled one as mobile, the link key and mark', () => {
    const p = {
      id: 5,
      name: 'Ann Same',
      update_time: '2026-11-20T10:00:00Z',
      phones: [
        { value: '020 7946 0001', label: 'home', primary: false },
        { value: '07911 100202', label: 'mobile', primary: true },
        { value: '020 7946 0002', label: 'work', primary: false },
      ],
      emails: [
        { value: 'old@example.com', label: 'home', primary: false },
        { value: 'Ann@Example.com', label: 'work', primary: true },
      ],
      custom_fields: { [keys.link]: 'acme:9', [keys.deleted]: null },
    };
    expect(personRecord(p, keys, 'GB')).toEqual({
      id: '5',
      state: state({
        firstName: 'Ann',
        lastName: 'Same',
        email: 'ann@example.com',
        // No non-mobile number is primary: the first of them.
        phone: '+442079460001',
        mobile: '+447911100202',
      }),
      numbers: ['+442079460001', '+447911100202', '+442079460002'],
      modifiedAt: '2026-11-20T10:00:00.000Z',
      kind: 'contact',
      linkKey: 'acme:9',
      markedDeleted: false,
    });
  });

  it('replaces only the synced entries; a removed primary entry hands primary to the first left', () => {
    const p = {
      id: 1,
      phones: [
        { value: '+442079460001', label: 'work', primary: true },
        { value: '+447911100202', label: 'mobile', primary: false },
        { value: '+442079460009', label: 'other', primary: false },
      ],
      emails: [{ value: 'a@example.com', label: 'work', primary: true }],
    };
    expect(slots(p).phone?.value).toBe('+442079460001');
    // The phone removed, the mobile changed; the e-mail not asked for is not sent.
    expect(changedItems(p, state({ mobile: '+447911100303' }), ['phone', 'mobile'])).toEqual({
      phones: [
        { value: '+442079460009', label: 'other', primary: true },
        { value: '+447911100303', label: 'mobile', primary: false },
      ],
    });
    expect(changedItems(p, state({ email: 'b@example.com' }), ['email'])).toEqual({
      emails: [{ value: 'b@example.com', label: 'work', primary: true }],
    });
  });
});
