// The Zendesk test server's rules, one test each, over plain HTTP: what it enforces is what Zendesk
// documents (each rule's page is cited where the server enforces it).
import { startFakeZendesk, type FakeZendesk } from '../fakes/zendesk-server';
import { TICKET_UPDATES } from '../fakes/zendesk-tickets';

let fake: FakeZendesk;
beforeEach(async () => {
  fake = await startFakeZendesk({ searchLagMs: 60_000 });
});
afterEach(async () => {
  await fake.close();
});

const basic = () =>
  `Basic ${Buffer.from(`${fake.admin.email}/token:${fake.admin.apiToken}`).toString('base64')}`;

/** The parts of Zendesk's answers these tests read. */
interface Answer {
  ticket: { id: number; tags: string[] };
  tickets: { external_id: string }[];
  results: { name: string }[];
  user: { id: number };
  error: string;
}

async function api(method: string, path: string, body?: unknown, auth = basic()) {
  const res = await fetch(`${fake.url}/api/v2/${path}`, {
    method,
    headers: { Authorization: auth, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: (text ? JSON.parse(text) : null) as Answer,
  };
}

const newTicket = (over: Record<string, unknown> = {}) =>
  api('POST', 'tickets.json', { ticket: { subject: 'Call', comment: { body: 'Inbound call' }, ...over } });

it('refuses a request without valid credentials with 401 "Couldn\'t authenticate you"', async () => {
  const res = await api('GET', 'tickets.json', undefined, 'Basic d3Jvbmc6d3Jvbmc=');
  expect(res).toMatchObject({ status: 401, body: { error: "Couldn't authenticate you" } });
});

it("answers 429 with Retry-After beyond the account's limit, and the rate headers on every answer", async () => {
  fake.setRateLimit(2, 60_000);
  const first = await api('GET', 'tickets.json');
  expect(first.headers.get('x-rate-limit')).toBe('2');
  expect(first.headers.get('ratelimit-remaining')).toBe('1');
  await api('GET', 'tickets.json');
  const refused = await api('GET', 'tickets.json');
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  expect(fake.counters.limited).toBe(1);
});

it(`takes at most ${TICKET_UPDATES.max} updates of one ticket in 10 minutes`, async () => {
  const { body } = await newTicket();
  const id = body.ticket.id;
  for (let i = 0; i < TICKET_UPDATES.max; i++)
    expect((await api('PUT', `tickets/${id}.json`, { ticket: { subject: `v${i}` } })).status).toBe(200);
  const refused = await api('PUT', `tickets/${id}.json`, { ticket: { subject: 'one too many' } });
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toBe('600');
});

it('requires a description, and refuses to change a closed ticket', async () => {
  const blank = await api('POST', 'tickets.json', { ticket: { subject: 'x', comment: { body: ' ' } } });
  expect(blank).toMatchObject({
    status: 422,
    body: { error: 'RecordInvalid', details: { description: [expect.anything()] } },
  });
  const { body } = await newTicket({ status: 'solved' });
  fake.tickets().find((t) => t.id === body.ticket.id)!.status = 'closed';
  const update = await api('PUT', `tickets/${body.ticket.id}.json`, { ticket: { subject: 'late' } });
  expect(update).toMatchObject({ status: 422, body: { error: 'RecordInvalid' } });
});

it("keeps the agents' tags when tags are added and removed one by one", async () => {
  const { body } = await newTicket({ tags: ['callsync', 'VIP', 'customer'] });
  expect(body.ticket.tags).toEqual(['callsync', 'vip', 'customer']);
  const res = await api('PUT', `tickets/${body.ticket.id}.json`, {
    ticket: { additional_tags: ['callsync_v_1'], remove_tags: ['vip'] },
  });
  expect(res.body.ticket.tags).toEqual(['callsync', 'customer', 'callsync_v_1']);
});

it('lists tickets by external_id, at most 100 a page', async () => {
  await newTicket({ external_id: 'acme:1' });
  await newTicket({ external_id: 'acme:2' });
  const res = await api('GET', 'tickets.json?external_id=acme%3A1&page%5Bsize%5D=100');
  expect(res.body.tickets.map((t) => t.external_id)).toEqual(['acme:1']);
  expect((await api('GET', 'tickets.json?page%5Bsize%5D=101')).status).toBe(400);
});

it('searches phones by their digits, exactly or as a suffix with *, never with a +', async () => {
  fake.seedUser({ name: 'A', phone: '+44 (20) 7946-0000' });
  const search = async (q: string) =>
    (await api('GET', `search.json?query=${encodeURIComponent(q)}`)).body.results.map((u) => u.name);
  expect(await search('type:user phone:442079460000')).toEqual(['A']);
  expect(await search('type:user phone:*2079460000')).toEqual(['A']);
  expect(await search('type:user phone:2079460000')).toEqual([]);
  expect(await search('type:user phone:+442079460000')).toEqual([]);
  expect((await api('GET', 'search.json?query=type%3Auser&per_page=101')).status).toBe(400);
  expect((await api('GET', 'search.json?query=type%3Auser&page=11')).status).toBe(422);
});

it('finds a user created through the API by search only after the index lag', async () => {
  const created = await api('POST', 'users.json', { user: { name: 'New', phone: '+442079460001' } });
  expect(created.status).toBe(201);
  const found = await api('GET', `search.json?query=${encodeURIComponent('type:user phone:442079460001')}`);
  expect(found.body.results).toEqual([]);
  expect((await api('GET', `users/${created.body.user.id}.json`)).status).toBe(200);
});

it('refreshes an OAuth pair once: the old pair is deleted, a lifetime out of range is refused', async () => {
  const { accessToken, refreshToken } = fake.oauth.authorize();
  const { clientId, clientSecret } = fake.oauth.settings;
  const grant = (body: Record<string, unknown>) =>
    fetch(`${fake.url}/oauth/tokens`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'refresh_token',
        client_id: clientId,
        client_secret: clientSecret,
        ...body,
      }),
    });
  expect((await grant({ refresh_token: refreshToken, expires_in: 60 })).status).toBe(400);
  const ok = await grant({ refresh_token: refreshToken, expires_in: 300 });
  const fresh = (await ok.json()) as { access_token: string; expires_in: number };
  expect(fresh.expires_in).toBe(300);
  const again = await grant({ refresh_token: refreshToken });
  expect(again.status).toBe(400);
  expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
  expect((await api('GET', 'tickets.json', undefined, `Bearer ${accessToken}`)).status).toBe(401);
  expect((await api('GET', 'tickets.json', undefined, `Bearer ${fresh.access_token}`)).status).toBe(200);
  fake.oauth.expireAll();
  expect((await api('GET', 'tickets.json', undefined, `Bearer ${fresh.access_token}`)).status).toBe(401);
});

