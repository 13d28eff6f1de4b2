// The emulator across restarts: by default its clock follows real time (seeded history ends at the
// start) and a later run never hands out a call id, recording id or message id of an earlier one; with a
// fixed clock (--now) the same seed gives the same data, ids included.
import { parseEmulatorOptions } from '../../cli/commands/emulator';
import { DEFAULT_NOW, startEmulator } from '../../emulator';
import { createStore, TABLE_NAMES, type Row, type TableName } from '../../emulator/store';

/** Tables of call and message history (their ids are what clients key call logs by). */
const HISTORY: TableName[] = [
  'cdrs',
  'monitors',
  'voicemessages',
  'cdrnotes',
  'sms',
  'faxes',
  'chats',
  'calls',
];

function rows(store: ReturnType<typeof createStore>, table: TableName): Row[] {
  return [1, 2].flatMap((c) => store.tables[table].query(c, { page: 1, limit: 1_000_000, filter: [] }).data);
}

/** History ids of a store per id space (live ids: live calls and the CDRs' live_id). */
function historyIds(store: ReturnType<typeof createStore>): Map<string, number[]> {
  const ids = new Map<string, number[]>();
  for (const t of HISTORY)
    ids.set(
      t,
      rows(store, t).map((r) => Number(r.id)),
    );
  ids.get('calls')?.push(...rows(store, 'cdrs').map((c) => Number(c.live_id)));
  return ids;
}

/** Every id space of `later` starts above the same space of `earlier`. */
function expectAbove(later: Map<string, number[]>, earlier: Map<string, number[]>): void {
  for (const [space, earlierIds] of earlier) {
    const laterIds = later.get(space) ?? [];
    if (earlierIds.length === 0 || laterIds.length === 0) continue;
    // [space, …] names the id space when it fails.
    expect([space, Math.min(...laterIds) > Math.max(...earlierIds)]).toEqual([space, true]);
  }
}

const epochSec = (platformDate: unknown): number =>
  Date.parse(`${String(platformDate).replace(' ', 'T')}Z`) / 1000;

