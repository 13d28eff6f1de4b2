// `callsync users add|passwd|remove|list`: the dashboard's users, each with a role (admin sees every
// account; viewer only the accounts listed) and a scrypt-hashed password. A password comes from stdin
// (--password-stdin) or is generated and printed once; it never goes on the command line, where
// `ps` and shell history would keep it. A new password ends the user's sessions.
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { z } from 'zod';
import type { CallsyncConfig } from '../../config/schema';
import {
  addDashboardUser,
  createDatabase,
  listDashboardUsers,
  migrateToLatest,
  removeDashboardUser,
  setDashboardPassword,
  type WarehouseDatabase,
} from '../../connectors/postgres';
import { postgresSsl } from '../../connectors/postgres/tls';
import { hashPassword } from '../../lib/password-hash';
import { BOOTSTRAP_USERNAME } from '../../server/dashboard/auth';
import { cliLogger, globalOptions, loadCliConfig, requireRunningStack, resolveDatabase } from '../context';

const MIN_PASSWORD = 12;

const usernameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/,
    'username: 1-64 letters, digits, . _ @ - (starting with a letter or digit)',
  );

const addOptionsSchema = z.object({
  role: z.enum(['admin', 'viewer'], { error: '--role must be admin or viewer' }),
  accounts: z.string().optional(),
  passwordStdin: z.boolean().optional(),
});

/** A value its schema accepts, or an error with the schema's message (not zod's JSON). */
function check<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new Error(r.error.issues[0]!.message);
  return r.data;
}

/** The first line of stdin (a piped password). */
async function readStdinLine(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0]!;
}

/** The password to set: from stdin, checked, or a generated one to print once. */
async function newPassword(
  fromStdin: boolean | undefined,
): Promise<{ password: string; generated: boolean }> {
  if (!fromStdin) return { password: randomBytes(15).toString('base64url'), generated: true };
  const password = await readStdinLine();
  if (password.length < MIN_PASSWORD)
    throw new Error(`the password on stdin must be at least ${MIN_PASSWORD} characters`);
  return { password, generated: false };
}

/** The configured accounts a viewer may see, from --accounts a,b (each must be configured). */
export function parseAccounts(
  config: Pick<CallsyncConfig, 'accounts'>,
  role: string,
  list: string | undefined,
): string[] {
  const names = (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const known = config.accounts.map((a) => a.name);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0)
    throw new Error(`--accounts: ${unknown.join(', ')} not configured (accounts: ${known.join(', ')})`);
  if (role === 'viewer' && names.length === 0)
    throw new Error(`a viewer needs --accounts <name,…>: the accounts they may see (${known.join(', ')})`);
  return [...new Set(names)];
}

/** Opens the warehouse (migrated) for one command, and closes it after. */
async function withWarehouse<T>(
  cmd: Command,
  run: (w: WarehouseDatabase, config: CallsyncConfig) => Promise<T>,
) {
  requireRunningStack(globalOptions(cmd), 'users');
  const config = loadCliConfig(globalOptions(cmd));
  const logger = cliLogger(config, 'users');
  const database = await resolveDatabase(config, logger);
  const ssl = postgresSsl(config.database.sslmode, config.database.sslCa);
  const warehouse = createDatabase(database.url, ssl !== undefined ? { ssl } : {});
  try {
    await migrateToLatest(warehouse.db);
    return await run(warehouse, config);
  } finally {
    await warehouse.close();
    await database.stop();
  }
}

const out = (line: string) => process.stdout.write(`${line}\n`);

/** Registers `users` on the CLI program. */
export function registerUsersCommand(program: Command): void {
  const users = program
    .command('users')
    .description('Manage the dashboard\'s users (docs/operations.md "Dashboard")');
  users
    .command('add <username>')
    .description('Add a user: an admin sees every account, a viewer only --accounts')
    .requiredOption('--role <role>', 'admin or viewer')
    .option('--accounts <names>', 'comma-separated account names a viewer may see (config accounts[].name)')
    .option(
      '--password-stdin',
      'read the password from the first line of stdin (else one is generated and printed)',
    )
    .action(async (username: string, raw: unknown, cmd: Command) => {
      const name = check(usernameSchema, username);
      const opts = check(addOptionsSchema, raw);
      await withWarehouse(cmd, async (w, config) => {
        const accounts = parseAccounts(config, opts.role, opts.accounts);
        const { password, generated } = await newPassword(opts.passwordStdin);
        const added = await addDashboardUser(w.db, {
          username: name,
          role: opts.role,
          accounts,
          passwordHash: await hashPassword(password),
        });
        if (!added)
          throw new Error(`user ${name} exists: \`callsync users passwd ${name}\` sets a new password`);
        const sees = opts.role === 'admin' ? 'every account' : `accounts ${accounts.join(', ')}`;
        out(`added ${opts.role} ${name} (sees ${sees})`);
        if (name === BOOTSTRAP_USERNAME)
          out('the config password (server.dashboard.password) no longer logs in as admin: this user does');
        if (generated) out(`password (shown once): ${password}`);
      });
    });
  users
    .command('passwd <username>')
    .description("Set a user's password; their sessions end")
    .option(
      '--password-stdin',
      'read the password from the first line of stdin (else one is generated and printed)',
    )
    .action(async (username: string, raw: { passwordStdin?: boolean }, cmd: Command) => {
      const name = check(usernameSchema, username);
      await withWarehouse(cmd, async (w) => {
        const { password, generated } = await newPassword(raw.passwordStdin);
        if (!(await setDashboardPassword(w.db, name, await hashPassword(password))))
          throw new Error(`no user ${name} (\`callsync users list\` shows them)`);
        out(`password of ${name} changed; their sessions ended`);
        if (generated) out(`password (shown once): ${password}`);
      });
    });
  users
    .command('remove <username>')
    .description('Remove a user and end their sessions')
    .action(async (username: string, _raw: unknown, cmd: Command) => {
      await withWarehouse(cmd, async (w) => {
        if (!(await removeDashboardUser(w.db, username)))
          throw new Error(`no user ${username} (\`callsync users list\` shows them)`);
        out(`removed ${username}; their sessions ended`);
      });
    });
  users
    .command('list')
    .description('List the users, their roles and accounts')
    .action(async (_raw: unknown, cmd: Command) => {
      await withWarehouse(cmd, async (w) => {
        const rows = await listDashboardUsers(w.db);
        if (rows.length === 0) out('no users (the config password logs in as admin)');
        for (const r of rows)
          out(`${r.username}\t${r.role}\t${r.role === 'admin' ? '*' : r.accounts.join(',')}`);
      });
    });
}