it('erases a ticket and a user for good only once they were deleted', async () => {
  const { body } = await newTicket();
  const id = body.ticket.id;
  expect((await api('DELETE', `deleted_tickets/${id}.json`)).status).toBe(404);
  expect((await api('DELETE', `tickets/${id}.json`)).status).toBe(204);
  expect((await api('GET', `tickets/${id}.json`)).status).toBe(404);
  expect((await api('DELETE', `deleted_tickets/${id}.json`)).status).toBe(200);
  expect((await api('DELETE', `deleted_tickets/${id}.json`)).status).toBe(404);
  const user = fake.seedUser({ name: 'Gone', phone: '+442079460002' });
  expect((await api('DELETE', `deleted_users/${user.id}.json`)).status).toBe(404);
  expect((await api('DELETE', `users/${user.id}.json`)).status).toBe(200);
  expect((await api('DELETE', `deleted_users/${user.id}.json`)).status).toBe(200);
  expect(fake.users().some((u) => u.id === user.id)).toBe(false);
});

it('loses the answer of the next create of a kind, with the ticket committed', async () => {
  fake.loseNextAnswer('callLog');
  await expect(newTicket({ tags: ['callsync', 'callsync_call'] })).rejects.toThrow();
  expect(fake.tickets().map((t) => t.tags)).toEqual([['callsync', 'callsync_call']]);
  expect((await newTicket({ tags: ['callsync', 'callsync_call'] })).status).toBe(201);
});

it("reads users by external_id at once (show_many), while search lags; an external_id is one user's", async () => {
  const key = 'acme:contact:+442079460123';
  const created = await api('POST', 'users.json', {
    user: { name: '+442079460123', phone: '+442079460123', external_id: key },
  });
  expect(created.status).toBe(201);
  const shown = (await api(
    'GET',
    `users/show_many.json?external_ids=${encodeURIComponent(key)}`,
  )) as unknown as {
    body: { users: { id: number; external_id: string }[] };
  };
  expect(shown.body.users).toEqual([expect.objectContaining({ id: created.body.user.id, external_id: key })]);
  // Search has not indexed it yet.
  expect((await api('GET', 'search.json?query=type:user%20phone:*2079460123')).body.results).toEqual([]);
  const again = await api('POST', 'users.json', { user: { name: 'Other', external_id: key } });
  expect(again.status).toBe(422);
});

