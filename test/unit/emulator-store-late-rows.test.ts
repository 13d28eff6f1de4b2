// The store under real platforms' timing: a CDR written late keeps its call's true start as calldate,
// earlier than CDRs already written, and every query still finds it; newest-first pages read from the end
// of the rows give what a full scan gives.
import { createStore, DEFAULT_NOW, type Row } from '../../emulator/store';
import { queryRows, type Ordering } from '../../emulator/store/query';

describe('a CDR dated before the last one (keyMayGoBack)', () => {
  const store = createStore({ seed: 5, cdrs: 300, now: DEFAULT_NOW });
  const cid = store.admin.customer_id;
  const cdrs = store.tables.cdrs;
  const all = (): Row[] => cdrs.query(cid, { page: 1, limit: 10_000, filter: [] }).data;
  const last = all().at(-1) as Row;
  const { id: _id, ...fields } = last;
  const at = (i: number): string => String((all()[i] as Row).calldate);
  const early = at(150);

  it('is refused without the option, as before', () => {
    expect(String(last.calldate) > early).toBe(true);
    expect(() => cdrs.insert(cid, { ...fields, calldate: early })).toThrow(RangeError);
  });

  it('is taken with it, last by id, and found by calldate ranges and sorts', () => {
    const late = cdrs.insert(cid, { ...fields, calldate: early }, { keyMayGoBack: true });
    expect(late.id).toBeGreaterThan(last.id as number);
    expect(all().at(-1)?.id).toBe(late.id);
    // Ranges on calldate can no longer be binary-searched: the late row sits after later-dated ones.
    const onTheHour = cdrs.query(cid, {
      page: 1,
      limit: 10_000,
      filter: [
        { property: 'calldate', operator: 'gte', value: early },
        { property: 'calldate', operator: 'lte', value: early },
      ],
    });
    expect(onTheHour.data.map((r) => r.id)).toContain(late.id);
    const since = cdrs.query(cid, {
      page: 1,
      limit: 10_000,
      filter: [{ property: 'calldate', operator: 'gte', value: at(100) }],
    });
    const expected = all().filter((r) => String(r.calldate) >= at(100));
    expect(since.data.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    const byDate = cdrs.query(cid, {
      page: 1,
      limit: 10_000,
      filter: [],
      sort: { property: 'calldate', desc: false },
    });
    const dates = byDate.data.map((r) => String(r.calldate));
    expect([...dates].sort()).toEqual(dates);
    // Its date still may not change.
    expect(() => cdrs.update(late.id, { calldate: String(last.calldate) })).toThrow(RangeError);
  });
});

describe('newest first', () => {
  const rows: Row[] = Array.from({ length: 57 }, (_, i) => ({
    id: i + 1,
    date: `2026-01-01 00:00:${String(i).padStart(2, '0')}`,
    odd: i % 2 === 1,
  }));
  const ordering: Ordering = { numericIds: true, sortedKey: 'date' };

  it('pages by id or by the sorted key from the end, as a full scan orders them', () => {
    for (const property of ['id', 'date']) {
      for (const [page, limit] of [
        [1, 10],
        [3, 10],
        [6, 10],
        [7, 10],
        [1, 100],
        [2, 57],
      ] as const) {
        const q = { page, limit, filter: [], sort: { property, desc: true } };
        const fast = queryRows(rows, q, ordering);
        const scan = queryRows(rows, q, ordering, true);
        expect(fast).toEqual(scan);
        expect(fast.total).toBe(57);
      }
    }
    const filtered = queryRows(
      rows,
      {
        page: 1,
        limit: 5,
        filter: [{ property: 'id', operator: 'gte', value: 50 }],
        sort: { property: 'id', desc: true },
      },
      ordering,
    );
    expect(filtered.data.map((r) => r.id)).toEqual([57, 56, 55, 54, 53]);
    expect(filtered.total).toBe(8);
  });
});
