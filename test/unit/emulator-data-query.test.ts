import { likeToRegExp, queryRows, type Ordering } from '../../emulator/store/query';
import { MemoryTable } from '../../emulator/store/memory-table';
import { createStore } from '../../emulator/store';
import type { CollectionQuery, FilterCondition, Row } from '../../emulator/store';
import { Rng } from '../../emulator/data/prng';

const rows: Row[] = [
  { id: 1, name: 'Alice Smith', n: 10, s: '10', date: '2026-01-01 09:00:00', ok: true, grp: 'a', note: null },
  { id: 2, name: 'bob_jones', n: 9, s: '9', date: '2026-01-01 10:00:00', ok: false, grp: 'b', note: 'x' },
  { id: 3, name: 'Carol 100%', n: 100, s: 'abc', date: '2026-01-02 00:00:00', ok: true, grp: 'a', note: 'y' },
  { id: 4, name: 'dave.smith', n: -5, s: '-5', date: '2026-01-03 12:30:00', ok: false, grp: 'c', note: null },
  { id: 5, name: 'Eve SMITH', n: 2.5, s: 'ABD', date: '2026-02-01 00:00:00', ok: true, grp: 'b', note: 'z' },
];
const ordering: Ordering = { numericIds: true, sortedKey: 'date' };

function ids(filter: FilterCondition[], extra: Partial<CollectionQuery> = {}): number[] {
  return queryRows(rows, { page: 1, limit: 100, filter, ...extra }, ordering).data.map((r) => Number(r.id));
}

