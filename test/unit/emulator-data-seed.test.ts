import { isValidPhoneNumber } from 'libphonenumber-js/max';
import { createStore, TABLE_NAMES, type Row } from '../../emulator/store';

const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

function all(
  store: ReturnType<typeof createStore>,
  table: (typeof TABLE_NAMES)[number],
  customer = 1,
): Row[] {
  return store.tables[table].query(customer, { page: 1, limit: 1_000_000, filter: [] }).data;
}

/** A bit of every table of both customers, as JSON. */
function sample(store: ReturnType<typeof createStore>): string {
  const out: Record<string, unknown> = {};
  for (const t of TABLE_NAMES) {
    for (const c of [1, 2]) out[`${t}:${c}`] = store.tables[t].query(c, { page: 2, limit: 25, filter: [] });
  }
  return JSON.stringify({
    out,
    accounts: [...store.accounts],
    admin: store.admin,
    customers: store.customers,
  });
}

describe('seeded data', () => {
  const store = createStore({ seed: 1234, cdrs: 5000 });
  const cdrs = all(store, 'cdrs');

  it('is the same for the same seed and differs for another seed', () => {
    const again = createStore({ seed: 1234, cdrs: 5000 });
    expect(sample(again)).toBe(sample(store));
    expect(JSON.stringify(all(again, 'cdrs'))).toBe(JSON.stringify(cdrs));
    const other = createStore({ seed: 1235, cdrs: 5000 });
    expect(sample(other)).not.toBe(sample(store));
    expect(other.admin.password).not.toBe(store.admin.password);
    expect(other.admin.api_key).not.toBe(store.admin.api_key);
  });

  it('keeps the directory when only the CDR volume changes', () => {
    const bigger = createStore({ seed: 1234, cdrs: 6000 });
    expect(JSON.stringify(all(bigger, 'users'))).toBe(JSON.stringify(all(store, 'users')));
    expect(JSON.stringify(all(bigger, 'contacts').map((c) => c.tel))).toBe(
      JSON.stringify(all(store, 'contacts').map((c) => c.tel)),
    );
    expect(bigger.tables.cdrs.count(1)).toBe(6000);
  });

  it('has the promised volume and shape', () => {
    expect(cdrs).toHaveLength(5000);
    expect(store.tables.cdrs.count(2)).toBeGreaterThan(0);
    expect(store.tables.users.count(1)).toBe(40);
    expect(store.tables.queues.count(1)).toBeGreaterThanOrEqual(3);
    expect(store.tables.ringgroups.count(1)).toBe(3);
    expect(store.tables.ivrs.count(1)).toBeGreaterThanOrEqual(2);
    expect(store.tables.ddis.count(1)).toBeGreaterThanOrEqual(10);
    expect(store.tables.contacts.count(1)).toBe(2000);
    expect(store.tables.sms.count(1)).toBeGreaterThan(1000);
    for (const t of TABLE_NAMES) expect([t, store.tables[t].count(1)]).not.toEqual([t, 0]);
  });

  it('creates the admin, a 2FA user and another customer admin', () => {
    const admin = store.accounts.get(store.admin.email);
    expect(admin).toMatchObject({ user_id: store.admin.user_id, customer_id: 1, two_factor: 'D' });
    expect(store.admin.email).toBe('admin@acme-telecom.example');
    const accounts = [...store.accounts.values()];
    expect(accounts.filter((a) => a.customer_id === 1 && a.two_factor === 'E')).toHaveLength(1);
    expect(accounts.filter((a) => a.customer_id === 2)).toHaveLength(1);
    for (const a of accounts) {
      const user = store.tables.users.get(a.user_id);
      expect(user?.customerId).toBe(a.customer_id);
      expect(user?.row.email).toBe(a.email);
      expect(user?.row.two_factor_auth).toBe(a.two_factor);
      expect(a.api_key).toMatch(/^[0-9a-f]{40}$/);
    }
  });

  it('CDRs agree with themselves: durations, charges, missed calls, order', () => {
    let prev: Row | undefined;
    for (const c of cdrs) {
      expect(c.calldate).toMatch(DATE);
      expect(c.billsec).toBeLessThanOrEqual(c.duration as number);
      const billable = Math.ceil((c.billsec as number) / 60);
      expect(c.charge).toBeCloseTo(Math.round((c.rate as number) * billable * 10_000) / 10_000, 10);
      expect(['O', 'I', 'M']).toContain(c.type);
      expect(['in', 'out', 'webcall', 'callmeback']).toContain(c.destination);
      if (c.type === 'M') {
        expect(c).toMatchObject({ billsec: 0, t_cause: 'No user responding', destination: 'in' });
      }
      if (c.destination === 'in' && c.disposition !== 'CONNECTED' && c.disposition !== 'VM')
        expect(c.type).toBe('M');
      if (c.disposition === 'CONNECTED') expect(c.billsec).toBeGreaterThan(0);
      expect(store.tables.users.get(c.user_id as number)?.customerId).toBe(1);
      if (prev !== undefined) {
        expect(c.id as number).toBeGreaterThan(prev.id as number);
        expect(String(c.calldate) >= String(prev.calldate)).toBe(true);
      }
      prev = c;
    }
    const liveIds = new Set(cdrs.map((c) => c.live_id));
    expect(liveIds.size).toBe(cdrs.length);
    expect(cdrs.some((c) => c.type === 'M')).toBe(true);
    expect(cdrs.some((c) => c.disposition === 'VM')).toBe(true);
  });

  it('links parties to contacts, users and queues of the same customer', () => {
    const queueIds = new Set(all(store, 'queues').map((q) => String(q.id)));
    const queueCalls = cdrs.filter((c) => c.context === 'QUEUE');
    expect(queueCalls.length).toBeGreaterThan(0);
    for (const c of queueCalls) expect(queueIds.has(String(c.dst_id))).toBe(true);
    for (const c of cdrs) {
      for (const [ref, number] of [
        [c.src_id, c.src],
        [c.dst_id, c.dst],
      ]) {
        if (typeof ref === 'string' && ref.startsWith('contact:')) {
          const contact = store.tables.contacts.get(Number(ref.slice(8)));
          expect(contact?.customerId).toBe(1);
          expect([contact?.row.tel, contact?.row.mobile]).toContain(number);
          expect(String(contact?.row.last_call_at) >= String(c.calldate)).toBe(true);
        }
      }
      if (c.destination === 'out' && c.context === 'PSTN_CALL') {
        expect(c.src_id).toBe(String(c.user_id));
        expect(c.dst).toMatch(/^\+\d{8,15}$/);
      }
    }
  });

  it('links recordings and voice messages to their CDR by live_id', () => {
    const byLive = new Map(cdrs.map((c) => [c.live_id, c]));
    const monitors = all(store, 'monitors');
    const connected = cdrs.filter((c) => c.disposition === 'CONNECTED').length;
    expect(monitors.length / connected).toBeGreaterThan(0.2);
    expect(monitors.length / connected).toBeLessThan(0.45);
    for (const m of monitors) {
      const cdr = byLive.get(m.live_id);
      expect(cdr?.id).toBe(m.cdr_id);
      expect(cdr?.disposition).toBe('CONNECTED');
      const end =
        Date.parse(`${String(cdr?.calldate).replace(' ', 'T')}Z`) + (cdr?.duration as number) * 1000;
      expect(m.created_at).toBe(new Date(end).toISOString().slice(0, 19).replace('T', ' '));
      expect(m.token).toMatch(/^[0-9a-f]{32}$/);
    }
    const transcribed = monitors.filter((m) => typeof m.transcript === 'string');
    expect(transcribed.length).toBeGreaterThan(monitors.length / 2);
    for (const m of transcribed) {
      expect(m.summary).toEqual(expect.any(String));
      expect(['positive', 'neutral', 'negative']).toContain(m.sentiment);
      expect(m.cx_score).toBeGreaterThanOrEqual(0);
      expect(m.cx_score).toBeLessThanOrEqual(100);
      expect(Array.isArray(JSON.parse(String(m.transcript_speakers)))).toBe(true);
    }
    const vms = all(store, 'voicemessages');
    expect(vms).toHaveLength(cdrs.filter((c) => c.disposition === 'VM').length);
    for (const v of vms) {
      expect(byLive.get(v.live_id)?.disposition).toBe('VM');
      expect(v.duration).toBe(byLive.get(v.live_id)?.billsec);
    }
  });

  it('uses valid E.164 numbers from several countries', () => {
    const contacts = all(store, 'contacts');
    const prefixes = new Set<string>();
    for (const c of contacts) {
      expect(isValidPhoneNumber(String(c.tel))).toBe(true);
      expect(isValidPhoneNumber(String(c.mobile))).toBe(true);
      prefixes.add(String(c.tel).slice(0, 3));
    }
    expect(prefixes.size).toBeGreaterThanOrEqual(6);
    for (const d of all(store, 'ddis')) {
      expect(d.id).toBe(d.e164);
      expect(isValidPhoneNumber(String(d.e164))).toBe(true);
    }
  });

  it('keeps other resources consistent: statements, SMS, report schedules', () => {
    const months = new Map<string, number>();
    for (const c of cdrs) {
      const m = String(c.calldate).slice(0, 7);
      months.set(m, (months.get(m) ?? 0) + (c.charge as number));
    }
    const statements = all(store, 'statements');
    expect(statements.length).toBeGreaterThanOrEqual(5);
    for (const s of statements) {
      expect(s.call_charges).toBeCloseTo(months.get(String(s.period_start).slice(0, 7)) ?? -1, 3);
    }
    const sms = all(store, 'sms');
    expect(new Set(sms.map((s) => s.type))).toEqual(new Set(['O', 'I']));
    for (let i = 1; i < sms.length; i++) {
      expect(String(sms[i]?.created_at) >= String(sms[i - 1]?.created_at)).toBe(true);
    }
    const schedules = all(store, 'reportschedules');
    expect(new Set(schedules.map((s) => (JSON.parse(String(s.frequency)) as { type: string }).type))).toEqual(
      new Set(['daily', 'weekly', 'monthly']),
    );
    expect(schedules.map((s) => s.timezone)).toEqual(
      expect.arrayContaining(['Europe/London', 'America/New_York']),
    );
    const now = store.clock.nowString();
    for (const s of schedules.filter((x) => x.status === 1)) {
      expect(String(s.next_run_at) > now).toBe(true);
      expect(String(s.last_run_at) <= now).toBe(true);
    }
    const live = all(store, 'calls');
    expect(live.length).toBeGreaterThan(0);
    for (const l of live) expect(Number.isInteger(l.start_time)).toBe(true);
  });
});
