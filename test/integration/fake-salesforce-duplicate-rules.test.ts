// The Salesforce test server's standard duplicate rules on edit, as the org enforces them through
// the REST API (test/fakes/salesforce-server.ts checkDuplicatesOnEdit; the rules on create are
// checked in crm-salesforce.test.ts with the connector that meets them).
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';

let fake: FakeSalesforce;

beforeAll(async () => {
  fake = await startFakeSalesforce();
});
afterAll(() => fake.close());

describe("the test server's duplicate rules", () => {
  it("the org's duplicate rule on edit: Phone or Email changed to another record's is refused, other edits saved", async () => {
    const taken = fake.seed('Contact', {
      LastName: 'Taken',
      Phone: '+441632960061',
      Email: 'taken@example.com',
    });
    const mine = fake.seed('Contact', { LastName: 'Mine', Phone: '+441632960062' });
    const lead = fake.seed('Lead', { LastName: 'Ld', Company: 'X', Phone: '+441632960063' });
    const api = `${fake.url}/services/data/v${fake.version}`;
    const send = (method: string, path: string, body: object, headers: Record<string, string> = {}) =>
      fetch(`${api}${path}`, {
        method,
        headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const dup = await send('PATCH', `/sobjects/Contact/${mine}`, { Phone: '(44) 1632 960061' });
    expect(dup.status).toBe(400);
    expect(await dup.json()).toEqual([
      expect.objectContaining({
        errorCode: 'DUPLICATES_DETECTED',
        duplicateResult: expect.objectContaining({
          matchResults: [
            expect.objectContaining({
              entityType: 'Contact',
              matchRecords: [expect.objectContaining({ record: expect.objectContaining({ Id: taken }) })],
            }),
          ],
        }),
      }),
    ]);
    const phoneOf = (id: string) => fake.records('Contact').find((r) => r.Id === id)!.fields.Phone;
    expect(phoneOf(mine)).toBe('+441632960062');
    // In a collection: the e-mail in another case is refused alone, with its DuplicateResult.
    const coll = await send('PATCH', '/composite/sobjects', {
      allOrNone: false,
      records: [
        { attributes: { type: 'Contact' }, id: mine, Email: 'TAKEN@example.com' },
        { attributes: { type: 'Lead' }, id: lead, FirstName: 'Lou' },
      ],
    });
    expect(await coll.json()).toEqual([
      {
        success: false,
        errors: [
          expect.objectContaining({
            statusCode: 'DUPLICATES_DETECTED',
            duplicateResult: expect.objectContaining({ duplicateRule: 'Standard_Contact_Duplicate_Rule' }),
          }),
        ],
      },
      { id: lead, success: true, errors: [] },
    ]);
    // A Lead's edit is compared with Contacts too.
    expect((await send('PATCH', `/sobjects/Lead/${lead}`, { Email: 'Taken@example.com' })).status).toBe(400);
    // Saved: an edit keeping the number (typed differently), an edit of other fields of a record that
    // has a duplicate already, and a duplicate the request deliberately allows.
    expect(
      (await send('PATCH', `/sobjects/Contact/${taken}`, { Phone: '+44 1632 960061', FirstName: 'T' }))
        .status,
    ).toBe(204);
    const twin = fake.seed('Contact', { LastName: 'Twin', Phone: '+441632960061' });
    expect((await send('PATCH', `/sobjects/Contact/${twin}`, { FirstName: 'Tw' })).status).toBe(204);
    const allowed = await send(
      'PATCH',
      `/sobjects/Contact/${mine}`,
      { Phone: '+441632960061' },
      { 'Sforce-Duplicate-Rule-Header': 'allowSave=true' },
    );
    expect(allowed.status).toBe(204);
    expect(phoneOf(mine)).toBe('+441632960061');
  });
});
