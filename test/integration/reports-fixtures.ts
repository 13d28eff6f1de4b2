// A small call centre's day for the report tests: two users, one queue, a dozen CDRs around the
// clock change of Sunday 25 October 2026 in Europe/London (a 25-hour local day: BST ends at
// 01:00 UTC, so 01:00–02:00 local happens twice), and a few calls around the 23-hour day of
// 29 March 2026. Expected figures are worked out by hand in the tests that use them.
import { upsertPage } from '../../connectors/postgres';
import { fixture } from '../unit/warehouse-fixtures';
import type { MigratedWarehouse } from './warehouse-db';

export const ACCOUNT = 'acme';
export const ANNA = 12;
export const BEN = 13;
export const ANNA_CLI = '"Anna Kowalska" <+442071234567>';
export const BEN_CLI = '"Ben Okafor" <+442071234568>';

/** Local day 25 Oct 2026 in London: 00:00 BST (UTC+1) to 00:00 GMT next day, 25 hours. */
export const LONDON_OCT_25 = {
  from: new Date('2026-10-24T23:00:00Z'),
  to: new Date('2026-10-26T00:00:00Z'),
  timezone: 'Europe/London',
  label: '2026-10-25',
};

/** Local day 29 Mar 2026 in London: 00:00 GMT to 00:00 BST next day, 23 hours. */
export const LONDON_MAR_29 = {
  from: new Date('2026-03-29T00:00:00Z'),
  to: new Date('2026-03-29T23:00:00Z'),
  timezone: 'Europe/London',
  label: '2026-03-29',
};

interface CallSpec {
  id: number;
  at: string; // UTC, as the platform sends calldate
  type: 'O' | 'I' | 'M';
  user: number;
  src: string;
  dst: string;
  duration: number;
  billsec: number;
  context?: string;
  dstId?: string;
  dstName?: string;
  charge?: number;
  rate?: number;
  clid?: string;
  info?: string;
}

const TYPE_CODES = { O: 'O', I: 'I', M: 'M' } as const;

function cdr(c: CallSpec) {
  return fixture('cdrs', {
    id: c.id,
    live_id: 9000 + c.id,
    user_id: c.user,
    type: TYPE_CODES[c.type],
    calldate: c.at,
    clid: c.clid ?? (c.type === 'O' ? (c.user === ANNA ? ANNA_CLI : BEN_CLI) : `<${c.src}>`),
    src_id: '',
    src_name: c.type === 'O' ? '' : 'Caller',
    src: c.src,
    dst_id: c.dstId ?? '',
    dst: c.dst,
    dst_name: c.dstName ?? '',
    billsec: c.billsec,
    duration: c.duration,
    disposition: c.billsec > 0 ? 'CONNECTED' : 'RINGING',
    destination: c.type === 'O' ? 'out' : 'in',
    context: c.context ?? 'PSTN_CALL',
    rate: c.rate ?? 0,
    charge: c.charge ?? 0,
    info: c.info ?? '',
  });
}

