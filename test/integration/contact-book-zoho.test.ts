// The Zoho contact book (connectors/zoho/contact-book.ts) against the Zoho test server, through the
// connector's request core and the official SDK: its custom fields created once; changes read oldest first across pages, none
// skipped when a record moves while the pages are read; a refused record fails alone in a create or an
// update; a create whose answer was lost is found by its link key and never made twice; numbers typed
// in national form and e-mails in another case are found; deletes in Zoho listed since a cursor;
// platform deletes marked or carried out.
import type {
  StoredTokens,
  TokenStore,
  VendorTokenKey,
  VendorTokens,
} from '../../connectors/crm/vendor-token-store';
import { emptyState } from '../../sync/contacts/model';
import { CrmError } from '../../connectors/crm/errors';
import type { ContactState, SideRecord } from '../../connectors/crm/contact-model';
import { ZohoConnector, zohoConfigSchema } from '../../connectors/zoho';
import { DELETED_FIELD, type ZohoContactBook } from '../../connectors/zoho/contact-book';
import { startLossyProxy, type LossyProxy } from '../conformance/lossy-proxy';
import { startFakeZoho, type FakeZoho } from '../fakes/zoho-server';

class MemoryStore implements TokenStore<'locked'> {
  row: StoredTokens | undefined;
  private lock: Promise<unknown> = Promise.resolve();
  load(): Promise<StoredTokens | undefined> {
    return Promise.resolve(this.row && { ...this.row });
  }
  save(_key: VendorTokenKey, tokens: VendorTokens): Promise<number> {
    const version = (this.row?.version ?? 0) + 1;
    this.row = { ...tokens, version };
    return Promise.resolve(version);
  }
  withLock<T>(_key: VendorTokenKey, work: (session: 'locked') => Promise<T>): Promise<T> {
    const run = this.lock.then(() => work('locked'));
    this.lock = run.catch(() => undefined);
    return run;
  }
}

const client = { clientId: '1000.BOOK', clientSecret: 'book-secret', refreshToken: '1000.book-refresh' };
const T0 = Date.parse('2026-11-01T08:00:00Z');

const state = (s: Partial<ContactState>): ContactState => ({ ...emptyState(), ...s });

async function all(pages: AsyncIterable<SideRecord[]>, each?: (page: SideRecord[]) => void) {
  const out: SideRecord[] = [];
  for await (const page of pages) {
    each?.(page);
    out.push(...page);
  }
  return out;
}

