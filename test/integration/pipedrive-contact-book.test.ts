// The Pipedrive contact book against the fake Pipedrive: persons read in Pipedrive's order and pages,
// the link key's field found or created once, a create whose answer was lost found again by its key,
// a refused or missing record not failing the others, a number update that keeps the person's other
// numbers, and the delete mark.
import type { SideRecord } from '../../connectors/crm/contact-model';
import { PipedriveConnector, pipedriveConfigSchema } from '../../connectors/pipedrive';
import type { PipedriveContactBook } from '../../connectors/pipedrive/contact-book';
import { LINK_FIELD } from '../../connectors/pipedrive/person-fields';
import { startFakePipedrive, type FakePipedrive } from '../fakes/pipedrive-server';
import { emptyState } from '../../sync/contacts/model';

let fake: FakePipedrive;

function book(): PipedriveContactBook {
  const config = pipedriveConfigSchema.parse({
    type: 'pipedrive',
    companyDomain: 'acme',
    apiUrl: fake.url,
    apiToken: fake.apiToken,
    // The fake's Enterprise pace (120 per 2 s for an API token): hundreds of persons are seeded.
    requestsPer2Seconds: 120,
  });
  return new PipedriveConnector(config).contactBook({ country: 'GB' });
}

async function all(pages: AsyncIterable<SideRecord[]>): Promise<SideRecord[][]> {
  const out: SideRecord[][] = [];
  for await (const page of pages) out.push(page);
  return out;
}

const state = (over: Partial<SideRecord['state']> = {}): SideRecord['state'] => ({
  ...emptyState(),
  ...over,
});

const requests = (method: string, path: string) =>
  fake.requests.filter((r) => r.method === method && r.path === path);

beforeEach(async () => {
  fake = await startFakePipedrive();
  fake.limits.burstOverride = 120;
});
afterEach(() => fake.close());

