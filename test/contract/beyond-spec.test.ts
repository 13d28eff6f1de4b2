// Contract test: what the platform's own clients (official CLI, CTI connector, queue tool, community
// CLI) send and read beyond the letter of the spec, through callsync's client against the emulator.
import {
  BadRequestError,
  BEYOND_SPEC_ENDPOINTS,
  createPlatformClient,
  PlatformError,
  UnauthorizedError,
  type Page,
  type Paginator,
  type PlatformClient,
} from '../../connectors/platform';
import { emulatorRouteTemplates } from '../../emulator/server/routes';
import { SPEC_ENDPOINTS } from './spec-endpoints';
import { DEFAULT_NOW, startEmulator } from '../../emulator';
import { firstPage, firstRecord, readAll } from './steps/step';
import { pdfProblems, pdfText } from '../support/pdf-check';

/** The first page with the records that failed their schema (`invalid`), which must be none here. */
async function validPage<T>(p: Paginator<T>): Promise<Page<T>> {
  for await (const page of p.pages()) {
    expect(page.invalid).toEqual([]);
    return page;
  }
  throw new Error('no page');
}

describe('client against the emulator, beyond the spec', () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let client: PlatformClient;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, seed: 12, cdrs: 1500, now: DEFAULT_NOW });
    // The calls placed here are patched and read back: they must not ring out and end on their own.
    emulator.simulator.configure({ drive_api_calls: false });
    client = createPlatformClient({
      baseUrl: emulator.baseUrl,
      credentials: { type: 'apiKey', userId: emulator.admin.user_id, apiKey: emulator.admin.api_key },
      maxRetries: 0,
      requestsPerSecond: 1000,
    });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await emulator?.close();
  });

  describe('numbers as the clients dial them', () => {
    it('places a call to a number without its + (read as E.164) and to an extension', async () => {
      const call = await client.calls.create({ to: '441632960001' });
      expect(call.dst).toBe('+441632960001');
      const internal = await client.calls.create({ to: '101' });
      expect(internal.dst).toBe('101');
    });

    it('transfers a call to a number without its +', async () => {
      const call = await client.calls.create({ to: '+441632960003' });
      await client.calls.update(call.id, { dst: '441632960004' });
      expect((await client.calls.get(call.id)).dst).toBe('+441632960004');
    });

    it('sends an SMS to a number without its +', async () => {
      const sms = await client.storage.sms.create({ to: '447700900123', message: 'Your callback is booked' });
      expect(sms.to).toBe('+447700900123');
    });

    it('still answers 400 naming the field for what is no number', async () => {
      const err = await client.calls.create({ to: 'call me' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BadRequestError);
      // Entries are {field, message}, as the official clients read them; the client's message has the reasons.
      expect((err as BadRequestError).errors).toEqual([
        { field: 'to', message: 'must be an E.164 number or an extension' },
      ]);
      expect((err as BadRequestError).message).toContain('(to: must be an E.164 number or an extension)');
      const sms = await client.storage.sms.create({ to: '101', message: 'x' }).catch((e: unknown) => e);
      expect(sms).toBeInstanceOf(BadRequestError); // an SMS needs a phone number, not an extension
    });
  });

  describe('credential and id shapes the clients validate', () => {
    it('has 40-hex API keys and tokens and 6- or 7-digit user ids', async () => {
      expect(emulator.admin.api_key).toMatch(/^[0-9a-f]{40}$/);
      expect(String(emulator.admin.user_id)).toMatch(/^\d{6,7}$/);
      for (const account of emulator.store.accounts.values()) {
        expect(account.api_key).toMatch(/^[0-9a-f]{40}$/);
        expect(String(account.user_id)).toMatch(/^\d{6,7}$/);
      }
      for await (const user of client.customer.users.list()) expect(String(user.id)).toMatch(/^\d{6,7}$/);
      const res = await fetch(`${emulator.baseUrl}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: emulator.admin.email, password: emulator.admin.password }),
      });
      const login = (await res.json()) as { user_token: string; user_id: number };
      expect(login.user_token).toMatch(/^[0-9a-f]{40}$/);
      expect(String(login.user_id)).toMatch(/^\d{6,7}$/);
    });
  });

  describe('answers the clients read', () => {
    it('GET /me carries e-mail, names, customer id and the SIP registration', async () => {
      const me = await client.customer.me();
      expect(me).toMatchObject({
        email: emulator.admin.email,
        customer_id: emulator.admin.customer_id,
        first_name: expect.stringMatching(/\S/),
        last_name: expect.stringMatching(/\S/),
        sip_username: `u${emulator.admin.user_id}`,
        sip_password: expect.stringMatching(/^[0-9a-f]{20}$/),
        sip_domain: expect.stringMatching(/^sip\./),
        sip_wss_url: expect.stringMatching(/^wss:\/\//),
      });
      expect(String(me.id)).toBe(String(emulator.admin.user_id)); // the spec's fields stay
    });
  });

  describe('recordings and CDRs as the clients read them', () => {
    it('a recording carries timestamp, caller, called, type and size, and its audio lasts the whole call', async () => {
      const long = client.history.monitors.list({
        filter: [{ property: 'duration', operator: 'gt', value: 200 }],
        limit: 1,
      });
      const rec = (await firstPage(long)).data[0] as Record<string, unknown> & {
        id: number;
        duration?: unknown;
      };
      expect(rec).toMatchObject({
        timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        caller: expect.any(String),
        called: expect.any(String),
        type: expect.stringMatching(/^[IO]$/),
        size: expect.any(Number),
      });
      const cdr = await client.history.cdrs.get(Number(rec.cdr_id));
      expect([rec.caller, rec.called]).toEqual([cdr.src, cdr.dst]);
      const audio = await client.history.monitors.mp3(rec.id);
      const bytes = await readAll(audio.body);
      expect(bytes.length).toBe(rec.size);
      // 32 kbit/s: 4000 bytes a second, for every second of the call (no longer cut at 30 s).
      expect(bytes.length).toBeGreaterThanOrEqual(Number(rec.duration) * 4000);
      expect(bytes.subarray(0, 3).toString('latin1')).toBe('ID3');
    });

    it('a CDR carries labels, metadata and nb_notes, which counts its notes', async () => {
      const noted = client.history.cdrs.list({
        filter: [{ property: 'nb_notes', operator: 'gt', value: 0 }],
        limit: 1,
      });
      const cdr = (await firstPage(noted)).data[0] as Record<string, unknown> & { id: number };
      expect(cdr).toMatchObject({ labels: expect.any(Array), nb_notes: 1 });
      expect('metadata' in cdr).toBe(true);
      const notes = await firstPage(client.history.cdrs.notes(cdr.id));
      expect(notes.data).toHaveLength(1);
      const plain = (await firstPage(client.history.cdrs.list({ limit: 1 }))).data[0] as Record<
        string,
        unknown
      >;
      expect(plain).toMatchObject({ labels: [], nb_notes: expect.any(Number) });
    });
  });

  describe('endpoints beyond the spec', () => {
    it('serves a route for each, and the client lists them apart from the spec', () => {
      const served = new Set(emulatorRouteTemplates());
      expect(BEYOND_SPEC_ENDPOINTS.filter((e) => !served.has(e))).toEqual([]);
      expect(BEYOND_SPEC_ENDPOINTS.filter((e) => (SPEC_ENDPOINTS as readonly string[]).includes(e))).toEqual(
        [],
      );
    });

    it('/apitokens: the official CLI login (find by name, delete, mint), and the token as an API key', async () => {
      const tokens = client.beyondSpec.apiTokens;
      const named = (name: string) =>
        firstPage(tokens.list({ filter: [{ property: 'name', operator: 'eq', value: name }] }));
      const old = await tokens.create({ name: 'voipstudio-cli', expiry: '2027-12-31' });
      expect(old.token).toMatch(/^[0-9a-f]{40}$/);
      expect(old).toMatchObject({
        name: 'voipstudio-cli',
        user_id: emulator.admin.user_id,
        expiry: '2027-12-31 23:59:59',
      });
      // Name and user are unique together.
      const dup = await tokens.create({ name: 'voipstudio-cli' }).catch((e: unknown) => e);
      expect((dup as PlatformError).status).toBe(409);
      // The CLI's login: find its old token by name, delete it, mint a new one.
      const found = await named('voipstudio-cli');
      expect(found.data.map((t) => t.token)).toEqual([old.token]);
      expect((await tokens.delete(String(old.token))).status).toBe(204);
      expect((await named('voipstudio-cli')).data).toEqual([]);
      const minted = await tokens.create({ name: 'voipstudio-cli' });
      // The minted token authenticates like an API key; the deleted one no longer does.
      const asToken = (apiKey: string) =>
        createPlatformClient({
          baseUrl: emulator.baseUrl,
          credentials: { type: 'apiKey', userId: emulator.admin.user_id, apiKey },
          maxRetries: 0,
        });
      const good = asToken(String(minted.token));
      expect(String((await good.customer.me()).id)).toBe(String(emulator.admin.user_id));
      const revoked = asToken(String(old.token));
      expect(await revoked.customer.me().catch((e: unknown) => e)).toBeInstanceOf(UnauthorizedError);
      await Promise.all([good.close(), revoked.close()]);
      const missing = await tokens.delete(String(old.token)).catch((e: unknown) => e);
      expect((missing as PlatformError).status).toBe(404);
    });
  });

  describe('queue agents', () => {
    it('PATCH /queues/{id}: an agent joins a queue and leaves it; a stranger is refused, named', async () => {
      const queue = await firstRecord(client.settings.queues.list());
      const members = (queue.users ?? []) as { id: number | string; status?: unknown }[];
      const users = (await firstPage(client.customer.users.list({ limit: 100 }))).data;
      const newcomer = users.find((u) => !members.some((m) => String(m.id) === String(u.id)))!;
      const joined = await client.beyondSpec.queues.update(queue.id, {
        users: [...members.map((m) => ({ id: m.id })), { id: newcomer.id, status: true }],
      });
      expect((joined.users as { id: unknown }[]).map((m) => String(m.id))).toContain(String(newcomer.id));
      const again = await client.settings.queues.get(queue.id);
      expect((again.users as { id: unknown }[]).map((m) => String(m.id))).toContain(String(newcomer.id));
      const left = await client.beyondSpec.queues.update(queue.id, {
        users: members.map((m) => ({ id: m.id })),
      });
      expect((left.users as { id: unknown }[]).map((m) => String(m.id))).not.toContain(String(newcomer.id));
      const stranger = await client.beyondSpec.queues
        .update(queue.id, { users: [{ id: 999_999_999 }] })
        .catch((e: unknown) => e);
      expect((stranger as BadRequestError).errors).toEqual([
        { field: 'users[0].id', message: 'no user 999999999 in this account' },
      ]);
    });
  });

  describe('faxes', () => {
    it('GET /faxes/{id} and GET /faxes/{id}.pdf: one fax, and a valid one-page PDF naming from, to and pages', async () => {
      const listed = await firstRecord(client.storage.faxes.list());
      const fax = await client.beyondSpec.faxes.get(listed.id);
      expect(fax).toMatchObject({ id: listed.id, from: listed.from, to: listed.to, pages: listed.pages });
      const pdf = await client.beyondSpec.faxes.pdf(fax.id);
      expect(pdf.contentType).toBe('application/pdf');
      const bytes = await readAll(pdf.body);
      expect(pdfProblems(bytes)).toEqual([]);
      expect(pdfText(bytes)).toEqual(
        expect.arrayContaining([
          `From: ${String(fax.from)}`,
          `To: ${String(fax.to)}`,
          `Pages: ${String(fax.pages)}`,
        ]),
      );
      const missing = await client.beyondSpec.faxes.pdf(999_999_999).catch((e: unknown) => e);
      expect((missing as PlatformError).status).toBe(404);
    });
  });

  describe('transactions', () => {
    it('GET /transactions: invoices and payments with a running balance; the invoice as a PDF', async () => {
      const all = await validPage(client.beyondSpec.transactions.list({ limit: 500 }));
      expect(all.data.length).toBeGreaterThan(1);
      let balance = 0;
      for (const tx of all.data) {
        expect(tx).toMatchObject({ currency: expect.any(String), invoice_id: expect.any(String) });
        expect(['invoice', 'payment']).toContain(tx.type);
        balance = Math.round((balance + Number(tx.amount)) * 100) / 100;
        expect(tx.balance).toBe(balance);
      }
      const latest = await firstRecord(client.beyondSpec.transactions.list({ sort: 'date', dir: 'desc' }));
      expect(latest.id).toBe(all.data.at(-1)?.id);
      const invoice = all.data.find((tx) => tx.type === 'invoice')!;
      const pdf = await client.beyondSpec.transactions.invoice(invoice.id);
      expect(pdf.contentType).toBe('application/pdf');
      const bytes = await readAll(pdf.body);
      expect(pdfProblems(bytes)).toEqual([]);
      expect(pdfText(bytes)).toContain(`Invoice ${String(invoice.invoice_id)}`);
      expect(pdfText(bytes)).toContain(
        `Total: ${String(-Number(invoice.amount))} ${String(invoice.currency)}`,
      );
      const missing = await client.beyondSpec.transactions.invoice(999_999_999).catch((e: unknown) => e);
      expect((missing as PlatformError).status).toBe(404);
      const badFilter = await firstPage(
        client.beyondSpec.transactions.list({
          filter: [{ property: 'colour', operator: 'eq', value: 'red' }],
        }),
      ).catch((e: unknown) => e);
      expect((badFilter as PlatformError).status).toBe(400);
    });
  });

  describe('conversations', () => {
    it('GET /conversations: SMS and chat threads per counterpart, newest first, paged', async () => {
      const all = (await validPage(client.beyondSpec.conversations.list({ limit: 5000 }))).data;
      expect(new Set(all.map((c) => c.channel))).toEqual(new Set(['sms', 'chat']));
      const times = all.map((c) => String(c.last_message_at));
      expect(times).toEqual([...times].sort().reverse());
      const page2 = await firstPage(client.beyondSpec.conversations.list({ page: 2, limit: 3 }));
      expect(page2.data.map((c) => c.id)).toEqual(all.slice(3, 6).map((c) => c.id));
      expect(page2.total).toBe(all.length);
      // A thread counts the SMS both ways with its number.
      const thread = all.find((c) => c.channel === 'sms')!;
      const sms = async (side: 'to' | 'from') =>
        (
          await firstPage(
            client.storage.sms.list({
              filter: [{ property: side, operator: 'eq', value: String(thread.counterpart) }],
            }),
          )
        ).total ?? 0;
      expect(thread.messages).toBe((await sms('to')) + (await sms('from')));
      // A new SMS puts its number's thread first.
      await client.storage.sms.create({ to: '447700900777', message: 'See you at ten' });
      const newest = await firstRecord(client.beyondSpec.conversations.list({ limit: 1 }));
      expect(newest).toMatchObject({
        channel: 'sms',
        counterpart: '+447700900777',
        last_message: 'See you at ten',
        messages: 1,
      });
    });
  });

  describe('sort, dir and filter', () => {
    it('orders a collection by sort and dir (most recent first)', async () => {
      const ids = async (options: Parameters<typeof client.history.cdrs.list>[0]) => {
        for await (const page of client.history.cdrs.list({ limit: 20, ...options }).pages())
          return page.data.map((c) => ({ id: Number(c.id), calldate: String(c.calldate) }));
        return [];
      };
      const asc = await ids({});
      const desc = await ids({ sort: 'calldate', dir: 'desc' });
      expect(desc).toHaveLength(20);
      expect(desc[0]!.id).toBeGreaterThan(asc.at(-1)!.id);
      const dates = desc.map((c) => c.calldate);
      expect(dates).toEqual([...dates].sort().reverse());
      const byId = await ids({ sort: 'id', dir: 'desc' });
      expect(byId.map((c) => c.id)).toEqual([...byId.map((c) => c.id)].sort((a, b) => b - a));
      const byDuration = await ids({ sort: 'duration', dir: 'desc' });
      const durations = await Promise.all(byDuration.slice(0, 3).map((c) => client.history.cdrs.get(c.id)));
      expect(Number(durations[0]!.duration)).toBeGreaterThanOrEqual(Number(durations[2]!.duration));
    });

    it('answers a filter on a property the resource lacks with 400 "Filtration error", naming it', async () => {
      const list = client.history.cdrs.list({
        filter: [{ property: 'colour', operator: 'eq', value: 'red' }],
      });
      const err = await firstPage(list).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BadRequestError);
      expect((err as BadRequestError).message).toContain('Filtration error');
      expect((err as BadRequestError).errors).toEqual([
        { field: 'filter[0].property', message: 'cdrs have no property "colour"' },
      ]);
      // A property it has still filters (and may match nothing).
      const none = client.history.cdrs.list({
        filter: [{ property: 'src', operator: 'eq', value: 'nobody' }],
      });
      for await (const page of none.pages()) expect(page.data).toEqual([]);
    });
  });
});
