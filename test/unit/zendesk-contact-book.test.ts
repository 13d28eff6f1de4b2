// What only Zendesk's contact book does, on its test server: the users list paged by cursor, the
// incremental export read from a minute before the cursor (Zendesk leaves out the last minute's
// changes) and oldest first, a create whose answer was lost found by its external_id when sent
// again, a refused user not failing the others of its bulk job, names split at the first space, the mobile number
// and the deletion mark in their user fields.
import type { SideRecord } from '../../connectors/crm/contact-model';
import type { ContactState } from '../../connectors/crm/contact-model';
import { ZendeskConnector, zendeskConfigSchema } from '../../connectors/zendesk';
import type { ZendeskContactBook } from '../../connectors/zendesk/contact-book';
import { startFakeZendesk, type FakeZendesk } from '../fakes/zendesk-server';
import { emptyState } from '../../sync/contacts/model';

let fake: FakeZendesk;
let book: ZendeskContactBook;

async function start(exportExcludesMs?: number): Promise<void> {
  fake = await startFakeZendesk({
    requestsPerMinute: 2500,
    ...(exportExcludesMs === undefined ? {} : { exportExcludesMs }),
  });
  const config = zendeskConfigSchema.parse({
    type: 'zendesk',
    subdomain: fake.subdomain,
    baseUrl: fake.url,
    auth: { type: 'api-token', email: fake.admin.email, apiToken: fake.admin.apiToken },
    requestsPerMinute: 2400,
  });
  book = new ZendeskConnector(config, { country: 'GB' }).contactBook({ country: 'GB' });
  await book.prepare();
}

afterEach(async () => {
  await fake.close();
});

const state = (over: Partial<ContactState>): ContactState => ({ ...emptyState(), ...over });

async function all(pages: AsyncIterable<SideRecord[]>): Promise<SideRecord[][]> {
  const out: SideRecord[][] = [];
  for await (const page of pages) out.push(page);
  return out;
}

