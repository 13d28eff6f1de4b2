// HubSpot's search takes a request body of at most 3,000 characters
// (https://developers.hubspot.com/docs/api/crm/search, Limitations): the test server refuses a longer
// one as HubSpot does, and callsync's lookups of many numbers, addresses or keys split their searches
// by the body's size and still find everything.
import { HubSpotConnector } from '../../connectors/hubspot';
import { SEARCH_BODY_CHARS, startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { hubspotConnectorOn } from '../support/hubspot-connector';

let fake: FakeHubSpot;
let hubspot: HubSpotConnector;

/** German mobile numbers: 14 digits in E.164, long enough to fill a search body quickly. */
const longNumber = (i: number) => `+4915123${String(1_000_000 + i).slice(1)}`;

const searches = () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/search'));

beforeAll(async () => {
  fake = await startFakeHubSpot();
  hubspot = hubspotConnectorOn(fake);
});
afterAll(() => fake.close());

describe('HubSpot search body limit', () => {
  it('the test server refuses a search body over 3,000 characters with a 400 in HubSpot’s shape', async () => {
    const values = Array.from({ length: 100 }, (_, i) => longNumber(i));
    const body = JSON.stringify({
      filterGroups: ['phone', 'mobilephone'].map((propertyName) => ({
        filters: [{ propertyName, operator: 'IN', values }],
      })),
      limit: 10,
    });
    expect(body.length).toBeGreaterThan(SEARCH_BODY_CHARS);
    const res = await fetch(`${fake.url}/crm/v3/objects/contacts/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
  });

  it('a lookup of 300 long numbers makes only searches under the limit and finds every contact', async () => {
    const numbers = Array.from({ length: 300 }, (_, i) => longNumber(i));
    const ids = new Map(
      numbers.map((n, i) => [n, fake.seedContact(i % 2 === 0 ? { phone: n } : { mobilephone: n })]),
    );
    const before = searches().length;
    const found = await hubspot.batch.findContactsByPhones(numbers);
    const sent = searches().slice(before);
    expect(sent.length).toBeGreaterThan(1);
    for (const r of sent) {
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.body).length).toBeLessThanOrEqual(SEARCH_BODY_CHARS);
    }
    expect(found.size).toBe(300);
    for (const n of numbers) expect(found.get(n)?.map((c) => c.crmId)).toEqual([ids.get(n)]);
  });

  it('the contact sync’s matching by many numbers and addresses stays under the limit too', async () => {
    const numbers = Array.from({ length: 150 }, (_, i) => longNumber(1000 + i));
    const emails = Array.from({ length: 150 }, (_, i) => `someone.with.a.long.address.${i}@example.com`);
    for (const n of numbers) fake.seedContact({ phone: n });
    for (const e of emails) fake.seedContact({ email: e });
    const before = searches().length;
    const found = await hubspot.contactBook({ country: 'DE' }).findByNumbersOrEmails(numbers, emails);
    const sent = searches().slice(before);
    expect(sent.length).toBeGreaterThan(1);
    for (const r of sent) {
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.body).length).toBeLessThanOrEqual(SEARCH_BODY_CHARS);
    }
    expect(found).toHaveLength(300);
  });
});
