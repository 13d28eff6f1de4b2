// Contract test: the platform's public clients, unmodified but for the base URL, against the emulator. Each
// test sends the requests a client sends, as it sends them (header, path, query, body), and reads what the
// client reads; the client's repository and file are named where a request is reproduced.
import { DEFAULT_NOW, startEmulator } from '../../emulator';
import { createPlatformClient, type PlatformClient } from '../../connectors/platform';
import { pdfProblems } from '../support/pdf-check';

type Json = Record<string, unknown>;
interface Answer {
  status: number;
  body: Json;
  contentType: string | null;
  bytes: Buffer;
}

/** The official CLI's name for its token and its expiry (VoIPstudio/cli-client src/auth.js). */
const CLI_TOKEN_NAME = 'VoIPstudio CLI';
const CLI_TOKEN_EXPIRY_SECONDS = 30 * 24 * 60 * 60;

describe('the platform public clients against the emulator', () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  /** The base URL the official CLI and the Singer tap use: `/v1.2/voipstudio` (src/api.js API_PATH). */
  let base: string;

  /** One request as the CLI's Client.request sends it: `x-auth-token`, JSON body (src/api.js). */
  async function send(
    method: string,
    path: string,
    opts: { token?: string; body?: unknown } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = opts.token ? { 'x-auth-token': opts.token } : {};
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const contentType = res.headers.get('content-type');
    const body =
      contentType?.includes('json') && bytes.length > 0 ? (JSON.parse(bytes.toString()) as Json) : {};
    return { status: res.status, body, contentType, bytes };
  }

  /** The CLI's Client.list: limit, page, filter (JSON), sort, dir; listEntity defaults sort=id, dir=DESC. */
  function cliList(resource: string, token: string, filter: unknown[], limit = 25): Promise<Answer> {
    const q = new URLSearchParams({
      limit: String(limit),
      page: '1',
      filter: JSON.stringify(filter),
      sort: 'id',
      dir: 'DESC',
    });
    return send('GET', `/${resource}?${q.toString()}`, { token });
  }

  const rows = (a: Answer): Json[] => a.body.data as Json[];

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, seed: 13, cdrs: 6000, now: DEFAULT_NOW });
    base = `${emulator.origin}/v1.2/voipstudio`;
  }, 60_000);

  afterAll(async () => {
    await emulator?.close();
  });

  describe('the official CLI (VoIPstudio/cli-client)', () => {
    /**
     * After the login test, the CLI's other commands run as with VOIPSTUDIO_API_TOKEN set (README.md
     * "Credential storage"): the admin's API key in `x-auth-token`, so each test stands on its own.
     */
    let token: string;
    beforeAll(() => {
      token = emulator.admin.api_key;
    });

    it('logs in: /login, finds and deletes its old token, mints one with expiry in seconds (src/auth.js)', async () => {
      const login = await send('POST', '/login', {
        body: { email: emulator.admin.email, password: emulator.admin.password },
      });
      expect(login.status).toBe(200);
      const session = String(login.body.user_token);
      const mint = () =>
        send('POST', '/apitokens', {
          token: session,
          body: { name: CLI_TOKEN_NAME, expiry: CLI_TOKEN_EXPIRY_SECONDS },
        });
      const first = await mint();
      expect(first.status).toBe(201);
      // 30 days from the emulator's clock (2026-11-01 12:00:00 UTC).
      expect(first.body.data).toMatchObject({ name: CLI_TOKEN_NAME, expiry: '2026-12-01 12:00:00' });
      // A second login: deleteTokenNamed lists by name, deletes each, then mints again.
      const found = await cliList('apitokens', session, [
        { property: 'name', operator: 'eq', value: CLI_TOKEN_NAME },
      ]);
      expect(rows(found).map((t) => t.token)).toEqual([(first.body.data as Json).token]);
      for (const t of rows(found))
        expect((await send('DELETE', `/apitokens/${String(t.token)}`, { token: session })).status).toBe(204);
      const second = await mint();
      expect(second.status).toBe(201);
      const minted = String((second.body.data as Json).token);
      // whoami with the minted token (src/auth.js whoami reads data.email).
      const me = await send('GET', '/me', { token: minted });
      expect(me.status).toBe(200);
      expect((me.body.data as Json).email).toBe(emulator.admin.email);
      // The spec-style date still works; what is neither answers 400 naming expiry.
      const dated = await send('POST', '/apitokens', {
        token: session,
        body: { name: 'dated', expiry: '2027-01-31' },
      });
      expect((dated.body.data as Json).expiry).toBe('2027-01-31 23:59:59');
      const bad = await send('POST', '/apitokens', { token: session, body: { name: 'bad', expiry: 'soon' } });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([{ field: 'expiry', message: expect.stringContaining('seconds') }]);
    });

    it('lists recordings by date string, direction and a bare partial number (src/entities.js recording)', async () => {
      const sample = rows(await cliList('monitors', token, [], 1))[0]!;
      const digits = String(sample.caller).replace(/\D/g, '').slice(3, 7);
      const filter = [
        { property: 'timestamp', operator: 'gte', value: '2026-06-01' },
        { property: 'timestamp', operator: 'lte', value: '2026-11-02' },
        { property: 'type', operator: 'eq', value: sample.type },
        { property: 'caller', operator: 'like', value: digits },
      ];
      const listed = await cliList('monitors', token, filter, 100);
      expect(listed.status).toBe(200);
      expect(rows(listed).length).toBeGreaterThan(0);
      expect(rows(listed).map((r) => r.id)).toContain(sample.id);
      for (const r of rows(listed)) {
        expect(r.timestamp).toMatch(/^2026-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
        expect(['I', 'O']).toContain(r.type);
        expect(r.type).toBe(sample.type);
        expect(String(r.caller)).toContain(digits);
      }
      // The other direction is a different, non-empty set.
      const other = sample.type === 'I' ? 'O' : 'I';
      const others = await cliList(
        'monitors',
        token,
        [{ property: 'type', operator: 'eq', value: other }],
        5,
      );
      expect(rows(others).length).toBeGreaterThan(0);
    });

    it('matches a bare like value anywhere, as it documents "partial match" (src/entities.js cdr --src)', async () => {
      const sample = rows(
        await cliList('cdrs', token, [{ property: 'src', operator: 'like', value: '+%' }], 1),
      )[0]!;
      const digits = String(sample.src).slice(4, 8);
      const bare = await cliList('cdrs', token, [{ property: 'src', operator: 'like', value: digits }], 100);
      expect(bare.status).toBe(200);
      expect(rows(bare).map((r) => r.id)).toContain(sample.id);
      for (const r of rows(bare)) expect(String(r.src)).toContain(digits);
      // A pattern with its own wildcard keeps the spec's LIKE meaning: here a prefix, not anywhere.
      const prefixed = await cliList('cdrs', token, [
        { property: 'src', operator: 'like', value: `${digits}%` },
      ]);
      expect(rows(prefixed)).toEqual([]); // every src starts with +
      expect(Number(bare.body.total)).toBeGreaterThan(0);
    });

    it('lists invoices, shows one and downloads its PDF, skipping one not completed (src/entities.js invoice)', async () => {
      // An invoice issued ten minutes ago: its direct debit runs in fifty, so it is not completed yet.
      const latest = emulator.store.tables.statements.insert(emulator.admin.customer_id, {
        created_at: '2026-11-01 11:50:00',
        number: 'ACM-202611-999',
        period_start: '2026-10-01 00:00:00',
        period_end: '2026-10-31 23:59:59',
        calls: 1,
        call_charges: 1,
        subscription_fees: 1,
        amount: 2,
        currency: 'GBP',
        status: 'open',
      });
      const listed = await cliList('transactions', token, [
        { property: 'type', operator: 'eq', value: 'invoice' },
      ]);
      expect(listed.status).toBe(200);
      for (const r of rows(listed)) {
        expect(r).toMatchObject({
          type: 'invoice',
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
          amount: expect.any(Number),
          currency_iso: expect.stringMatching(/^[A-Z]{3}$/),
          result: expect.stringMatching(/^(completed|pending)$/),
        });
      }
      const [pending, done] = rows(listed) as [Json, Json];
      expect(pending).toMatchObject({ id: Number(latest.id) * 2 - 1, result: 'pending' });
      expect(done.result).toBe('completed');
      const one = await send('GET', `/transactions/${String(done.id)}`, { token });
      expect(one.status).toBe(200);
      expect(one.body.data).toEqual(done);
      const pdf = await send('GET', `/transactions/${String(done.id)}.pdf`, { token });
      expect(pdf.status).toBe(200);
      expect(pdf.contentType).toBe('application/pdf');
      expect(pdfProblems(pdf.bytes)).toEqual([]);
      const notYet = await send('GET', `/transactions/${String(pending.id)}.pdf`, { token });
      expect(notYet.status).toBe(409);
      expect(String(notYet.body.message)).toMatch(/not completed yet/i); // the CLI's skipWhen
      expect((await send('GET', '/transactions/999999999', { token })).status).toBe(404);
    });

    it('lists conversations as src, dst, duration and type, filtered (src/entities.js conversation)', async () => {
      const listed = await cliList('conversations', token, [
        { property: 'channel', operator: 'eq', value: 'sms' },
        { property: 'duration', operator: 'gte', value: 0 },
      ]);
      expect(listed.status).toBe(200);
      expect(rows(listed).length).toBeGreaterThan(0);
      for (const r of rows(listed)) {
        expect(r).toMatchObject({
          channel: 'sms',
          created_at: r.first_message_at,
          src: expect.stringMatching(/^\+\d+$/),
          dst: expect.stringMatching(/^\+\d+$/),
          duration: expect.any(Number),
          type: expect.stringMatching(/^[IO]$/),
        });
        // The counterpart is the far end of the first message: its recipient if sent, else its sender.
        expect(r.counterpart).toBe(r.type === 'O' ? r.dst : r.src);
      }
      const several = rows(listed).find((r) => Number(r.messages) > 1);
      if (several !== undefined) expect(Number(several.duration)).toBeGreaterThan(0);
      const sample = rows(listed)[0]!;
      const part = String(sample.src).slice(2, 8);
      const bySrc = await cliList('conversations', token, [
        { property: 'src', operator: 'like', value: part },
      ]);
      expect(rows(bySrc).map((r) => r.id)).toContain(sample.id);
    });

    it('sends an SMS from and to numbers without their + (community CLI: "E.164 without plus")', async () => {
      const sent = await send('POST', '/sms', {
        token,
        body: { from: '447700900555', to: '447700900556', message: 'Running late' },
      });
      expect(sent.status).toBe(201);
      expect(sent.body.data).toMatchObject({ from: '+447700900555', to: '+447700900556' });
      const bad = await send('POST', '/sms', {
        token,
        body: { from: 'me', to: '447700900556', message: 'x' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([{ field: 'from', message: 'must be an E.164 number' }]);
    });
  });

  describe('the community Singer tap (afonsodiniz/tap-voipstudio)', () => {
    it('asks page 1 with a limit above 5000 and gets a page of 5000 and the total (tap_voipstudio/client.py)', async () => {
      // APIKeyAuthenticator puts the key in X-Auth-Token; the tap's stream reads $.data[*].
      const page1 = await send('GET', '/cdrs?page=1&limit=10000', { token: emulator.admin.api_key });
      expect(page1.status).toBe(200);
      expect(rows(page1)).toHaveLength(5000);
      const total = Number(page1.body.total);
      expect(total).toBeGreaterThan(5000);
      const page2 = await send('GET', '/cdrs?page=2&limit=10000', { token: emulator.admin.api_key });
      expect(rows(page2)).toHaveLength(total - 5000);
      expect(rows(page2)[0]!.id).not.toBe(rows(page1)[0]!.id);
    });
  });

  describe("callsync's client", () => {
    let client: PlatformClient;
    beforeAll(() => {
      client = createPlatformClient({
        baseUrl: emulator.baseUrl,
        credentials: { type: 'apiKey', userId: emulator.admin.user_id, apiKey: emulator.admin.api_key },
        maxRetries: 0,
        requestsPerSecond: 1000,
      });
    });
    afterAll(async () => {
      emulator.api({ page_cap: null });
      await client?.close();
    });

    it('reads one transaction and its PDF, typed with the names the official CLI reads', async () => {
      const [tx] = (await client.beyondSpec.transactions.list({ limit: 1 }).readPage(1)).data;
      const one = await client.beyondSpec.transactions.get(tx!.id);
      expect(one).toMatchObject({ id: tx!.id, created_at: tx!.date, currency_iso: tx!.currency });
      const pdf = await client.beyondSpec.transactions.pdf(tx!.id);
      expect(pdf.contentType).toBe('application/pdf');
      pdf.body.destroy();
    });

    it('reads on after pages shorter than it asked, by page and by keyset, to the last record', async () => {
      emulator.api({ page_cap: 1500 });
      const total = (await client.history.cdrs.list({ limit: 1 }).readPage(1)).total!;
      const ids: number[] = [];
      for await (const page of client.history.cdrs.list({ limit: 5000 }).pages()) {
        expect(page.data.length).toBeLessThanOrEqual(1500);
        ids.push(...page.data.map((c) => c.id));
      }
      expect(new Set(ids).size).toBe(total);
      const keyset = client.history.cdrs.list({ limit: 5000 });
      let after = 0;
      let read = 0;
      for (let done = false; !done;) {
        const page = await keyset.readAfter(after);
        read += page.data.length;
        after = page.lastId;
        done = page.done;
      }
      expect(read).toBe(total);
    });
  });
});
