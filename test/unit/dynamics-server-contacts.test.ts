// The Dynamics 365 test server's rules for the contact sync (test/fakes/dynamics-batch.ts,
// dynamics-metadata.ts, the DateTimeOffset literal of dynamics-odata.ts): one test per rule, through
// plain HTTP requests, so the contact book's tests stand on a server as strict as Dataverse.
import { randomUUID } from 'node:crypto';
import { startFakeDynamics, type FakeDynamics } from '../fakes/dynamics-server';
import { trustTestCertificate } from '../fakes/dynamics-tls';

let d: FakeDynamics;
let token: string;
const base = () => `${d.url}/api/data/v9.2/`;

/** A Web API answer's body: an error, a page of rows, or a record. */
type Answer = { error: { code: string; message: string }; value: unknown[] } & Record<string, unknown>;

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base()}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { res, json: (text === '' ? null : JSON.parse(text)) as Answer | null };
}

/** A $batch body of these operations, each its own part (no change set). */
function batchBody(
  boundary: string,
  ops: { method: string; path: string; body?: unknown; headers?: string[] }[],
) {
  const parts = ops.map((op) =>
    [
      `--${boundary}`,
      'Content-Type: application/http',
      'Content-Transfer-Encoding: binary',
      '',
      `${op.method} ${base()}${op.path} HTTP/1.1`,
      'Content-Type: application/json',
      ...(op.headers ?? []),
      '',
      op.body === undefined ? '' : JSON.stringify(op.body),
    ].join('\r\n'),
  );
  return `${parts.join('\r\n')}\r\n--${boundary}--\r\n`;
}

async function batch(ops: Parameters<typeof batchBody>[1], prefer?: string) {
  const boundary = `batch_${randomUUID()}`;
  const res = await fetch(`${base()}$batch`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': `multipart/mixed;boundary=${boundary}`,
      ...(prefer ? { Prefer: prefer } : {}),
    },
    body: batchBody(boundary, ops),
  });
  const text = await res.text();
  const statuses = [...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
  return { res, text, statuses };
}

beforeAll(async () => {
  trustTestCertificate();
  d = await startFakeDynamics();
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: d.clientId,
    client_secret: d.clientSecret,
    scope: `${d.url}/.default`,
  });
  const answer = await fetch(`${d.url}/${d.tenantId}/oauth2/v2.0/token`, { method: 'POST', body: form });
  token = ((await answer.json()) as { access_token: string }).access_token;
});
afterAll(() => d?.close());

describe('$batch', () => {
  it('runs the operations in order and answers each in a batchresponse part, as one request', async () => {
    const before = d.limits.counters.requests;
    const { res, text, statuses } = await batch([
      { method: 'POST', path: 'contacts', body: { lastname: 'One' } },
      {
        method: 'POST',
        path: 'contacts?$select=lastname',
        body: { lastname: 'Two' },
        headers: ['Prefer: return=representation'],
      },
    ]);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^multipart\/mixed; boundary=batchresponse_/);
    expect(statuses).toEqual([204, 201]);
    expect(text).toContain('"lastname":"Two"');
    expect(d.limits.counters.requests - before).toBe(1);
    expect(d.operations.filter((o) => o.inBatch).map((o) => [o.method, o.status])).toEqual([
      ['POST', 204],
      ['POST', 201],
    ]);
  });

  it('stops at the first failure, unless odata.continue-on-error; each operation stands alone', async () => {
    const ops = [
      { method: 'POST', path: 'contacts', body: { lastname: 'x'.repeat(51) } },
      { method: 'POST', path: 'contacts', body: { lastname: 'Stopped' } },
    ];
    expect((await batch(ops)).statuses).toEqual([400]);
    expect(d.rows('contacts').some((r) => r.lastname === 'Stopped')).toBe(false);
    const going = await batch(ops, 'odata.continue-on-error');
    expect(going.statuses).toEqual([400, 204]);
    expect(going.text).toContain('0x80044331');
    expect(d.rows('contacts').filter((r) => r.lastname === 'Stopped')).toHaveLength(1);
  });

  it('takes at most 1,000 operations, and no change set', async () => {
    const many = Array.from({ length: 1001 }, () => ({
      method: 'DELETE',
      path: `contacts(${randomUUID()})`,
    }));
    const tooMany = await batch(many);
    expect(tooMany.res.status).toBe(400);
    expect(tooMany.text).toContain('at most 1000');
    const boundary = `batch_${randomUUID()}`;
    const res = await fetch(`${base()}$batch`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': `multipart/mixed;boundary=${boundary}` },
      body: `--${boundary}\r\nContent-Type: multipart/mixed;boundary=changeset_1\r\n\r\n--changeset_1--\r\n--${boundary}--\r\n`,
    });
    expect(res.status).toBe(400);
  });
});

describe('column definitions', () => {
  const path = "EntityDefinitions(LogicalName='contact')/Attributes";
  const column = (schema: string, max = 100) => ({
    '@odata.type': 'Microsoft.Dynamics.CRM.StringAttributeMetadata',
    SchemaName: schema,
    DisplayName: { LocalizedLabels: [{ Label: 'Test', LanguageCode: 1033 }] },
    MaxLength: max,
  });

  it('creates a text column the contact table then takes, read by its logical name; once', async () => {
    expect((await api('GET', `${path}(LogicalName='new_testkey')`)).res.status).toBe(404);
    expect((await api('POST', 'contacts', { lastname: 'K', new_testkey: 'a' })).res.status).toBe(400);
    const created = await api('POST', path, column('new_TestKey'));
    expect(created.res.status).toBe(204);
    expect(created.res.headers.get('odata-entityid')).toMatch(/Attributes\([0-9a-f-]{36}\)$/);
    expect((await api('GET', `${path}(LogicalName='new_testkey')`)).json).toMatchObject({
      LogicalName: 'new_testkey',
      SchemaName: 'new_TestKey',
      MaxLength: 100,
    });
    expect((await api('POST', 'contacts', { lastname: 'K', new_testkey: 'a' })).res.status).toBe(204);
    expect((await api('POST', 'contacts', { lastname: 'K', new_testkey: 'a'.repeat(101) })).res.status).toBe(
      400,
    );
    const again = await api('POST', path, column('new_TestKey'));
    expect(again.res.status).toBe(400);
    expect(again.json?.error.message).toContain('already exists');
  });

  it("refuses a SchemaName without the publisher's prefix, and a MaxLength past 4,000", async () => {
    expect((await api('POST', path, column('callsync_Key'))).res.status).toBe(400);
    expect((await api('POST', path, column('new_Long', 4001))).res.status).toBe(400);
  });
});

describe('$filter on modifiedon', () => {
  it('compares a DateTimeOffset literal as the instant it names, and orders oldest first', async () => {
    const old = d.seedContact({ lastname: 'Old' }, '2026-01-01T10:00:00.000Z');
    const edge = d.seedContact({ lastname: 'Edge' }, '2026-01-02T10:00:00.000Z');
    const late = d.seedContact({ lastname: 'Late' }, '2026-01-03T10:00:00.500Z');
    const found = await api(
      'GET',
      `contacts?$select=contactid&$filter=modifiedon ge 2026-01-02T10:00:00Z and modifiedon le 2026-01-04T00:00:00Z&$orderby=modifiedon desc`,
    );
    const ids = (found.json?.value as { contactid: string }[]).map((r) => r.contactid);
    expect(ids).toEqual([late, edge]);
    expect(ids).not.toContain(old);
  });
});