describe('query operators', () => {
  it('eq and = compare numbers numerically and strings exactly', () => {
    expect(ids([{ property: 'n', operator: 'eq', value: 10 }])).toEqual([1]);
    expect(ids([{ property: 'n', operator: '=', value: '10.0' }])).toEqual([1]);
    expect(ids([{ property: 'name', operator: 'eq', value: 'bob_jones' }])).toEqual([2]);
    expect(ids([{ property: 'name', operator: 'eq', value: 'BOB_JONES' }])).toEqual([]);
    expect(ids([{ property: 'note', operator: 'eq', value: null }])).toEqual([1, 4]);
    expect(ids([{ property: 'ok', operator: 'eq', value: 'true' }])).toEqual([1, 3, 5]);
    expect(ids([{ property: 'ok', operator: 'eq', value: false }])).toEqual([2, 4]);
  });

  it('gt/gte/lt/lte are numeric when both sides are numeric', () => {
    expect(ids([{ property: 'n', operator: 'gt', value: '9' }])).toEqual([1, 3]);
    expect(ids([{ property: 'n', operator: 'gte', value: 9 }])).toEqual([1, 2, 3]);
    expect(ids([{ property: 'n', operator: 'lt', value: 2.5 }])).toEqual([4]);
    expect(ids([{ property: 'n', operator: 'lte', value: '2.5' }])).toEqual([4, 5]);
    // numeric strings in the row compare numerically ('10' > '9'); 'abc' and 'ABD' compare as strings
    expect(ids([{ property: 's', operator: 'gt', value: '9' }])).toEqual([1, 3, 5]);
    expect(ids([{ property: 's', operator: 'lt', value: '9' }])).toEqual([4]);
  });

  it('falls back to string comparison when a side is not numeric', () => {
    expect(ids([{ property: 's', operator: 'gt', value: 'abc' }])).toEqual([]);
    expect(ids([{ property: 's', operator: 'gte', value: 'ABC' }])).toEqual([3, 5]);
    expect(ids([{ property: 'name', operator: 'lt', value: 'C' }])).toEqual([1]);
  });

  it('compares dates as strings, a bare date being the start of that day', () => {
    expect(ids([{ property: 'date', operator: 'gte', value: '2026-01-02' }])).toEqual([3, 4, 5]);
    expect(ids([{ property: 'date', operator: 'lt', value: '2026-01-02' }])).toEqual([1, 2]);
    expect(ids([{ property: 'date', operator: 'eq', value: '2026-01-03 12:30:00' }])).toEqual([4]);
  });

  it('like: % any run, _ one character, case-insensitive, other characters literal', () => {
    expect(ids([{ property: 'name', operator: 'like', value: '%smith' }])).toEqual([1, 4, 5]);
    expect(ids([{ property: 'name', operator: 'like', value: '% smith' }])).toEqual([1, 5]);
    expect(ids([{ property: 'name', operator: 'like', value: 'smith%' }])).toEqual([]);
    expect(ids([{ property: 'name', operator: 'like', value: 'dave_smith' }])).toEqual([4]);
    expect(ids([{ property: 'name', operator: 'like', value: 'dave.%' }])).toEqual([4]);
    expect(ids([{ property: 'name', operator: 'like', value: '___' }])).toEqual([]);
    expect(ids([{ property: 'name', operator: 'like', value: '%\\%' }])).toEqual([3]);
    expect(ids([{ property: 'name', operator: 'like', value: 'bob\\_%' }])).toEqual([2]);
    expect(ids([{ property: 'n', operator: 'like', value: '1%' }])).toEqual([1, 3]);
    expect(ids([{ property: 'note', operator: 'like', value: '%' }])).toEqual([2, 3, 5]);
    expect(likeToRegExp('a.b*c').test('a.b*c')).toBe(true);
    expect(likeToRegExp('a.b*c').test('axb*c')).toBe(false);
  });

  it('ANDs several conditions', () => {
    expect(
      ids([
        { property: 'grp', operator: 'eq', value: 'a' },
        { property: 'n', operator: 'gt', value: 50 },
      ]),
    ).toEqual([3]);
    expect(
      ids([
        { property: 'date', operator: 'gte', value: '2026-01-01 10:00:00' },
        { property: 'date', operator: 'lt', value: '2026-02-01' },
        { property: 'ok', operator: 'eq', value: false },
      ]),
    ).toEqual([2, 4]);
  });

  it('group_by keeps the first row by id per value and counts groups', () => {
    const r = queryRows(rows, { page: 1, limit: 2, filter: [], groupBy: 'grp' }, ordering);
    expect(r.total).toBe(3);
    expect(r.data.map((x) => x.id)).toEqual([1, 2]);
    const p2 = queryRows(rows, { page: 2, limit: 2, filter: [], groupBy: 'grp' }, ordering);
    expect(p2.data.map((x) => x.id)).toEqual([4]);
    expect(ids([{ property: 'ok', operator: 'eq', value: true }], { groupBy: 'grp' })).toEqual([1, 5]);
  });

  it('pages are 1-based, total counts every match, pages past the end are empty', () => {
    const q = (page: number, limit: number): { data: number[]; total: number } => {
      const r = queryRows(
        rows,
        { page, limit, filter: [{ property: 'id', operator: 'gte', value: 2 }] },
        ordering,
      );
      return { data: r.data.map((x) => Number(x.id)), total: r.total };
    };
    expect(q(1, 2)).toEqual({ data: [2, 3], total: 4 });
    expect(q(2, 2)).toEqual({ data: [4, 5], total: 4 });
    expect(q(3, 2)).toEqual({ data: [], total: 4 });
    expect(q(1, 0)).toEqual({ data: [], total: 4 });
  });
});

