// `callsync users` as an operator runs it (a child process, a config file naming the database):
// add a viewer with a piped password and an admin with a generated one, refuse unknown accounts and
// taken names, change a password (ending the user's sessions), list, remove.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createDashboardSession,
  createDatabase,
  getDashboardUser,
  migrateToLatest,
  type WarehouseDatabase,
} from '../../connectors/postgres';
import { verifyPassword } from '../../lib/password-hash';
import { cliCommand, cliEnv, root } from './cli-process';
import { createTestDatabase, type TestDatabase } from './warehouse-db';

jest.setTimeout(180_000);

describe('callsync users', () => {
  let db: TestDatabase;
  let warehouse: WarehouseDatabase;
  let configFile: string;

  const users = (args: string[], input?: string) => {
    const [cmd, argv] = cliCommand(['--config', configFile, 'users', ...args]);
    return spawnSync(cmd, argv, {
      cwd: root,
      env: cliEnv(),
      encoding: 'utf8',
      timeout: 60_000,
      input: input ?? '',
    });
  };
  const sessions = async (username: string) =>
    (
      await warehouse.db
        .selectFrom('dashboard_sessions')
        .select('id')
        .where('username', '=', username)
        .execute()
    ).length;

  beforeAll(async () => {
    db = await createTestDatabase('cli_users');
    warehouse = createDatabase(db.url);
    await migrateToLatest(warehouse.db);
    const account = (name: string) => ({
      name,
      platform: { baseUrl: 'http://127.0.0.1:1', credentials: { type: 'apiKey', userId: 1, apiKey: 'k' } },
    });
    configFile = join(mkdtempSync(join(tmpdir(), 'cli-users-')), 'callsync.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        allowInlineSecrets: true,
        accounts: [account('acme'), account('globex')],
        database: { url: db.url },
      }),
    );
  });

  afterAll(async () => {
    await warehouse?.close();
    await db?.drop();
  });

  it('adds a viewer with a piped password, hashed with scrypt, and refuses the name twice', async () => {
    const added = users(
      ['add', 'vera', '--role', 'viewer', '--accounts', 'acme', '--password-stdin'],
      'vera-secret-password\n',
    );
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    expect(added.stdout).toBe('added viewer vera (sees accounts acme)\n');
    const row = await getDashboardUser(warehouse.db, 'vera');
    expect(row).toMatchObject({ role: 'viewer', accounts: ['acme'] });
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain('vera-secret');
    await expect(verifyPassword('vera-secret-password', row!.password_hash)).resolves.toBe(true);

    const again = users(['add', 'vera', '--role', 'admin', '--password-stdin'], 'another-password-1\n');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('user vera exists');
  });

  it('refuses accounts that are not configured, a viewer without accounts, and a short password', () => {
    const unknown = users(['add', 'eve', '--role', 'viewer', '--accounts', 'acme,initech']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('--accounts: initech not configured (accounts: acme, globex)');
    const none = users(['add', 'eve', '--role', 'viewer']);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('a viewer needs --accounts');
    const short = users(['add', 'eve', '--role', 'admin', '--password-stdin'], 'short\n');
    expect(short.status).toBe(1);
    expect(short.stderr).toContain('at least 12 characters');
    const role = users(['add', 'eve', '--role', 'root']);
    expect(role.status).toBe(1);
    expect(role.stderr).toContain('--role must be admin or viewer');
  });

  it('adds an admin with a generated password, printed once', async () => {
    const added = users(['add', 'boss', '--role', 'admin']);
    expect(added.status).toBe(0);
    const password = /password \(shown once\): (\S+)/.exec(added.stdout)?.[1];
    expect(password?.length).toBeGreaterThanOrEqual(20);
    const row = await getDashboardUser(warehouse.db, 'boss');
    await expect(verifyPassword(password!, row!.password_hash)).resolves.toBe(true);
  });

  it("changes a password and ends the user's sessions, lists, and removes", async () => {
    await createDashboardSession(warehouse.db, {
      id: 'session-of-vera',
      username: 'vera',
      credential: null,
      csrfToken: 'csrf',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    expect(await sessions('vera')).toBe(1);
    const changed = users(['passwd', 'vera', '--password-stdin'], 'vera-new-password-2\n');
    expect(changed.status).toBe(0);
    expect(changed.stdout).toContain('password of vera changed; their sessions ended');
    expect(await sessions('vera')).toBe(0);
    const row = await getDashboardUser(warehouse.db, 'vera');
    await expect(verifyPassword('vera-new-password-2', row!.password_hash)).resolves.toBe(true);
    await expect(verifyPassword('vera-secret-password', row!.password_hash)).resolves.toBe(false);

    expect(users(['list']).stdout).toBe('boss\tadmin\t*\nvera\tviewer\tacme\n');
    expect(users(['passwd', 'nobody']).stderr).toContain('no user nobody');
    const removed = users(['remove', 'vera']);
    expect(removed.status).toBe(0);
    expect(await getDashboardUser(warehouse.db, 'vera')).toBeUndefined();
  });
});