describe('what the contact sync asks of it', () => {
  interface ExportAnswer {
    users: { id: number }[];
    end_of_stream: boolean;
    after_url: string;
  }
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const exportFrom = async (startTime: number, extra = '') =>
    (await api('GET', `incremental/users/cursor.json?start_time=${startTime}${extra}`)) as unknown as {
      status: number;
      headers: Headers;
      body: ExportAnswer;
    };

  it('exports users changed since start_time, oldest first, leaving out the last minute', async () => {
    const recent = fake.seedUser({ name: 'Recent', updatedAt: ago(5_000) });
    const older = fake.seedUser({ name: 'Older', updatedAt: ago(120_000) });
    const oldest = fake.seedUser({ name: 'Oldest', updatedAt: ago(300_000) });
    const res = await exportFrom(Math.floor((Date.now() - 600_000) / 1000));
    expect(res.status).toBe(200);
    const ids = res.body.users.map((u) => u.id);
    expect(ids.indexOf(oldest.id)).toBeLessThan(ids.indexOf(older.id));
    expect(ids).not.toContain(recent.id);
    expect(res.body.end_of_stream).toBe(true);
    expect((await exportFrom(0, '&per_page=1001')).status).toBe(400);
  });

  it('gives a change made after an export, even within the same second, to the export from its cursor', async () => {
    const fresh = await startFakeZendesk({ exportExcludesMs: 0 });
    try {
      const a = fresh.seedUser({ name: 'A' });
      const b = fresh.seedUser({ name: 'B' });
      const get = async (q: string) =>
        (await (
          await fetch(`${fresh.url}/api/v2/incremental/users/cursor.json?${q}`, {
            headers: {
              Authorization: `Basic ${Buffer.from(`${fresh.admin.email}/token:${fresh.admin.apiToken}`).toString('base64')}`,
            },
          })
        ).json()) as { users: { id: number }[]; after_cursor: string };
      const first = await get('start_time=0');
      expect(first.users.map((u) => u.id)).toEqual(expect.arrayContaining([a.id, b.id]));
      // A (the lower id) changes in the second the export ended in.
      fresh.userChanged(a);
      const next = await get(`cursor=${first.after_cursor}`);
      expect(next.users.map((u) => u.id)).toEqual([a.id]);
    } finally {
      await fresh.close();
    }
  });

  it('takes 10 export requests a minute, then answers 429 with Retry-After', async () => {
    for (let i = 0; i < 10; i++) expect((await exportFrom(0)).status).toBe(200);
    const refused = await exportFrom(0);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other endpoints are still answered: the account's own limit is not used up.
    expect((await api('GET', 'users.json?role=end-user')).status).toBe(200);
  });

  it('creates users in bulk as a job: at most 100, results in the order sent, a refused one failing alone', async () => {
    fake.seedUser({ name: 'Taken', email: 'taken@example.com' });
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ name: `P ${i}` }));
    expect((await api('POST', 'users/create_many.json', { users: tooMany })).status).toBe(400);
    const queued = (await api('POST', 'users/create_many.json', {
      users: [{ name: 'Dup', email: 'taken@example.com' }, { name: 'New One' }],
    })) as unknown as { status: number; body: { job_status: { id: string; status: string } } };
    expect(queued.body.job_status.status).toBe('queued');
    let job: { status: string; results: { index: number; status: string; id?: number }[] | null };
    do {
      job = (
        (await api('GET', `job_statuses/${queued.body.job_status.id}.json`)) as unknown as {
          body: { job_status: typeof job };
        }
      ).body.job_status;
    } while (job.status !== 'completed');
    expect(job.results!.map((r) => [r.index, r.status])).toEqual([
      [0, 'Failed'],
      [1, 'Created'],
    ]);
    expect(fake.users().find((u) => u.id === job.results![1]!.id)?.name).toBe('New One');
    expect(fake.userWrites()).toBe(1);
  });

  it('lists users by cursor, at most 100 a page', async () => {
    expect((await api('GET', 'users.json?page[size]=101')).status).toBe(400);
    expect((await api('GET', 'users.json?page[size]=100')).status).toBe(200);
  });

  it('updates a user: updated_at moves, the primary e-mail stays, unknown user fields are not kept', async () => {
    const u = fake.seedUser({ name: 'Edit Me', email: 'first@example.com', updatedAt: ago(600_000) });
    const before = u.updated_at;
    await api('POST', 'user_fields.json', { user_field: { type: 'text', key: 'known', title: 'Known' } });
    const res = await api('PUT', `users/${u.id}.json`, {
      user: { name: 'Edited', email: 'second@example.com', user_fields: { known: 'x', unknown: 'y' } },
    });
    expect(res.status).toBe(200);
    expect(u).toMatchObject({ name: 'Edited', email: 'first@example.com', user_fields: { known: 'x' } });
    expect(u.updated_at > before).toBe(true);
    expect(
      (await api('POST', 'user_fields.json', { user_field: { type: 'text', key: 'known', title: 'Again' } }))
        .status,
    ).toBe(422);
    expect((await api('PUT', `users/${u.id}.json`, { user: { name: ' ' } })).status).toBe(422);
  });
});
