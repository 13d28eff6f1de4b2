// The Dynamics 365 contact book (connectors/dynamics/contact-book.ts) beyond the conformance
// scenario: its link-key column made once, changes read oldest first across @odata.nextLink pages,
// writes in one $batch where a refused record fails alone, a create whose answer was lost found again
// by its link key, and a platform delete marked by deactivating the contact.
import { emptyState } from '../../sync/contacts/model';
import type { ContactState } from '../../connectors/crm/contact-model';
import { DynamicsContactBook } from '../../connectors/dynamics/contact-book';
import type { DynamicsConnector } from '../../connectors/dynamics';
import { LINK_COLUMN } from '../../connectors/dynamics/contact-records';
import { startDynamicsHarness, type DynamicsHarness } from '../conformance/harness-dynamics';

let h: DynamicsHarness;
let book: DynamicsContactBook;

const state = (s: Partial<ContactState>): ContactState => ({ ...emptyState(), ...s });
const contactOps = (method: string) =>
  h.server.operations.filter((o) => o.method === method && /^contacts(\(|$)/.test(o.path));

beforeAll(async () => {
  h = await startDynamicsHarness();
  book = (h.connector as DynamicsConnector).contactBook({ country: 'GB' });
});
afterAll(async () => {
  await h?.dispose();
});

it('prepare creates the link-key column once; a second prepare only reads it', async () => {
  const definitions = () => h.server.operations.filter((o) => o.path.startsWith('EntityDefinitions'));
  await book.prepare();
  await book.prepare();
  expect(definitions().map((o) => [o.method, o.status])).toEqual([
    ['GET', 404],
    ['POST', 204],
    ['GET', 200],
  ]);
});

it('reads changes oldest first, page after page through @odata.nextLink', async () => {
  const small = new DynamicsContactBook((h.connector as DynamicsConnector).api, 'GB', 2);
  const at = ['2030-01-05', '2030-01-01', '2030-01-04', '2029-12-31', '2030-01-03', '2030-01-02'];
  const ids = new Map(
    at.map((day) => [h.server.seedContact({ lastname: day }, `${day}T12:00:00.000Z`), day]),
  );
  const gets = () => h.server.operations.filter((o) => o.method === 'GET' && o.path === 'contacts').length;
  const before = gets();
  const pages: string[][] = [];
  for await (const page of small.changedSince('2030-01-01T00:00:00Z'))
    pages.push(page.map((r) => ids.get(r.id)!));
  expect(pages).toEqual([['2030-01-01', '2030-01-02'], ['2030-01-03', '2030-01-04'], ['2030-01-05']]);
  expect(gets() - before).toBe(3);
});

it('creates a batch in one request; a record Dataverse refuses fails alone, with its reason', async () => {
  const posts = contactOps('POST').length;
  const batches = () => h.server.requests.filter((r) => r.path === '$batch').length;
  const sent = batches();
  const out = await book.create([
    { linkKey: 'acme:101', state: state({ firstName: 'Fine', lastName: 'Person', phone: '+442079460101' }) },
    { linkKey: 'acme:102', state: state({ firstName: 'x'.repeat(51), lastName: 'Too Long' }) },
    { linkKey: 'acme:103', state: state({ lastName: 'Also Fine', email: 'also@example.com' }) },
  ]);
  expect([...out.ids.keys()]).toEqual(['acme:101', 'acme:103']);
  expect(out.rejected.get('acme:102')).toMatch(/^0x80044331: .*firstname/);
  expect(batches() - sent).toBe(1);
  expect(contactOps('POST').length - posts).toBe(3);
  const stored = h.server.rows('contacts').find((r) => r.__id === out.ids.get('acme:101'));
  expect(stored).toMatchObject({ firstname: 'Fine', telephone1: '+442079460101', [LINK_COLUMN]: 'acme:101' });
});

it('a create whose answer was lost throws, and the next read finds the record by its link key', async () => {
  h.server.loseNextCreate('contacts', (r) => r[LINK_COLUMN] === 'acme:201');
  await expect(
    book.create([{ linkKey: 'acme:201', state: state({ lastName: 'Lost Answer' }) }]),
  ).rejects.toThrow();
  const found: string[] = [];
  for await (const page of book.listAll())
    for (const r of page) if (r.linkKey === 'acme:201') found.push(r.id);
  expect(found).toHaveLength(1);
  expect(h.server.rows('contacts').filter((r) => r[LINK_COLUMN] === 'acme:201')).toHaveLength(1);
});

it('updates in one batch: a deleted contact is missing, a refused one rejected, the rest written', async () => {
  const keep = h.server.seedContact({ lastname: 'Keep' });
  const gone = h.server.seedContact({ lastname: 'Gone' });
  const bad = h.server.seedContact({ lastname: 'Bad' });
  h.server.tables.delete('contacts', gone);
  const out = await book.update([
    {
      id: keep,
      kind: 'contact',
      state: state({ lastName: 'Kept', notes: 'Line one' }),
      fields: ['lastName', 'notes'],
    },
    { id: gone, kind: 'contact', state: state({ lastName: 'Nope' }), fields: ['lastName'] },
    {
      id: bad,
      kind: 'contact',
      state: state({ email: `${'x'.repeat(100)}@example.com` }),
      fields: ['email'],
    },
  ]);
  expect(out.missing).toEqual([gone]);
  expect([...out.rejected.keys()]).toEqual([bad]);
  expect(h.server.rows('contacts').find((r) => r.__id === keep)).toMatchObject({
    lastname: 'Kept',
    description: 'Line one',
  });
  // If-Match: * : the deleted contact was not created again.
  expect(h.server.rows('contacts').some((r) => r.lastname === 'Nope')).toBe(false);
});

it('finds active contacts by a number typed another way or by e-mail; a marked one is deactivated', async () => {
  const typed = h.server.seedContact({ lastname: 'Typed', mobilephone: '07911 123301' });
  const mailed = h.server.seedContact({ lastname: 'Mailed', emailaddress1: 'Mailed@Example.com' });
  const marked = h.server.seedContact({ lastname: 'Marked', telephone1: '+44 7911 123302' });
  const deleted = h.server.seedContact({ lastname: 'Deleted meanwhile' });
  h.server.tables.delete('contacts', deleted);
  await book.markDeleted([{ id: marked }, { id: deleted }]);
  expect(h.server.rows('contacts').find((r) => r.__id === marked)).toMatchObject({
    statecode: 1,
    statuscode: 2,
  });
  const found = await book.findByNumbersOrEmails(['+447911123301', '+447911123302'], ['mailed@example.com']);
  expect(found.map((r) => r.id).sort()).toEqual([typed, mailed].sort());
  expect(found.find((r) => r.id === typed)?.state.mobile).toBe('+447911123301');
  const all = new Map<string, boolean | undefined>();
  for await (const page of book.listAll()) for (const r of page) all.set(r.id, r.markedDeleted);
  expect([all.get(marked), all.get(typed)]).toEqual([true, false]);
});

it('removes contacts; one already gone counts as removed', async () => {
  const id = h.server.seedContact({ lastname: 'Remove Me' });
  await book.remove([{ id }]);
  await book.remove([{ id }]);
  expect(h.server.rows('contacts').some((r) => r.__id === id)).toBe(false);
});
