// The dashboard's login pieces: the password check, signed session cookies, and the refusal to run
// without a password where other machines can reach it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../config/load';
import { dashboardSettings } from '../../runtime/dashboard-settings';
import { DashboardSessions, passwordMatches, readCookie } from '../../server/dashboard/auth';

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

  it('signs sessions that expire, and a new password ends them', () => {
    const sessions = new DashboardSessions('password-one-123', 60_000);
    const cookie = sessions.issue(1_000);
    expect(sessions.valid(cookie, 2_000)).toBe(true);
    expect(sessions.valid(cookie, 61_001)).toBe(false);
    const [expiry, nonce, mac] = cookie.split('.');
    expect(sessions.valid(`${Number(expiry) + 1e9}.${nonce}.${mac}`, 2_000)).toBe(false);
    expect(new DashboardSessions('password-two-456', 60_000).valid(cookie, 2_000)).toBe(false);
    expect(sessions.cookie(cookie, true)).toMatch(/HttpOnly; SameSite=Strict; Max-Age=60; Secure$/);
    expect(readCookie(`a=1; callsync_dashboard=${cookie}; b=2`, 'callsync_dashboard')).toBe(cookie);
  });

  it('refuses to serve it without a password on a non-loopback interface, and is off on loopback', () => {
    const open = parseConfig({ accounts: [account] });
    expect(() => dashboardSettings(open, '0.0.0.0')).toThrow(
      /server\.dashboard\.password .*server\.host is 0\.0\.0\.0/,
    );
    expect(dashboardSettings(open, '127.0.0.1')).toEqual({
      dashboard: undefined,
      dashboardOff: expect.stringMatching(/server\.dashboard\.password/),
    });
    const off = parseConfig({ accounts: [account], server: { dashboard: { enabled: false } } });
    expect(dashboardSettings(off, '0.0.0.0').dashboard).toBeUndefined();
  });

  it('reads the password from a file, and names the setting when the file will not do', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-'));
    const file = join(dir, 'password');
    writeFileSync(file, 'a-long-enough-password\n');
    const config = parseConfig({ accounts: [account], server: { dashboard: { passwordFile: file } } });
    expect(dashboardSettings(config, '0.0.0.0').dashboard?.password).toBe('a-long-enough-password');
    writeFileSync(file, 'short\n');
    expect(() => dashboardSettings(config, '0.0.0.0')).toThrow(
      /server\.dashboard\.passwordFile: .* at least 12/,
    );
    const missing = parseConfig({
      accounts: [account],
      server: { dashboard: { passwordFile: join(dir, 'nope') } },
    });
    expect(() => dashboardSettings(missing, '0.0.0.0')).toThrow(
      /server\.dashboard\.passwordFile: cannot read .*ENOENT/,
    );
    // A too-short password is refused by name, without echoing it.
    let message = '';
    try {
      parseConfig({ accounts: [account], server: { dashboard: { password: 'hunter2!' } } });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/server\.dashboard\.password/);
    expect(message).not.toContain('hunter2!');
  });
});