describe('binary-search path', () => {
  const store = createStore({ seed: 11, cdrs: 5000 });
  const all = store.tables.cdrs.query(1, { page: 1, limit: 10_000, filter: [] }).data;

  it('answers exactly like a full scan on seeded CDRs', () => {
    const rng = new Rng(5);
    const ops = ['eq', 'gt', 'gte', 'lt', 'lte'] as const;
    for (let i = 0; i < 300; i++) {
      const a = all[rng.int(0, all.length - 1)] as Row;
      const b = all[rng.int(0, all.length - 1)] as Row;
      const filter: FilterCondition[] = [
        {
          property: 'calldate',
          operator: rng.pick(ops),
          value: String(a.calldate).slice(0, rng.pick([10, 13, 19])),
        },
        {
          property: rng.pick(['calldate', 'id']),
          operator: rng.pick(ops),
          value: rng.chance(0.5) ? String(b.id) : String(b.calldate),
        },
      ];
      if (rng.chance(0.4))
        filter.push({ property: 'type', operator: 'eq', value: rng.pick(['O', 'I', 'M']) });
      const q: CollectionQuery = { page: rng.int(1, 3), limit: rng.pick([1, 7, 100, 5000]), filter };
      if (rng.chance(0.2)) q.groupBy = 'src';
      const fast = queryRows(all, q, { numericIds: true, sortedKey: 'calldate' });
      const scan = queryRows(all, q, { numericIds: true, sortedKey: 'calldate' }, true);
      expect(fast.total).toBe(scan.total);
      expect(fast.data.map((r) => r.id)).toEqual(scan.data.map((r) => r.id));
    }
  });

  it('answers the same when some rows came late by calldate (only a prefix ascends by it)', () => {
    const rng = new Rng(11);
    // Rows in id order; the last 40 dated anywhere within the range (long calls written at hangup).
    const late = all.slice(-40).map((r) => ({ ...r, calldate: String(rng.pick(all).calldate) }));
    const rows = [...all.slice(0, -40), ...late];
    const ordering = { numericIds: true, sortedKey: 'calldate', keySortedUntil: all.length - 40 };
    const ops = ['gt', 'gte', 'lt', 'lte', 'eq'] as const;
    for (let i = 0; i < 200; i++) {
      const a = rng.pick(rows);
      const filter: FilterCondition[] = [
        {
          property: 'calldate',
          operator: rng.pick(ops),
          value: String(a.calldate).slice(0, rng.pick([10, 19])),
        },
      ];
      if (rng.chance(0.5)) filter.push({ property: 'id', operator: 'gt', value: Number(rng.pick(rows).id) });
      const q: CollectionQuery = { page: rng.int(1, 3), limit: rng.pick([1, 7, 100, 5000]), filter };
      if (rng.chance(0.3)) q.sort = { property: rng.pick(['id', 'calldate']), desc: rng.chance(0.5) };
      const fast = queryRows(rows, q, ordering);
      const scan = queryRows(rows, q, { numericIds: true }, true);
      expect(fast.total).toBe(scan.total);
      expect(fast.data.map((r) => r.id)).toEqual(scan.data.map((r) => r.id));
    }
  });

  it('serves a 5000-row calldate page from the table', () => {
    const first = all[0] as Row;
    const r = store.tables.cdrs.query(1, {
      page: 1,
      limit: 5000,
      filter: [
        { property: 'calldate', operator: 'gte', value: String(first.calldate).slice(0, 10) },
        { property: 'calldate', operator: 'lt', value: '2099-01-01' },
      ],
    });
    expect(r.total).toBe(all.length);
    expect(r.data).toHaveLength(all.length);
  });
});

describe('MemoryTable', () => {
  it('orders string ids (ddis) as strings and finds them by id', () => {
    const t = new MemoryTable({ name: 'ddis', stringIds: true });
    for (const e164 of ['+4930123', '+14155550100', '+442079460000']) t.insert(1, { e164 });
    expect(t.query(1, { page: 1, limit: 10, filter: [] }).data.map((r) => r.id)).toEqual([
      '+14155550100',
      '+442079460000',
      '+4930123',
    ]);
    expect(t.get('+4930123')?.customerId).toBe(1);
    expect(() => t.insert(1, { name: 'no number' })).toThrow(/id/);
  });

  it('looks up numeric ids given as strings and keeps customers apart', () => {
    const t = new MemoryTable({ name: 'contacts' });
    const a = t.insert(1, { first_name: 'A' });
    const b = t.insert(2, { first_name: 'B' });
    expect(b.id).toBe(Number(a.id) + 1);
    expect(t.get(String(b.id))).toEqual({ row: b, customerId: 2 });
    expect(t.get('nope')).toBeUndefined();
    expect(t.query(1, { page: 1, limit: 10, filter: [] }).data).toEqual([a]);
    expect(t.count(2)).toBe(1);
    expect(t.count(3)).toBe(0);
  });
});
