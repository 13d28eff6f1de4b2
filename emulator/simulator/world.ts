// What the call simulator draws from, read from the store's tables: users, queues, ring groups, IVRs, contacts (with
// their E.164 numbers, so CRM contact matching works) and a few unknown numbers that call repeatedly.
import { e164, type Country } from '../data/phone-numbers';
import { hashSeed, Rng } from '../data/prng';
import type { EmulatorStore, Row } from '../store';

export interface SimUser {
  id: number;
  name: string;
  ext: string;
  cli: string;
  ua: string;
  codec: string;
  /** Unanswered direct calls go to voicemail. */
  voicemail: boolean;
}

export interface SimGroup {
  id: number;
  name: string;
  number: string;
  /** User ids. */
  members: number[];
}

export interface SimRingGroup extends SimGroup {
  /** Seconds each member's phone rings before the group moves on (hunt strategies ring one at a time). */
  ringTime: number;
}

export interface SimIvr extends SimGroup {
  /** Digit options that reach a queue or a user. */
  options: { digit: string; kind: 'queue' | 'user'; id: number }[];
}

export interface SimContact {
  id: number;
  name: string;
  numbers: string[];
}

/** One customer's directory as the simulator sees it. */
export interface SimWorld {
  customerId: number;
  company: string;
  language: string;
  mainNumber: string;
  users: SimUser[];
  queues: SimGroup[];
  ringGroups: SimRingGroup[];
  ivrs: SimIvr[];
  contacts: SimContact[];
  unknownNumbers: string[];
}

const DIGIT_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'] as const;
const PHONES = ['Yealink SIP-T46U 108.86.0.45', 'Zoiper rv2.10.19.5', 'MicroSIP/3.21.3'];
const COUNTRY_BY_CC: Readonly<Record<string, Country>> = { '44': 'GB', '49': 'DE', '1': 'US', '33': 'FR' };

function text(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

function all(
  store: EmulatorStore,
  table: 'users' | 'queues' | 'ringgroups' | 'ivrs' | 'contacts',
  customerId: number,
): Row[] {
  const t = store.tables[table];
  const total = t.count(customerId);
  const rows: Row[] = [];
  for (let page = 1; rows.length < total; page++) {
    const r = t.query(customerId, { page, limit: 5000, filter: [] });
    if (r.data.length === 0) break;
    rows.push(...r.data);
  }
  return rows;
}

function ivrOption(v: string): { kind: 'queue' | 'user'; id: number } | undefined {
  const m = /^([QU]):(\d+)$/.exec(v);
  if (!m) return undefined;
  return { kind: m[1] === 'Q' ? 'queue' : 'user', id: Number(m[2]) };
}

/** Builds the simulator's view of one customer from the store (deterministic for a given store). */
export function worldFromStore(store: EmulatorStore, customerId: number, seed = 1): SimWorld {
  const customer = store.customers.find((c) => c.id === customerId) as
    { id: number; name: string; cli?: string; cc?: string; language?: string } | undefined;
  if (!customer) throw new Error(`no such customer ${customerId}`);
  const users: SimUser[] = all(store, 'users', customerId)
    .filter((u) => u.active !== false)
    .map((u, i) => ({
      id: Number(u.id),
      name: `${text(u.first_name)} ${text(u.last_name)}`.trim(),
      ext: text(u.ext),
      cli: text(u.cli),
      ua: PHONES[i % PHONES.length] as string,
      codec: i % 3 === 0 ? 'G722' : 'opus',
      voicemail: text(u.final_dst_type) === 'V',
    }));
  if (users.length === 0) throw new Error(`customer ${customerId} has no users`);
  const userIds = new Set(users.map((u) => u.id));
  const queues: SimGroup[] = all(store, 'queues', customerId).map((q) => ({
    id: Number(q.id),
    name: text(q.name),
    number: text(q.number),
    members: (Array.isArray(q.users) ? (q.users as { id?: unknown }[]) : [])
      .map((m) => Number(m.id))
      .filter((id) => userIds.has(id)),
  }));
  const ringGroups: SimRingGroup[] = all(store, 'ringgroups', customerId)
    .map((g) => ({
      id: Number(g.id),
      name: text(g.name),
      number: text(g.number),
      // Ring groups list their members as user ids (queues as objects).
      members: (Array.isArray(g.users) ? (g.users as unknown[]) : [])
        .map((m) => Number(typeof m === 'object' && m !== null ? (m as { id?: unknown }).id : m))
        .filter((id) => userIds.has(id)),
      ringTime: typeof g.ring_time === 'number' && g.ring_time > 0 ? g.ring_time : 20,
    }))
    .filter((g) => g.members.length > 0);
  const queueIds = new Set(queues.map((q) => q.id));
  const ivrs: SimIvr[] = all(store, 'ivrs', customerId).map((r) => {
    const options: SimIvr['options'] = [];
    DIGIT_WORDS.forEach((word, i) => {
      const o = ivrOption(text(r[word]));
      if (o && (o.kind === 'queue' ? queueIds.has(o.id) : userIds.has(o.id)))
        options.push({ digit: String(i + 1), ...o });
    });
    return { id: Number(r.id), name: text(r.name), number: text(r.number), members: [], options };
  });
  const contacts: SimContact[] = all(store, 'contacts', customerId)
    .map((c) => ({
      id: Number(c.id),
      name: `${text(c.first_name)} ${text(c.last_name)}`.trim(),
      numbers: [c.tel, c.mobile, c.tel_1, c.mobile_1].map(text).filter((n) => /^\+\d{6,15}$/.test(n)),
    }))
    .filter((c) => c.numbers.length > 0);
  const rng = new Rng(hashSeed(seed, `sim-world-${customerId}`));
  const country = COUNTRY_BY_CC[text(customer.cc)] ?? 'GB';
  const unknownNumbers = Array.from({ length: 40 }, () => e164(rng, country, rng.chance(0.6)));
  return {
    customerId,
    company: customer.name,
    language: text(customer.language) || 'en-GB',
    mainNumber: text(customer.cli) || users[0]?.cli || '',
    users,
    queues,
    ringGroups,
    ivrs,
    contacts,
    unknownNumbers,
  };
}
