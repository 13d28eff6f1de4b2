// Following a person's records to their other identifiers: a contact holding one of their numbers
// brings its other numbers and e-mail; a second contact with that e-mail brings its numbers; records
// of somebody else (no identifier in common) bring nothing.
import { linkedSubjects, linkQuery, type LinkRecord } from '../../lib/erasure/links';

const records: LinkRecord[] = [
  { phones: ['07911 123456', '+44 7911 777999', null], emails: ['Alice.Liddell@example.org'] },
  { phones: ['0044 7911 777888'], emails: [' alice.liddell@example.org '] },
  { phones: ['07911 000111'], emails: ['bob@example.org'] },
  // Ends in the same digits but is another country's number: not theirs.
  { phones: ['+1 791 112 3456', '+1 202 555 0100'], emails: [] },
];

/** A lookup over `records` that, like the SQL one, returns a superset (every record, every time). */
const lookup = async () => records;

describe('linkedSubjects', () => {
  it('follows the records to a fixed point, normalised, without the subject itself', async () => {
    const linked = await linkedSubjects({ kind: 'number', value: '+447911123456' }, 'GB', lookup);
    expect(linked).toEqual(
      expect.arrayContaining([
        { kind: 'number', value: '+447911777999' },
        { kind: 'email', value: 'alice.liddell@example.org' },
        { kind: 'number', value: '+447911777888' },
      ]),
    );
    expect(linked).toHaveLength(3);
  });

  it('starts from an e-mail as well', async () => {
    const linked = await linkedSubjects({ kind: 'email', value: 'bob@example.org' }, 'GB', lookup);
    expect(linked).toEqual([{ kind: 'number', value: '+447911000111' }]);
  });

  it('asks the lookup by digit tails, E.164 numbers and e-mails', () => {
    expect(
      linkQuery([
        { kind: 'number', value: '+447911123456' },
        { kind: 'email', value: 'a@b.org' },
      ]),
    ).toEqual({ numbers: ['+447911123456'], tails: ['911123456'], emails: ['a@b.org'] });
  });
});
