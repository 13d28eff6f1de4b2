// HTTP details: binary content types with real bytes, CORS, and the ready line.
import { readyLine } from '../../emulator';
import { startHarness, type Harness } from './emulator-server-harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(500);
});
afterAll(async () => {
  await h.close();
});

async function firstId(path: string): Promise<number> {
  const body = await (await h.api(`${path}?limit=1`)).json();
  return body.data[0].id as number;
}

async function binary(
  path: string,
): Promise<{ type: string | null; length: string | null; bytes: Buffer; status: number }> {
  const res = await h.api(path);
  const bytes = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    length: res.headers.get('content-length'),
    bytes,
  };
}

describe('binary endpoints', () => {
  it('serves a recording as MP3', async () => {
    const res = await binary(`/monitors/${await firstId('/monitors')}.mp3`);
    expect(res.status).toBe(200);
    expect(res.type).toBe('audio/mpeg');
    expect(Number(res.length)).toBe(res.bytes.length);
    // An MP3 starts with an ID3 tag or an MPEG frame sync.
    const id3 = res.bytes.subarray(0, 3).toString('latin1') === 'ID3';
    const sync = res.bytes[0] === 0xff && ((res.bytes[1] ?? 0) & 0xe0) === 0xe0;
    expect(id3 || sync).toBe(true);
  });

  it('serves a voice message as MP3', async () => {
    const res = await binary(`/voicemessages/${await firstId('/voicemessages')}.mp3`);
    expect(res.type).toBe('audio/mpeg');
    expect(res.bytes.length).toBeGreaterThan(100);
  });

  it('serves a CDR as PCAP', async () => {
    const res = await binary(`/cdrs/${await firstId('/cdrs')}.pcap`);
    expect(res.type).toBe('application/vnd.tcpdump.pcap');
    const magic = res.bytes.readUInt32LE(0);
    expect([0xa1b2c3d4, 0xa1b23c4d, 0xd4c3b2a1, 0x4d3cb2a1]).toContain(magic);
  });

  it('serves a CDR and an MSDR as a SIP trace', async () => {
    const cdr = await binary(`/cdrs/${await firstId('/cdrs')}.trace`);
    expect(cdr.type).toMatch(/^text\/plain/);
    expect(cdr.bytes.toString('utf8')).toContain('INVITE');
    const msdr = await binary(`/msdrs/${await firstId('/msdrs')}.trace`);
    expect(msdr.status).toBe(200);
    expect(msdr.type).toMatch(/^text\/plain/);
  });

  it('exports the CDRs of a user as CSV', async () => {
    const res = await binary(`/users/${h.emu.admin.user_id}/cdrs.csv`);
    expect(res.type).toMatch(/^text\/csv/);
    const lines = res.bytes.toString('utf8').trim().split(/\r?\n/);
    expect(lines[0]).toContain('calldate');
    expect(lines.length).toBeGreaterThan(1);
  });

  it('lists the SIP trace of an ended call by its live id, consistent with the .trace file', async () => {
    const cdr = (await (await h.api('/cdrs?limit=1')).json()).data[0];
    const res = await h.api(`/calls/${cdr.live_id}/trace`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.total).toBe(body.data.length);
    expect(body.data[0]).toMatchObject({ id: 1, method: 'INVITE', created_at: cdr.calldate });
    const text = await (await h.api(`/cdrs/${cdr.id}.trace`)).text();
    expect(text).toContain(`Call-ID: ${body.data[0].call_id}`);
  });

  it('lists the SIP messages of a live call so far', async () => {
    const placed = await (await h.api('/calls', { method: 'POST', json: { to: '+441632960009' } })).json();
    await h.control('POST', '/clock/advance', { seconds: 5 });
    const body = await (await h.api(`/calls/${placed.data.id}/trace`)).json();
    const methods = body.data.map((m: { method: string }) => m.method);
    expect(methods[0]).toBe('INVITE');
    expect(methods).not.toContain('BYE');
    expect((await (await h.api('/calls/999999999/trace')).json()).total).toBe(0);
  });

  it('answers 404 for a missing recording and 401 without credentials', async () => {
    expect((await h.api('/monitors/999999999.mp3')).status).toBe(404);
    expect((await h.api('/monitors/1.mp3', { headers: {} })).status).toBe(401);
  });

  it('routes static segments before ids', async () => {
    expect((await h.api('/cdrs/calltracking')).status).toBe(200);
    expect((await h.api('/monitors/aidictionary')).status).toBe(200);
    expect((await h.api('/ddis/calltracking')).status).toBe(200);
    expect((await h.api('/ddis/dictionaries', { headers: {} })).status).toBe(200);
  });
});

describe('CORS', () => {
  it('answers a preflight', async () => {
    const res = await fetch(`${h.emu.baseUrl}/cdrs`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization,x-auth-token,content-type',
      },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-auth-token');
  });

  it('adds CORS headers to answers, errors included', async () => {
    const ok = await h.api('/users', {
      headers: { authorization: h.adminKey, origin: 'https://app.example.com' },
    });
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    const denied = await h.api('/users', { headers: { origin: 'https://app.example.com' } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('ready line', () => {
  it('is the design contract line', () => {
    const line = readyLine('http://127.0.0.1:8787/v1.1/voipstudio', {
      email: 'admin@example.com',
      password: 'pw',
      user_id: 12,
      api_key: 'key',
    });
    expect(line).toBe(
      '{"emulator":"ready","base_url":"http://127.0.0.1:8787/v1.1/voipstudio","admin":{"email":"admin@example.com","password":"pw","user_id":12,"api_key":"key"}}',
    );
  });

  it('describes a running emulator', () => {
    const parsed = JSON.parse(readyLine(h.emu.baseUrl, h.emu.admin));
    expect(parsed.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\.1\/voipstudio$/);
    expect(Object.keys(parsed.admin)).toEqual(['email', 'password', 'user_id', 'api_key']);
  });
});
