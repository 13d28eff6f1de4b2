// The dashboard's login pieces: the bootstrap password check, users' scrypt hashes, the session
// cookie's flags, the query parameter checks, and the refusal to run without a password where other
// machines can reach it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTestConfig } from '../support/test-config';
import { dashboardSettings } from '../../runtime/dashboard-settings';
import { hashPassword, verifyPassword } from '../../lib/password-hash';
import { passwordMatches, readCookie, sessionCookie } from '../../server/dashboard/auth';
import { callListQuerySchema, parseQuery, quarantineQuerySchema } from '../../server/dashboard/params';

const account = {
  name: 'acme',
  platform: { baseUrl: 'http://127.0.0.1:1', credentials: { type: 'apiKey', userId: 1, apiKey: 'k' } },
};

describe('dashboard login', () => {
  it('accepts only the password, whatever the length given', () => {
    expect(passwordMatches('correct horse battery', 'correct horse battery')).toBe(true);
    expect(passwordMatches('correct horse batter', 'correct horse battery')).toBe(false);
    expect(passwordMatches('', 'correct horse battery')).toBe(false);
  });

  it('hashes passwords with scrypt and a salt of their own, and checks them', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b); // a salt per password: equal passwords do not show
    expect(a).not.toContain('correct');
    await expect(verifyPassword('correct horse battery', a)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batter', a)).resolves.toBe(false);
    await expect(verifyPassword('', a)).resolves.toBe(false);
    await expect(verifyPassword('x', 'not-a-hash')).resolves.toBe(false);
    await expect(verifyPassword('x', 'scrypt$1099511627776$8$1$AAAA$AAAA')).resolves.toBe(false);
  });

  it('marks the session cookie HttpOnly and SameSite, and Secure when asked', () => {
    expect(sessionCookie('tok', 60_000, true)).toBe(
      'callsync_dashboard=tok; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=60; Secure',
    );
    expect(sessionCookie('tok', 60_000, false)).not.toMatch(/Secure/);
    expect(sessionCookie('', 60_000, false)).toMatch(/Max-Age=0/);
    expect(readCookie('a=1; callsync_dashboard=tok; b=2', 'callsync_dashboard')).toBe('tok');
  });

  it('names the query parameter that will not do: repeated, control characters, impossible dates', () => {
    const bad = (schema: Parameters<typeof parseQuery>[0], q: unknown) => {
      const r = parseQuery(schema, q);
      return r.ok ? 'ok' : r.message;
    };
    expect(bad(callListQuerySchema, { from: '2026-11-01', to: '2026-11-30', outcome: 'VM' })).toBe('ok');
    expect(bad(callListQuerySchema, { outcome: ['VM', 'INITIAL'] })).toMatch(
      /^query parameter "outcome" must be given once/,
    );
    expect(bad(callListQuerySchema, { number: '44\u000020' })).toMatch(
      /"number" must not contain control characters/,
    );
    expect(bad(callListQuerySchema, { from: '0000-01-01' })).toMatch(
      /"from" must be a date YYYY-MM-DD between 1900 and 9999/,
    );
    expect(bad(callListQuerySchema, { to: '2026-02-30' })).toMatch(/"to" must be a date/);
    expect(bad(callListQuerySchema, { before: '2026-01-01T00:00:00.000Z_99999999999999999999' })).toMatch(
      /"before"/,
    );
    expect(bad(callListQuerySchema, { before: '2026-01-01T00:00:00.000Z_12' })).toBe('ok');
    expect(bad(callListQuerySchema, { user: 'acme' })).toMatch(/"user" must be <account>:<user id>/);
    expect(bad(quarantineQuerySchema, { offset: '1e9' })).toMatch(/"offset" must be a whole number/);
    expect(bad(quarantineQuerySchema, { stream: 'cdrs', offset: '100' })).toBe('ok');
  });

  it('refuses to serve it without a password on a non-loopback interface, and is off on loopback', () => {
    const open = parseTestConfig({ accounts: [account] });
    expect(() => dashboardSettings(open, '0.0.0.0')).toThrow(
      /server\.dashboard\.password .*server\.host is 0\.0\.0\.0/,
    );
    expect(dashboardSettings(open, '127.0.0.1')).toEqual({
      dashboard: undefined,
      dashboardOff: expect.stringMatching(/server\.dashboard\.password/),
    });
    const off = parseTestConfig({ accounts: [account], server: { dashboard: { enabled: false } } });
    expect(dashboardSettings(off, '0.0.0.0').dashboard).toBeUndefined();
  });

  it('reads the password from a file, and names the setting when the file will not do', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-'));
    const file = join(dir, 'password');
    writeFileSync(file, 'a-long-enough-password\n');
    const config = parseTestConfig({ accounts: [account], server: { dashboard: { passwordFile: file } } });
    expect(dashboardSettings(config, '0.0.0.0').dashboard?.password).toBe('a-long-enough-password');
    writeFileSync(file, 'short\n');
    expect(() => dashboardSettings(config, '0.0.0.0')).toThrow(
      /server\.dashboard\.passwordFile: .* at least 12/,
    );
    const missing = parseTestConfig({
      accounts: [account],
      server: { dashboard: { passwordFile: join(dir, 'nope') } },
    });
    expect(() => dashboardSettings(missing, '0.0.0.0')).toThrow(
      /server\.dashboard\.passwordFile: cannot read .*ENOENT/,
    );
    // A too-short password is refused by name, without echoing it.
    let message = '';
    try {
      parseTestConfig({ accounts: [account], server: { dashboard: { password: 'hunter2!' } } });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/server\.dashboard\.password/);
    expect(message).not.toContain('hunter2!');
  });

  it("links each account's Salesforce tasks into its own org (its own CRM, else the global one)", () => {
    const org = (name: string) => ({
      type: 'salesforce',
      instanceUrl: `https://${name}.my.salesforce.com`,
      accessToken: 't',
    });
    const config = parseTestConfig({
      accounts: [
        account,
        { ...account, name: 'globex', crm: org('globex') },
        { ...account, name: 'initech', crm: { type: 'builtin' } },
      ],
      crm: { destination: org('shared') },
      server: { dashboard: { password: 'a-long-enough-password' } },
    });
    // The call page links a Salesforce object into the org its destination identity names.
    expect(dashboardSettings(config, '127.0.0.1').dashboard?.destinations).toEqual({
      acme: 'salesforce:https://shared.my.salesforce.com',
      globex: 'salesforce:https://globex.my.salesforce.com',
      initech: 'builtin',
    });
  });
});