describe('emulator restarts', () => {
  it('a later real-time run hands out history ids above every id of an earlier run', async () => {
    const first = createStore({ seed: 4, cdrs: 400, realTime: true });
    first.addCdrs(1, 20); // calls made while the first run was up
    const firstIds = historyIds(first);
    await new Promise((r) => setTimeout(r, 5));
    const second = createStore({ seed: 4, cdrs: 400, realTime: true });
    const secondIds = historyIds(second);
    expect(secondIds.get('cdrs')?.length).toBeGreaterThan(400);
    expect(secondIds.get('monitors')?.length).toBeGreaterThan(0);
    expect(secondIds.get('sms')?.length).toBeGreaterThan(0);
    expectAbove(secondIds, firstIds);
    // New calls of the second run continue above its own seeded ids.
    const added = second.addCdrs(1, 3);
    const firstCdrs = firstIds.get('cdrs') ?? [];
    for (const c of added) expect(Number(c.id)).toBeGreaterThan(Math.max(...firstCdrs));
    // The account itself is the same run to run: users, contacts and credentials keep their ids.
    expect(rows(second, 'users').map((u) => u.id)).toEqual(rows(first, 'users').map((u) => u.id));
    expect(rows(second, 'contacts').map((c) => c.id)).toEqual(rows(first, 'contacts').map((c) => c.id));
    expect(second.admin).toEqual(first.admin);
  });

  it('a history seeded empty still starts above an earlier run', () => {
    const first = createStore({ seed: 4, cdrs: 0, realTime: true });
    const a = first.addCdrs(1, 2);
    const second = createStore({ seed: 4, cdrs: 0, now: new Date(Date.now() + 1000) });
    const b = second.addCdrs(1, 2);
    expect(Math.min(...b.map((c) => Number(c.id)))).toBeGreaterThan(Math.max(...a.map((c) => Number(c.id))));
  });

  it('the real-time clock follows the wall clock and the seeded history ends at the start', () => {
    const before = Date.now();
    const store = createStore({ seed: 4, cdrs: 300, realTime: true });
    const start = store.clock.now().getTime();
    expect(start).toBeGreaterThanOrEqual(before);
    expect(start).toBeLessThanOrEqual(Date.now());
    const last = rows(store, 'cdrs').reduce((m, c) => Math.max(m, epochSec(c.calldate)), 0);
    expect(last).toBeLessThanOrEqual(start / 1000);
    expect(last).toBeGreaterThan(start / 1000 - 3 * 86_400);
    // A faked wall clock: the emulator's moves with it, exactly.
    jest.useFakeTimers({ now: start });
    try {
      expect(store.clock.now().getTime()).toBe(start);
      jest.setSystemTime(start + 1100);
      expect(store.clock.now().getTime()).toBe(start + 1100);
      store.clock.advance(60_000); // still controllable
      expect(store.clock.now().getTime() - Date.now()).toBe(60_000);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a fixed clock gives the same data, ids included, and stays put', () => {
    const a = createStore({ seed: 4, cdrs: 300, now: DEFAULT_NOW });
    const b = createStore({ seed: 4, cdrs: 300 });
    for (const t of TABLE_NAMES) expect(JSON.stringify(rows(a, t))).toBe(JSON.stringify(rows(b, t)));
    // A faked wall clock an hour on: the fixed clock has not moved.
    jest.useFakeTimers({ now: Date.now() + 3_600_000 });
    try {
      expect(a.clock.now().getTime()).toBe(DEFAULT_NOW.getTime());
    } finally {
      jest.useRealTimers();
    }
  });

  it('the same seed at a later fixed time: the same account and history, dated before it', () => {
    const later = new Date(DEFAULT_NOW.getTime() + 30 * 86_400_000);
    const a = createStore({ seed: 4, cdrs: 300, now: DEFAULT_NOW });
    const b = createStore({ seed: 4, cdrs: 300, now: later });
    expect(JSON.stringify(rows(b, 'users'))).toBe(JSON.stringify(rows(a, 'users')));
    expect(rows(b, 'cdrs')).toHaveLength(rows(a, 'cdrs').length);
    const lastB = rows(b, 'cdrs').reduce((m, c) => Math.max(m, epochSec(c.calldate)), 0);
    expect(lastB).toBeLessThanOrEqual(later.getTime() / 1000);
    expect(lastB).toBeGreaterThan(later.getTime() / 1000 - 3 * 86_400);
    expectAbove(historyIds(b), historyIds(a));
  });

  it('a restarted emulator server does not replay the call ids of the run before', async () => {
    const ids = async (): Promise<{ cdrs: number[]; clock: string }> => {
      const emu = await startEmulator({ port: 0, seed: 6, cdrs: 200 });
      try {
        const res = await fetch(`${emu.origin}/_emulator/cdrs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ count: 3 }),
        });
        const info = (await (await fetch(`${emu.origin}/_emulator/info`)).json()) as { clock: string };
        return { cdrs: ((await res.json()) as { ids: number[] }).ids, clock: info.clock };
      } finally {
        await emu.close();
      }
    };
    const first = await ids();
    const second = await ids();
    expect(first.clock).toBe('real-time');
    expect(first.cdrs).toHaveLength(3);
    expect(Math.min(...second.cdrs)).toBeGreaterThan(Math.max(...first.cdrs));
  });

  it('--now fixes the clock; a bad one is named', () => {
    const base = { port: '0', host: '127.0.0.1', seed: '7', cdrs: '10', logLevel: 'info' };
    expect(parseEmulatorOptions({ ...base, now: '2026-11-01T12:00:00Z' }).now).toEqual(DEFAULT_NOW);
    expect(parseEmulatorOptions(base).now).toBeUndefined();
    expect(() => parseEmulatorOptions({ ...base, now: 'yesterday' })).toThrow(/--now: must be an ISO 8601/);
  });
});