/** The CDRs; comments give each call's local (London) time. */
export const CALLS: readonly CallSpec[] = [
  // 00:30 BST 25th: Anna calls Sydney, 60 s talk, 0.60.
  {
    id: 1,
    at: '2026-10-24 23:30:00',
    type: 'O',
    user: ANNA,
    src: '101',
    dst: '+61293744000',
    duration: 70,
    billsec: 60,
    charge: 0.6,
    rate: 0.6,
  },
  // 01:30 BST (the first 01:30): London caller on Anna's direct number, 120 s.
  {
    id: 2,
    at: '2026-10-25 00:30:00',
    type: 'I',
    user: ANNA,
    src: '+442079460000',
    dst: '+442071234567',
    duration: 130,
    billsec: 120,
  },
  // 01:30 GMT (the second 01:30): New York caller to extension 101, 180 s.
  {
    id: 3,
    at: '2026-10-25 01:30:00',
    type: 'I',
    user: ANNA,
    src: '+12127365000',
    dst: '101',
    duration: 200,
    billsec: 180,
  },
  // 10:00: queue call abandoned after 45 s.
  {
    id: 4,
    at: '2026-10-25 10:00:00',
    type: 'M',
    user: BEN,
    src: '+442079460001',
    dst: '500',
    duration: 45,
    billsec: 0,
    context: 'QUEUE',
    dstId: '301',
    dstName: 'Support',
  },
  // 11:00: queue call answered by Ben after 15 s (tracked number), 100 s talk.
  {
    id: 5,
    at: '2026-10-25 11:00:00',
    type: 'I',
    user: BEN,
    src: '+442079460002',
    dst: '500',
    duration: 115,
    billsec: 100,
    context: 'QUEUE',
    dstId: '301',
    dstName: 'Support',
    info: 'Call tracking: +442071239999',
  },
  // 12:00: queue call from Paris answered by Ben after 30 s, 100 s talk.
  {
    id: 6,
    at: '2026-10-25 12:00:00',
    type: 'I',
    user: BEN,
    src: '+33123456789',
    dst: '500',
    duration: 130,
    billsec: 100,
    context: 'QUEUE',
    dstId: '301',
    dstName: 'Support',
  },
  // 10:20: Ben calls back the abandoned caller of 10:00, 40 s, 0.04.
  {
    id: 7,
    at: '2026-10-25 10:20:00',
    type: 'O',
    user: BEN,
    src: '102',
    dst: '+442079460001',
    duration: 50,
    billsec: 40,
    charge: 0.04,
    rate: 0.06,
  },
  // 23:30 GMT: Berlin caller misses Anna after 20 s.
  {
    id: 8,
    at: '2026-10-25 23:30:00',
    type: 'M',
    user: ANNA,
    src: '+4930123456',
    dst: '101',
    duration: 20,
    billsec: 0,
  },
  // 23:50 GMT: Ben's call crosses midnight (1200 s), counted on the day it started; 1.20.
  {
    id: 9,
    at: '2026-10-25 23:50:00',
    type: 'O',
    user: BEN,
    src: '102',
    dst: '+442079460003',
    duration: 1210,
    billsec: 1200,
    charge: 1.2,
    rate: 0.06,
  },
  // 00:10 GMT 26th: the next day.
  {
    id: 10,
    at: '2026-10-26 00:10:00',
    type: 'O',
    user: ANNA,
    src: '101',
    dst: '+442079460004',
    duration: 40,
    billsec: 30,
    charge: 0.03,
    rate: 0.06,
  },
  // 23:59:59 BST 24th: the previous day.
  {
    id: 11,
    at: '2026-10-24 22:59:59',
    type: 'I',
    user: ANNA,
    src: '+442079460005',
    dst: '101',
    duration: 70,
    billsec: 60,
  },
  // 09:00: Anna's echo test, never in the figures.
  {
    id: 12,
    at: '2026-10-25 09:00:00',
    type: 'O',
    user: ANNA,
    src: '101',
    dst: '*43',
    duration: 10,
    billsec: 10,
    context: 'TEST_CALL',
  },
  // 29 March: 00:30 GMT (in), 23:30 BST (in), 00:10 BST 30th (out); 0.10 each.
  {
    id: 20,
    at: '2026-03-29 22:30:00',
    type: 'O',
    user: ANNA,
    src: '101',
    dst: '+442079460006',
    duration: 70,
    billsec: 60,
    charge: 0.1,
    rate: 0.1,
  },
  {
    id: 21,
    at: '2026-03-29 23:10:00',
    type: 'O',
    user: ANNA,
    src: '101',
    dst: '+442079460006',
    duration: 70,
    billsec: 60,
    charge: 0.1,
    rate: 0.1,
  },
  {
    id: 22,
    at: '2026-03-29 00:30:00',
    type: 'O',
    user: ANNA,
    src: '101',
    dst: '+442079460006',
    duration: 70,
    billsec: 60,
    charge: 0.1,
    rate: 0.1,
  },
];

/** Loads users, the queue, the CDRs, recordings, a callback task and an auto-dial. */
export async function loadReportFixtures(w: MigratedWarehouse): Promise<void> {
  await upsertPage(w.pool, {
    stream: 'users',
    account: ACCOUNT,
    records: [
      fixture('users', { id: ANNA, first_name: 'Anna', last_name: 'Kowalska', ext: '101' }),
      fixture('users', {
        id: BEN,
        first_name: 'Ben',
        last_name: 'Okafor',
        ext: '102',
        email: 'ben@example.com',
      }),
    ],
  });
  await upsertPage(w.pool, {
    stream: 'queues',
    account: ACCOUNT,
    records: [fixture('queues', { id: 301, name: 'Support' })],
  });
  await upsertPage(w.pool, { stream: 'cdrs', account: ACCOUNT, records: CALLS.map(cdr) });
  const recording = (id: number, call: number, sentiment: string, cx: number, transcript: string) =>
    fixture('recordings', { id, live_id: 9000 + call, sentiment, cx_score: cx, transcript });
  await upsertPage(w.pool, {
    stream: 'recordings',
    account: ACCOUNT,
    records: [
      recording(1, 2, 'positive', 80, 'Hello, Anna speaking'),
      recording(2, 3, 'negative', 40, ''),
      recording(3, 5, 'neutral', 70, 'Support, Ben speaking'),
      recording(4, 10, 'positive', 100, 'next day'),
    ],
  });
  await w.db
    .insertInto('builtin_tasks')
    .values([
      {
        account: ACCOUNT,
        key: 'acme:+442079460001',
        subject: 'Call back',
        body: '',
        status: 'closed',
        due_at: '2026-10-25T10:30:00Z',
        caller_number: '+442079460001',
        created_at: new Date('2026-10-25T10:00:50Z'),
        closed_at: '2026-10-25T10:21:00Z',
      },
      {
        account: ACCOUNT,
        key: 'acme:+4930123456',
        subject: 'Call back',
        body: '',
        status: 'open',
        due_at: '2026-10-26T09:00:00Z',
        caller_number: '+4930123456',
        created_at: new Date('2026-10-25T23:30:40Z'),
      },
    ])
    .execute();
  await w.db
    .insertInto('callback_dials')
    .values({
      attempt_key: 'callback-acme-+4930123456/run#1',
      account: ACCOUNT,
      number: '+4930123456',
      known_call_ids: [],
      placed_at: '2026-10-26T08:00:00Z',
    })
    .execute();
}
