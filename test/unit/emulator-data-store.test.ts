import { createStore, formatDateTime, type ChangeEvent, type Row } from '../../emulator/store';

function lastCdr(store: ReturnType<typeof createStore>, customer: number): Row {
  const total = store.tables.cdrs.count(customer);
  return store.tables.cdrs.query(customer, { page: total, limit: 1, filter: [] }).data[0] as Row;
}

describe('store changes', () => {
  it('insert assigns the next id, update merges into a new row, remove deletes; each emits once', () => {
    const store = createStore({ seed: 3, cdrs: 200 });
    const events: ChangeEvent[] = [];
    const off = store.onChange((e) => events.push(e));
    const contacts = store.tables.contacts;
    const before = contacts.count(1);
    const maxId = Math.max(
      ...contacts.query(1, { page: 1, limit: 5000, filter: [] }).data.map((r) => Number(r.id)),
    );
    const maxOther = Math.max(
      ...contacts.query(2, { page: 1, limit: 5000, filter: [] }).data.map((r) => Number(r.id)),
    );

    const row = contacts.insert(1, { first_name: 'Ada', last_name: 'Lovelace', tel: '+442079460999' });
    expect(row.id).toBe(Math.max(maxId, maxOther) + 1);
    expect(contacts.count(1)).toBe(before + 1);
    expect(contacts.get(row.id)).toEqual({ row, customerId: 1 });

    const updated = contacts.update(row.id, { last_name: 'King', id: 999 });
    expect(updated).toMatchObject({ id: row.id, first_name: 'Ada', last_name: 'King' });
    expect(row.last_name).toBe('Lovelace'); // handed-out rows are snapshots
    expect(contacts.get(row.id)?.row).toBe(updated);
    expect(contacts.update(123_456_789, { x: 1 })).toBeUndefined();

    expect(contacts.remove(row.id)).toBe(true);
    expect(contacts.remove(row.id)).toBe(false);
    expect(contacts.get(row.id)).toBeUndefined();
    expect(events.map((e) => [e.table, e.op, e.row.id])).toEqual([
      ['contacts', 'insert', row.id],
      ['contacts', 'update', row.id],
      ['contacts', 'remove', row.id],
    ]);

    off();
    contacts.insert(1, { first_name: 'Quiet' });
    expect(events).toHaveLength(3);
  });

  it('removeAll empties one customer only', () => {
    const store = createStore({ seed: 3, cdrs: 200 });
    const sms2 = store.tables.sms.count(2);
    const n = store.tables.sms.count(1);
    const removed: unknown[] = [];
    store.onChange((e) => removed.push(e.row.id));
    expect(store.tables.sms.removeAll(1)).toBe(n);
    expect(store.tables.sms.count(1)).toBe(0);
    expect(store.tables.sms.count(2)).toBe(sms2);
    expect(removed).toHaveLength(n);
  });

  it('keeps CDRs ordered: calldate cannot change, new rows cannot go back in time', () => {
    const store = createStore({ seed: 3, cdrs: 200 });
    const last = lastCdr(store, 1);
    const { id: _id, ...fields } = last;
    expect(() => store.tables.cdrs.update(last.id, { calldate: '2020-01-01 00:00:00' })).toThrow(RangeError);
    expect(store.tables.cdrs.update(last.id, { info: 'checked', calldate: last.calldate })?.info).toBe(
      'checked',
    );
    expect(() => store.tables.cdrs.insert(1, { ...fields, calldate: '2020-01-01 00:00:00' })).toThrow(
      RangeError,
    );
    const appended = store.tables.cdrs.insert(1, { ...fields, calldate: store.clock.nowString() });
    expect(appended.id).toBeGreaterThan(last.id as number);
    expect(lastCdr(store, 1).id).toBe(appended.id);
    const { calldate: _c, ...undated } = fields;
    store.clock.advance(5000);
    expect(store.tables.cdrs.insert(1, undated).calldate).toBe(store.clock.nowString());
  });

  it('hands out live ids above every CDR live_id and live call id', () => {
    const store = createStore({ seed: 3, cdrs: 300 });
    const added = store.addCdrs(1, 3);
    const maxLive = Math.max(
      ...store.tables.cdrs.query(1, { page: 1, limit: 5000, filter: [] }).data.map((c) => Number(c.live_id)),
      ...store.tables.calls.query(1, { page: 1, limit: 50, filter: [] }).data.map((c) => Number(c.id)),
    );
    expect(maxLive).toBe(added[2]?.live_id);
    const next = store.nextLiveId();
    expect(next).toBeGreaterThan(maxLive);
    const call = store.tables.calls.insert(1, { state: 2 });
    expect(call.id).toBeGreaterThan(next);
    expect(Number(store.addCdrs(1, 1)[0]?.live_id)).toBeGreaterThan(Number(call.id));
  });
});