/** Waits for a condition the test server reaches by itself (a queued job done). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(done()).toBe(true);
}

const ago = (ms: number) => new Date(Date.now() - ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('Zendesk contact book', () => {
  it('lists every end user in pages of 100 by cursor, agents and admins left out', async () => {
    await start();
    const seeded = Array.from({ length: 150 }, (_, i) =>
      fake.seedUser({ name: `Person ${i}`, phone: `+4420794${String(60000 + i)}` }),
    );
    fake.seedUser({ name: 'An Agent', email: 'agent@acme.example', role: 'agent' });
    const pages = await all(book.listAll());
    expect(pages.map((p) => p.length)).toEqual([100, 50]);
    expect(pages.flat().map((r) => r.id)).toEqual(seeded.map((u) => String(u.id)));
    const listed = fake.requests.filter((r) => r.path.startsWith('/api/v2/users'));
    expect(listed.every((r) => new URLSearchParams(r.query).get('page[size]') === '100')).toBe(true);
    expect(pages[0]![1]!.state).toMatchObject({ firstName: 'Person', lastName: '1' });
  });

  it('reads changes from a minute before the cursor, oldest first, without those of the last minute', async () => {
    await start();
    // Changed 70 s ago, before the cursor (15 s ago) but within the minute the previous run's export
    // left out: a read from the cursor itself would never see them.
    const late = fake.seedUser({ name: 'Late Seen', phone: '+442079460101', updatedAt: ago(70_000) });
    const older = fake.seedUser({ name: 'Older Change', phone: '+442079460102', updatedAt: ago(72_000) });
    fake.seedUser({ name: 'Long Ago', phone: '+442079460103', updatedAt: ago(3_600_000) });
    fake.seedUser({ name: 'Just Now', phone: '+442079460104', updatedAt: ago(10_000) });
    const read = (await all(book.changedSince(ago(15_000)))).flat();
    // Just Now is in the minute Zendesk leaves out: the next run reads it.
    expect(read.map((r) => r.id)).toEqual([String(older.id), String(late.id)]);
    const exported = fake.requests.filter((r) => r.path.startsWith('/api/v2/incremental/users/cursor'));
    expect(exported).toHaveLength(1);
  });

  it("goes on from the last export's after_cursor once the sync's cursor moved; starts over when it did not", async () => {
    await start(0);
    const a = fake.seedUser({ name: 'Changed Once', updatedAt: ago(30_000) });
    const first = await all(book.changedSince(ago(60_000)));
    expect(first.flat().map((r) => r.id)).toEqual([String(a.id)]);
    const b = fake.seedUser({ name: 'Changed Later' });
    // The run finished: the next has a later cursor, and reads only what changed since the export.
    const cursor = ago(20_000);
    const second = await all(book.changedSince(cursor));
    expect(second.flat().map((r) => r.id)).toEqual([String(b.id)]);
    const exports = () => fake.requests.filter((r) => r.path.startsWith('/api/v2/incremental/'));
    expect(new URLSearchParams(exports().at(-1)!.query).has('cursor')).toBe(true);
    // A run that failed after reading is read again for the same cursor: from start_time.
    const again = await all(book.changedSince(cursor));
    expect(new URLSearchParams(exports().at(-1)!.query).has('start_time')).toBe(true);
    expect(again.flat().map((r) => r.id)).toContain(String(b.id));
  });

  it('follows the export across pages of 1,000 until the end of the stream', async () => {
    await start(0);
    for (let i = 0; i < 1001; i++) fake.seedUser({ name: `P ${i}`, updatedAt: ago(1_000_000 - i * 100) });
    const pages = await all(book.changedSince(ago(2_000_000)));
    expect(pages.map((p) => p.length)).toEqual([1000, 1]);
    const times = pages.flat().map((r) => r.modifiedAt!);
    expect([...times].sort()).toEqual(times);
  });

  it('finds a create whose answer was lost by its external_id when it is sent again: one user', async () => {
    await start(0);
    const input = {
      linkKey: 'acme:501',
      state: state({ firstName: 'Lost', lastName: 'Answer', phone: '+442079460201' }),
    };
    fake.loseNextAnswer('contact');
    await expect(book.create([input])).rejects.toThrow();
    // The job goes on without its answer: sent again once it made the user, the create is refused
    // (external_id taken) and the user found by it.
    await until(() => fake.users().some((u) => u.external_id === 'acme:501'));
    const out = await book.create([input]);
    const held = fake.users().filter((u) => u.external_id === 'acme:501');
    expect(held).toHaveLength(1);
    expect(out.ids.get('acme:501')).toBe(String(held[0]!.id));
    expect(out.rejected.size).toBe(0);
    // And the link key comes back with the user, for the engine's own recovery.
    const listed = (await all(book.listAll())).flat().find((r) => r.id === String(held[0]!.id));
    expect(listed?.linkKey).toBe('acme:501');
  });

  it('a user Zendesk refuses fails alone; the others are created', async () => {
    await start(0);
    fake.seedUser({ name: 'Taken', email: 'taken@example.com' });
    const out = await book.create([
      {
        linkKey: 'acme:1',
        state: state({ firstName: 'Dup', email: 'taken@example.com', phone: '+442079460301' }),
      },
      { linkKey: 'acme:2', state: state({ firstName: 'Fine', lastName: 'One', mobile: '+447700900302' }) },
    ]);
    expect([...out.rejected.keys()]).toEqual(['acme:1']);
    // One bulk request for both, its job read until done.
    const sent = fake.requests.filter((r) => r.path.startsWith('/api/v2/users/create_many'));
    expect(sent).toHaveLength(1);
    expect(fake.requests.some((r) => r.path.startsWith('/api/v2/job_statuses/'))).toBe(true);
    const fine = fake.users().find((u) => String(u.id) === out.ids.get('acme:2'));
    expect(fine).toMatchObject({ name: 'Fine One', user_fields: { callsync_mobile: '+447700900302' } });
  });

  it('updates the whole name from first and last name; a missing user is reported, not thrown', async () => {
    await start(0);
    const u = fake.seedUser({ name: 'Mary Ann Smith', phone: '020 7946 0401' });
    const [before] = (await all(book.listAll())).flat();
    expect(before!.state).toMatchObject({ firstName: 'Mary', lastName: 'Ann Smith', phone: '+442079460401' });
    const out = await book.update([
      {
        id: String(u.id),
        kind: 'contact',
        state: { ...before!.state, lastName: 'Jones' },
        fields: ['lastName'],
      },
      { id: '999', kind: 'contact', state: before!.state, fields: ['notes'] },
    ]);
    expect(out.missing).toEqual(['999']);
    expect(u.name).toBe('Mary Jones');
    // The phone is left as it was typed: it was not among the fields.
    expect(u.phone).toBe('020 7946 0401');
  });

  it('finds people by a number however it was typed, and by e-mail', async () => {
    await start(0);
    const typed = fake.seedUser({ name: 'Typed Number', phone: '020 7946 0501' });
    const mailed = fake.seedUser({ name: 'By Mail', email: 'mail@example.com' });
    const found = await book.findByNumbersOrEmails(['+442079460501'], ['mail@example.com']);
    expect(found.map((r) => r.id).sort()).toEqual([String(typed.id), String(mailed.id)].sort());
  });

  it('prepare makes its user fields once; the deletion mark reads back', async () => {
    await start(0);
    await book.prepare();
    expect(fake.userFields().map((f) => [f.key, f.type])).toEqual([
      ['callsync_mobile', 'text'],
      ['callsync_deleted', 'checkbox'],
    ]);
    const u = fake.seedUser({ name: 'Gone Person', phone: '+442079460601' });
    // One update_many job; a user gone from Zendesk meanwhile needs no mark.
    await book.markDeleted([
      { id: String(u.id), kind: 'contact' },
      { id: '999', kind: 'contact' },
    ]);
    const [r] = (await all(book.listAll())).flat();
    expect(r!.markedDeleted).toBe(true);
    await book.remove([{ id: String(u.id), kind: 'contact' }]);
    expect((await all(book.listAll())).flat()).toEqual([]);
  });

  it('a name that is only the number Zendesk required in its place reads as no name', async () => {
    await start(0);
    const out = await book.create([{ linkKey: 'acme:7', state: state({ phone: '+442079460701' }) }]);
    const u = fake.users().find((x) => String(x.id) === out.ids.get('acme:7'))!;
    expect(u.name).toBe('+442079460701');
    const [r] = (await all(book.listAll())).flat();
    expect(r!.state).toMatchObject({ firstName: null, lastName: null, phone: '+442079460701' });
  });
});