describe('Zoho contact book', () => {
  let fake: FakeZoho;
  let proxy: LossyProxy;
  const connector = (overrides: Record<string, unknown> = {}) =>
    new ZohoConnector(
      zohoConfigSchema.parse({
        type: 'zoho',
        dataCentre: 'eu',
        ...client,
        apiUrl: proxy.url,
        accountsUrl: fake.url,
        requestsPerSecond: 50,
        ...overrides,
      }),
      { tokenStore: () => new MemoryStore() },
    );
  let book: ZohoContactBook;

  beforeEach(async () => {
    fake = await startFakeZoho({ client, serviceMs: 1 });
    proxy = await startLossyProxy(fake.url);
    book = connector().contactBook({ country: 'GB' });
    await book.prepare();
  });
  afterEach(async () => {
    await proxy.close();
    await fake.close();
  });

  const contacts = () => fake.records.all('Contacts');

  it('prepare: creates the key field and the deletion mark once; without the scope, names what to create', async () => {
    const creates = () =>
      fake.requests.filter((r) => r.method === 'POST' && r.path === '/crm/v8/settings/fields');
    await book.prepare();
    expect(creates().map((r) => r.status)).toEqual([201, 201]);
    await book.prepare();
    expect(creates()).toHaveLength(2);
    const fields = (await connector().client.fieldNames('Contacts')).filter((f) => f.startsWith('Callsync'));
    expect(fields.sort()).toEqual(['Callsync_Deleted', 'Callsync_Key']);

    const bare = await startFakeZoho({ client, serviceMs: 1, canCreateFields: false });
    try {
      const err = await new ZohoConnector(
        zohoConfigSchema.parse({
          type: 'zoho',
          dataCentre: 'eu',
          ...client,
          apiUrl: bare.url,
          accountsUrl: bare.url,
        }),
        { tokenStore: () => new MemoryStore() },
      )
        .contactBook({ country: 'GB' })
        .prepare()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CrmError);
      expect(err).toMatchObject({ code: 'KEY_FIELD_MISSING', retryable: false });
      expect((err as Error).message).toMatch(/Contacts has no field Callsync_Key or Callsync_Deleted/);
      expect((err as Error).message).toMatch(/OAUTH_SCOPE_MISMATCH/);
    } finally {
      await bare.close();
    }
  });

  it('changedSince: oldest first across pages, each record once, none skipped when one moves while reading', async () => {
    // 450 Contacts a second apart, 5 before `since`, and 250 sharing one second (more than a page).
    for (let i = 0; i < 5; i++) fake.records.seed('Contacts', { Last_Name: `Old${i}` }, T0 - 60_000 + i);
    for (let i = 0; i < 450; i++) fake.records.seed('Contacts', { Last_Name: `P${i}` }, T0 + i * 1000);
    for (let i = 0; i < 250; i++) fake.records.seed('Contacts', { Last_Name: `S${i}` }, T0 + 500_000);
    let moved = false;
    const read = await all(book.changedSince(new Date(T0).toISOString()), (page) => {
      if (moved) return;
      // An agent edits a record of the first page while the rest are read: it moves to the end.
      moved = true;
      fake.records.get(page[0]!.id)!.modifiedAt = T0 + 900_000;
    });
    const ids = read.map((r) => r.id);
    expect(new Set(ids).size).toBe(700);
    expect(ids.length).toBe(701); // the moved record, once as it was and once as it is now
    const times = read.map((r) => r.modifiedAt!);
    expect([...times].sort()).toEqual(times);
    expect(read.some((r) => r.state.lastName?.startsWith('Old'))).toBe(false);
    expect(await all(book.listAll())).toHaveLength(705);
  });

  it('create: a refused record fails alone; ids come back by link key, with what the record holds', async () => {
    const out = await book.create([
      { linkKey: 'acme:1', state: state({ firstName: 'Ann', lastName: 'One', phone: '+442079461001' }) },
      { linkKey: 'acme:2', state: state({ firstName: 'No', phone: '+442079461002' }) },
      { linkKey: 'acme:3', state: state({ lastName: 'Three', email: 'three@example.com', notes: 'vip' }) },
    ]);
    expect([...out.ids.keys()].sort()).toEqual(['acme:1', 'acme:3']);
    expect(out.rejected.get('acme:2')).toMatch(/MANDATORY_NOT_FOUND.*Last_Name/);
    const three = fake.records.get(out.ids.get('acme:3')!)!;
    expect(three.fields).toMatchObject({
      Last_Name: 'Three',
      Email: 'three@example.com',
      Description: 'vip',
      Callsync_Key: 'acme:3',
    });
    expect(contacts()).toHaveLength(2);
  });

  it('a create whose answer was lost is found by its link key, and sending it again makes no second record', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    proxy.loseNext((method, path) => method === 'POST' && path === '/crm/v8/Contacts');
    const input = { linkKey: 'acme:42', state: state({ lastName: 'Lost', mobile: '+442079461042' }) };
    await expect(book.create([input])).rejects.toMatchObject({ retryable: true });
    const found = (await all(book.changedSince(since))).filter((r) => r.linkKey === 'acme:42');
    expect(found).toHaveLength(1);
    expect(found[0]!.numbers).toEqual(['+442079461042']);
    const again = await book.create([input]);
    expect(again.ids.size).toBe(0);
    expect(again.rejected.get('acme:42')).toMatch(/DUPLICATE_DATA/);
    expect(contacts().filter((r) => r.fields.Callsync_Key === 'acme:42')).toHaveLength(1);
  });

  it('update: one deleted in Zoho comes back missing, one refused fails alone, the others are written (empty clears)', async () => {
    const ok = fake.records.seed('Contacts', { Last_Name: 'Keep', Email: 'old@example.com' }).id;
    const refused = fake.records.seed('Contacts', { Last_Name: 'Named' }).id;
    const deleted = fake.records.seed('Contacts', { Last_Name: 'Gone' }).id;
    fake.records.delete('Contacts', deleted);
    const out = await book.update([
      {
        id: ok,
        kind: 'contact',
        state: state({ firstName: 'New', email: null }),
        fields: ['firstName', 'email'],
      },
      { id: refused, kind: 'contact', state: state({ lastName: null }), fields: ['lastName'] },
      { id: deleted, kind: 'contact', state: state({ firstName: 'X' }), fields: ['firstName'] },
    ]);
    expect(out.missing).toEqual([deleted]);
    expect([...out.rejected.keys()]).toEqual([refused]);
    expect(out.rejected.get(refused)).toMatch(/MANDATORY_NOT_FOUND.*Last_Name/);
    expect(fake.records.get(ok)!.fields).toMatchObject({ First_Name: 'New', Last_Name: 'Keep', Email: null });
    expect(fake.records.get(refused)!.fields.Last_Name).toBe('Named');
    expect(fake.counters.personWrites).toBe(1);
  });

  it('findByNumbersOrEmails: a number typed in national form and an e-mail in another case', async () => {
    const national = fake.records.seed('Contacts', { Last_Name: 'Nat', Phone: '020 7946 1234' }).id;
    const byMail = fake.records.seed('Contacts', { Last_Name: 'Mail', Email: 'Cat@Example.com' }).id;
    fake.records.seed('Contacts', { Last_Name: 'Other', Phone: '020 7946 9999' });
    const found = await book.findByNumbersOrEmails(['+442079461234'], ['cat@example.com']);
    expect(found.map((r) => r.id).sort()).toEqual([national, byMail].sort());
    expect(found.find((r) => r.id === national)!.state.phone).toBe('+442079461234');
  });

  it('deletedSince: the Contacts deleted after the cursor, across pages, not those deleted before', async () => {
    const before = fake.records.seed('Contacts', { Last_Name: 'Before' }).id;
    fake.records.delete('Contacts', before);
    fake.records.deletions.at(-1)!.at = Date.now() - 60_000;
    const since = new Date(Date.now() - 5_000).toISOString();
    const ids: string[] = [];
    for (let i = 0; i < 205; i++) {
      const id = fake.records.seed('Contacts', { Last_Name: `D${i}` }).id;
      fake.records.delete('Contacts', id);
      ids.push(id);
    }
    fake.records.delete('Calls', fake.records.seed('Calls', { Subject: 'not a contact' }).id);
    const pages: string[][] = [];
    for await (const page of book.deletedSince(since)) pages.push(page);
    expect(pages.map((p) => p.length)).toEqual([200, 5]);
    expect(pages.flat().sort()).toEqual([...ids].sort());
    const get = fake.requests.filter((r) => r.path === '/crm/v8/Contacts/deleted');
    expect(get.map((r) => r.status)).toEqual([200, 200]);
  });

  it('markDeleted marks (a record gone meanwhile needs none); remove deletes, again without error', async () => {
    const a = fake.records.seed('Contacts', { Last_Name: 'A' }).id;
    const b = fake.records.seed('Contacts', { Last_Name: 'B' }).id;
    const gone = fake.records.seed('Contacts', { Last_Name: 'C' }).id;
    fake.records.delete('Contacts', gone);
    await book.markDeleted([
      { id: a, kind: 'contact' },
      { id: gone, kind: 'contact' },
    ]);
    expect(fake.records.get(a)!.fields[DELETED_FIELD]).toBeTruthy();
    const listed = await all(book.listAll());
    expect(listed.find((r) => r.id === a)!.markedDeleted).toBe(true);
    expect(listed.find((r) => r.id === b)!.markedDeleted).toBe(false);
    await book.remove([{ id: b, kind: 'contact' }]);
    await book.remove([{ id: b, kind: 'contact' }]);
    expect(fake.records.get(b)).toBeUndefined();
  });
});