describe('addCdrs', () => {
  it('appends linked calls at the clock now, after every existing CDR, emitting each row', () => {
    const store = createStore({ seed: 9, cdrs: 2000 });
    const before = lastCdr(store, 1);
    const events: ChangeEvent[] = [];
    store.onChange((e) => events.push(e));
    const added = store.addCdrs(1, 40);
    expect(added).toHaveLength(40);
    expect(store.tables.cdrs.count(1)).toBe(2040);
    const now = store.clock.nowString();
    let prev = before;
    for (const c of added) {
      expect(c.id as number).toBeGreaterThan(prev.id as number);
      expect(String(c.calldate) >= String(prev.calldate)).toBe(true);
      expect(String(c.calldate) <= now).toBe(true);
      expect(c.billsec).toBeLessThanOrEqual(c.duration as number);
      prev = c;
    }
    expect(new Set(added.map((c) => c.live_id)).size).toBe(40);
    const cdrInserts = events.filter((e) => e.table === 'cdrs' && e.op === 'insert').map((e) => e.row.id);
    expect(cdrInserts).toEqual(added.map((c) => c.id));
    // Linked rows come after their CDR and carry its live_id.
    for (const e of events.filter((x) => x.table === 'monitors' || x.table === 'voicemessages')) {
      const cdr = added.find((c) => c.live_id === e.row.live_id);
      expect(cdr).toBeDefined();
      expect(events.findIndex((x) => x.row === e.row)).toBeGreaterThan(
        events.findIndex((x) => x.table === 'cdrs' && x.row.id === cdr?.id),
      );
    }
    const liveIds = new Set(
      store.tables.calls.query(1, { page: 1, limit: 100, filter: [] }).data.map((c) => c.id),
    );
    for (const c of added) expect(liveIds.has(c.live_id as number)).toBe(false);
  });

  it('moves with the clock and is deterministic per seed', () => {
    const a = createStore({ seed: 9, cdrs: 500 });
    const b = createStore({ seed: 9, cdrs: 500 });
    a.clock.advance(3_600_000);
    b.clock.advance(3_600_000);
    const ra = a.addCdrs(1, 5);
    expect(JSON.stringify(ra)).toBe(JSON.stringify(b.addCdrs(1, 5)));
    for (const c of ra) expect(String(c.calldate) >= '2026-11-01 12:00:00').toBe(true);
    const other = a.addCdrs(2, 2);
    expect(other.every((c) => a.tables.cdrs.get(c.id)?.customerId === 2)).toBe(true);
    expect(() => a.addCdrs(99, 1)).toThrow(/customer/);
  });

  it('clock: set, advance, nowString', () => {
    const store = createStore({ seed: 1, cdrs: 0, now: new Date('2027-03-04T05:06:07Z') });
    expect(store.clock.nowString()).toBe('2027-03-04 05:06:07');
    store.clock.advance(60_000);
    expect(store.clock.now().toISOString()).toBe('2027-03-04T05:07:07.000Z');
    store.clock.set(new Date('2027-01-01T00:00:00Z'));
    expect(store.clock.nowString()).toBe('2027-01-01 00:00:00');
    expect(store.tables.cdrs.count(1)).toBe(0);
    expect(store.addCdrs(1, 1)).toHaveLength(1);
  });
});

describe('CDRs written late (insertLate)', () => {
  // A long call's CDR is written at hangup: the newest id, dated at the call's start, hours back.
  it('come last by id, dated before earlier rows, and every calldate query still finds them', () => {
    const store = createStore({ seed: 3, cdrs: 500 });
    const cdrs = store.tables.cdrs;
    const before = lastCdr(store, 1);
    const { id: _id, ...fields } = before;
    const at = (hoursBefore: number) =>
      formatDateTime(
        new Date(Date.parse(`${String(before.calldate).replace(' ', 'T')}Z`) - hoursBefore * 3_600_000),
      );
    const startedAt = at(6);
    const late = cdrs.insertLate(1, { ...fields, calldate: startedAt, duration: 6 * 3600 });
    expect(late.id).toBeGreaterThan(before.id as number);
    expect(lastCdr(store, 1).id).toBe(late.id);
    expect(cdrs.lastSortValue(1)).toBe(before.calldate);

    const idsOf = (filter: { property: string; operator: 'gte' | 'lt'; value: string }[]) =>
      cdrs.query(1, { page: 1, limit: 5000, filter }).data.map((r) => r.id);
    const window = [
      { property: 'calldate', operator: 'gte' as const, value: at(7) },
      { property: 'calldate', operator: 'lt' as const, value: at(5) },
    ];
    expect(idsOf(window)).toContain(late.id);
    const after = idsOf([{ property: 'calldate', operator: 'gte', value: String(before.calldate) }]);
    expect(after).not.toContain(late.id);
    // Ordered by id, the late row last; sorted by calldate, in its place.
    const all = idsOf([]);
    expect(all.at(-1)).toBe(late.id);
    const byDate = cdrs
      .query(1, { page: 1, limit: 5000, filter: [], sort: { property: 'calldate', desc: false } })
      .data.map((r) => String(r.calldate));
    expect(byDate).toEqual([...byDate].sort());

    // New CDRs still come after the latest calldate, not after the late row's.
    const [next] = store.addCdrs(1, 1);
    expect(String(next!.calldate) >= String(before.calldate)).toBe(true);
    // insert (not late) still refuses to go back in time.
    expect(() => cdrs.insert(1, { ...fields, calldate: startedAt })).toThrow(RangeError);
    expect(cdrs.remove(late.id)).toBe(true);
    expect(idsOf(window)).not.toContain(late.id);
  });
});