describe('PipedriveContactBook', () => {
  it('finds the link key field by name, creating it once; prepared again it creates nothing', async () => {
    await book().prepare();
    await book().prepare();
    expect(requests('POST', '/api/v1/personFields')).toHaveLength(2);
    expect(fake.state.personFields.filter((f) => f.name === LINK_FIELD)).toHaveLength(1);
    const key = fake.state.personFields.find((f) => f.name === LINK_FIELD)!.key;

    const b = book();
    const out = await b.create([
      { linkKey: 'acme:7', state: state({ firstName: 'Ann', phone: '+442079460101' }) },
    ]);
    expect(fake.state.persons.get(Number(out.ids.get('acme:7')))!.custom_fields).toEqual({ [key]: 'acme:7' });
  });

  it('reads changes oldest first by update_time, from the cursor on, page after page', async () => {
    const t0 = Date.parse('2026-11-01T00:00:00Z');
    // Ids in the opposite order of their update times: the order must come from update_time.
    for (let i = 0; i < 620; i++)
      fake.seedPerson({
        name: `P${i} Person`,
        phones: ['020 7946 0' + String(i).padStart(3, '0')],
        updatedAt: new Date(t0 + (620 - i) * 60_000).toISOString(),
      });
    const since = new Date(t0 + 10 * 60_000).toISOString();
    const pages = await all(book().changedSince(since));
    expect(pages.map((p) => p.length)).toEqual([500, 111]);
    const times = pages.flat().map((r) => r.modifiedAt!);
    expect(times[0]).toBe(since);
    expect([...times].sort()).toEqual(times);
    // Read as the sync compares it: the name split at its first space, the number in E.164.
    expect(pages[1]!.at(-1)).toMatchObject({
      state: { firstName: 'P0', lastName: 'Person', phone: '+442079460000', mobile: null },
      numbers: ['+442079460000'],
      kind: 'contact',
      linkKey: null,
      markedDeleted: false,
    });
    expect(requests('GET', '/api/v2/persons')).toHaveLength(2);
  });

  it('a create whose answer was lost is read back with its link key, by list, by change and by number', async () => {
    const b = book();
    await b.prepare();
    fake.loseNextAnswer('POST', '/api/v2/persons');
    const input = {
      linkKey: 'acme:42',
      state: state({ firstName: 'Lost', lastName: 'Answer', mobile: '+447911100202' }),
    };
    await expect(b.create([input])).rejects.toThrow();
    expect(fake.state.persons.size).toBe(1);

    const listed = (await all(b.listAll())).flat();
    expect(listed).toEqual([expect.objectContaining({ linkKey: 'acme:42', state: input.state })]);
    const changed = (await all(b.changedSince(new Date(Date.now() - 60_000).toISOString()))).flat();
    expect(changed.map((r) => r.linkKey)).toEqual(['acme:42']);
    const found = await b.findByNumbersOrEmails(['+447911100202'], []);
    expect(found.map((r) => r.linkKey)).toEqual(['acme:42']);
  });

  it('finds persons by a number typed nationally and by an e-mail in any case', async () => {
    const b = book();
    const typed = fake.seedPerson({ name: 'Typed Number', phones: ['(020) 7946-0303'] });
    const mailed = fake.seedPerson({ name: 'Mailed Person', phones: [] });
    fake.state.persons.get(mailed)!.emails = [{ value: 'Mail@Example.com', primary: true, label: 'work' }];
    fake.seedPerson({ name: 'Other Number', phones: ['020 7946 0304'] });
    const found = await b.findByNumbersOrEmails(['+442079460303'], ['mail@example.com']);
    expect(found.map((r) => Number(r.id)).sort()).toEqual([typed, mailed].sort());
    expect(found.find((r) => Number(r.id) === mailed)!.state.email).toBe('mail@example.com');
  });

  it('a refused create and a missing person fail alone; the others are written', async () => {
    const b = book();
    await b.prepare();
    // An admin deleted callsync's field after prepare: Pipedrive refuses the create's custom field.
    const field = fake.state.personFields.find((f) => f.name === LINK_FIELD)!;
    fake.state.personFields.splice(fake.state.personFields.indexOf(field), 1);
    const created = await b.create([
      { linkKey: 'acme:1', state: state({ firstName: 'No', phone: '+442079460001' }) },
    ]);
    expect(created.ids.size).toBe(0);
    expect(created.rejected.get('acme:1')).toMatch(/400/);

    const kept = fake.seedPerson({ name: 'Kept Person', phones: ['+442079460002'] });
    const out = await b.update([
      { id: '99999', kind: 'contact', state: state({ firstName: 'Gone' }), fields: ['firstName'] },
      {
        id: String(kept),
        kind: 'contact',
        state: state({ firstName: 'Kept', lastName: 'Again' }),
        fields: ['lastName'],
      },
    ]);
    expect(out).toEqual({ missing: ['99999'], rejected: new Map() });
    expect(fake.state.persons.get(kept)!.name).toBe('Kept Again');
  });

  it("a number update keeps the person's other numbers and e-mails; one write", async () => {
    const b = book();
    const id = fake.seedPerson({ name: 'Many Numbers', phones: ['020 7946 0500', '020 7946 0599'] });
    const p = fake.state.persons.get(id)!;
    p.phones[1]!.label = 'home';
    p.phones.push({ value: '07911 100500', primary: false, label: 'mobile' });
    p.emails = [{ value: 'many@example.com', primary: true, label: 'work' }];
    const before = p.update_time;

    const out = await b.update([
      {
        id: String(id),
        kind: 'contact',
        state: state({
          firstName: 'Many',
          lastName: 'Numbers',
          phone: '+442079460555',
          mobile: '+447911100500',
        }),
        fields: ['phone'],
      },
    ]);
    expect(out.missing).toEqual([]);
    expect(p.phones).toEqual([
      { value: '020 7946 0599', primary: false, label: 'home' },
      { value: '07911 100500', primary: false, label: 'mobile' },
      { value: '+442079460555', primary: true, label: 'work' },
    ]);
    expect(p.emails).toEqual([{ value: 'many@example.com', primary: true, label: 'work' }]);
    expect(p.update_time > before).toBe(true);
    expect(requests('PATCH', `/api/v2/persons/${id}`)).toHaveLength(1);
    const [record] = (await all(b.listAll())).flat();
    expect(record!.state).toMatchObject({
      phone: '+442079460555',
      mobile: '+447911100500',
      email: 'many@example.com',
    });
    expect(record!.numbers.sort()).toEqual(['+442079460555', '+442079460599', '+447911100500']);
  });

  it('marks a person deleted, then removes it; removing it again succeeds', async () => {
    const b = book();
    const id = String(fake.seedPerson({ name: 'Marked Person', phones: ['+442079460700'] }));
    await b.markDeleted([{ id, kind: 'contact' }]);
    expect((await all(b.listAll())).flat()[0]).toMatchObject({ id, markedDeleted: true });
    await b.remove([{ id, kind: 'contact' }]);
    await b.remove([{ id, kind: 'contact' }]);
    expect(fake.state.persons.size).toBe(0);
  });

  it('a person named by its own number (an unknown caller) has no name to sync', async () => {
    const b = book();
    fake.seedPerson({ name: '+442079460800', phones: ['+442079460800'] });
    const [record] = (await all(b.listAll())).flat();
    expect(record!.state).toMatchObject({ firstName: null, lastName: null, phone: '+442079460800' });
  });
});
