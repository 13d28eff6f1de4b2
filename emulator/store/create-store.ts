import { parseDateTime } from '../data/calendar';
import { CallGenerator } from '../data/calls';
import { hashSeed, Rng } from '../data/prng';
import { HISTORY_ID_TABLES, historyIdOffset, type IdAllocator } from '../data/profiles';
import { generateSeedData, type CustomerInfo } from '../data/seed';
import { createClock, DEFAULT_NOW } from './clock';
import { MemoryTable } from './memory-table';
import {
  TABLE_NAMES,
  type Account,
  type ChangeListener,
  type CreateStoreOptions,
  type EmulatorStore,
  type Row,
  type TableName,
} from './types';

/** The store as created here: the interface plus customer details the server may show (/me). */
export interface SeededStore extends EmulatorStore {
  readonly customers: CustomerInfo[];
  readonly tables: Record<TableName, MemoryTable>;
  /** A fresh live-call id (for a new live call): above every CDR live_id and every live call id. */
  nextLiveId(): number;
}

/** Tables whose ids are e164 strings. */
const STRING_ID_TABLES: ReadonlySet<TableName> = new Set<TableName>(['ddis', 'calltracking_ddis']);
/** Tables whose rows ascend by a date as well as by id (binary-searchable ranges). */
const SORTED_KEYS: Partial<Record<TableName, string>> = { cdrs: 'calldate' };

/** Builds the emulator's data from a seed: same seed and options, byte-identical data. */
export function createStore(opts: CreateStoreOptions): SeededStore {
  const historyEnd = opts.now ?? (opts.realTime === true ? new Date() : DEFAULT_NOW);
  const clock = createClock(historyEnd, { realTime: opts.realTime === true });
  const listeners = new Set<ChangeListener>();
  const tables = {} as Record<TableName, MemoryTable>;
  for (const name of TABLE_NAMES) {
    const sortedKey = SORTED_KEYS[name];
    tables[name] = new MemoryTable({
      name,
      stringIds: STRING_ID_TABLES.has(name),
      ...(sortedKey !== undefined ? { sortedKey, defaultSortValue: () => clock.nowString() } : {}),
      emit: (op, row) => {
        for (const l of listeners) l({ table: name, op, row });
      },
    });
  }

  const nowMs = historyEnd.getTime();
  const data = generateSeedData({
    seed: opts.seed,
    cdrs: opts.cdrs,
    nowMs,
    historyIdOffset: historyIdOffset(nowMs, DEFAULT_NOW.getTime()),
  });
  for (const [customerId, byTable] of data.rows) {
    for (const [table, rows] of Object.entries(byTable)) {
      const t = tables[table as TableName] as MemoryTable | undefined;
      if (t === undefined) throw new Error(`seed produced rows for unknown table ${table}`);
      t.load(customerId, rows);
    }
  }
  // History tables the seed left empty (--cdrs 0) still start at this run's ids, not at 1.
  for (const table of HISTORY_ID_TABLES) {
    const t = table === 'live' ? tables.calls : (tables[table as TableName] as MemoryTable | undefined);
    t?.reserveId(data.ids.first(table) - 1);
  }
  const accounts = new Map<string, Account>(data.accounts.map((a) => [a.email, a]));
  const adminAccount = data.accounts[0];
  if (adminAccount === undefined) throw new Error('seed produced no admin account');

  // Later calls draw from their own stream, so they do not depend on how much history was seeded.
  const liveRng = new Rng(hashSeed(opts.seed, 'new-calls'));
  const lastTaken = new Map<string, number>();
  const allocator: IdAllocator = {
    take: (table) => {
      if (table === 'live') {
        // Live calls (table `calls`) and CDRs share the live id space.
        const id = Math.max(data.ids.take('live'), tables.calls.lastId + 1);
        tables.calls.reserveId(id);
        return id;
      }
      const t = tables[table as TableName] as MemoryTable | undefined;
      const id = Math.max(t?.lastId ?? 0, lastTaken.get(table) ?? 0) + 1;
      lastTaken.set(table, id);
      return id;
    },
  };
  const generator = new CallGenerator(liveRng, allocator);

  const addCdrs = (customerId: number, count: number): Row[] => {
    const ctx = data.contexts.get(customerId);
    if (ctx === undefined) throw new Error(`no such customer ${customerId}`);
    const cdrs: Row[] = [];
    const nowSec = Math.floor(clock.now().getTime() / 1000);
    for (let k = 0; k < count; k++) {
      // The latest calldate (a late-written long call's CDR is the last row, not the latest call).
      const lastDate = tables.cdrs.lastSortValue(customerId);
      const floor = lastDate !== undefined ? parseDateTime(lastDate) : nowSec - 3600;
      const endsAt = Math.max(floor, nowSec - Math.floor(((count - 1 - k) * 5) / Math.max(1, count)));
      const sink = (table: string, row: Row): void => {
        if (table === 'cdrs' && parseDateTime(String(row.calldate)) < floor) {
          row.calldate = lastDate; // never before an existing CDR: ids ascend with calldate
        }
        tables[table as TableName].insert(customerId, row);
        if (table === 'cdrnotes') {
          const cdrId = Number(row.cdr_id);
          const noted = tables.cdrs.get(cdrId)?.row;
          if (noted !== undefined) tables.cdrs.update(cdrId, { nb_notes: Number(noted.nb_notes ?? 0) + 1 });
        }
      };
      const cdr = generator.call(ctx, endsAt, sink, {
        endsAt,
        maxDuration: Math.max(1, endsAt - floor),
        transcriptLater: true,
      });
      for (const ref of [cdr.src_id, cdr.dst_id]) {
        if (typeof ref === 'string' && ref.startsWith('contact:')) {
          tables.contacts.update(Number(ref.slice(8)), { last_call_at: cdr.calldate });
        }
      }
      cdrs.push(tables.cdrs.get(cdr.id)?.row ?? cdr);
    }
    return cdrs;
  };

  return {
    clock,
    tables,
    customers: data.customers,
    admin: {
      email: adminAccount.email,
      password: adminAccount.password,
      user_id: adminAccount.user_id,
      api_key: adminAccount.api_key,
      customer_id: adminAccount.customer_id,
    },
    accounts,
    addCdrs,
    nextLiveId: () => allocator.take('live'),
    onChange: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
