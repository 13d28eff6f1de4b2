// `callsync accounts add|list|remove`: companies onboarded without editing the config file or
// restarting. An account is stored in PostgreSQL (sealed under temporal.encryption's keys), its
// schedules start at once, and running workers and servers take it in within seconds.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { z } from 'zod';
import { createDatabase, listStoredAccounts, migrateToLatest, postgresSsl } from '../../connectors/postgres';
import { offboardAccount, onboardAccount } from '../../runtime/onboarding';
import { StoredAccountError } from '../../runtime/stored-accounts';
import {
  cliLogger,
  connectTemporal,
  globalOptions,
  loadCliConfig,
  resolveDatabase,
  type GlobalOptions,
} from '../context';
import type { ApplyAllResult } from '../../runtime/apply-all-schedules';
import type { WarehouseDatabase } from '../../connectors/postgres';
import type { CallsyncConfig } from '../../config/schema';

const nameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,40}$/, 'lowercase letters, digits, - and _ (max 41)');

/** The --name option, or an error naming it. */
function parseName(raw: unknown): string {
  const r = nameSchema.safeParse(raw);
  if (!r.success) throw new StoredAccountError(`--name: ${r.error.issues[0]?.message ?? 'invalid'}`);
  return r.data;
}

/** The JSON object in an account file, or an error naming the file. */
export function readAccountFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new StoredAccountError(`--file: cannot read ${path}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    // The parser's message can quote the text (a secret); say only where it failed.
    const at = /position \d+/.exec((err as Error).message)?.[0];
    throw new StoredAccountError(`--file: ${path} is not valid JSON${at ? ` (at ${at})` : ''}`);
  }
}

async function withWarehouse<T>(
  opts: GlobalOptions,
  run: (config: CallsyncConfig, warehouse: WarehouseDatabase) => Promise<T>,
): Promise<T> {
  const config = loadCliConfig(opts);
  const logger = cliLogger(config, 'accounts');
  const database = await resolveDatabase(config, logger);
  const ssl = postgresSsl(config.database.sslmode, config.database.sslCa);
  const warehouse = createDatabase(database.url, ssl !== undefined ? { ssl } : {});
  try {
    await migrateToLatest(warehouse.db);
    return await run(config, warehouse);
  } finally {
    await warehouse.close();
    await database.stop();
  }
}

const scheduleCounts = (s: ApplyAllResult) =>
  `sync loops: ${s.created.length} started, ${s.updated.length} updated, ${s.deleted.length} deleted, ${s.unchanged.length} unchanged`;

/** Registers `accounts` on the CLI program. */
export function registerAccountsCommand(program: Command): void {
  const accounts = program
    .command('accounts')
    .description('Onboard companies at run time: accounts stored in PostgreSQL, no restart');
  accounts
    .command('add')
    .description("Add (or update) an account from a JSON file in accounts[]'s shape, and start its schedules")
    .requiredOption('--name <name>', 'the account name (warehouse `account` column, schedule ids)')
    .requiredOption('--file <file>', 'JSON object: platform credentials, webhookSecret, crm, overrides')
    .action(async (raw: { name?: string; file: string }, cmd: Command) => {
      const name = parseName(raw.name);
      const input = readAccountFile(raw.file);
      await withWarehouse(globalOptions(cmd), async (config, warehouse) => {
        const temporal = await connectTemporal(config);
        try {
          const r = await onboardAccount({
            db: warehouse.db,
            client: temporal.client,
            fileConfig: config,
            name,
            input,
            source: raw.file,
          });
          const said = {
            created: `account ${name} added`,
            updated: `account ${name} updated (its configuration changed)`,
            unchanged: `account ${name} unchanged (same configuration)`,
          }[r.outcome];
          process.stdout.write(`${said}; ${scheduleCounts(r.schedules)}\n`);
        } finally {
          await temporal.close();
        }
      });
    });
  accounts
    .command('list')
    .description('List the accounts: the config file’s and the stored ones (names only, no secrets)')
    .option('--json', 'print JSON')
    .action(async (raw: { json?: boolean }, cmd: Command) => {
      await withWarehouse(globalOptions(cmd), async (config, warehouse) => {
        const rows: { name: string; source: string; created_at?: string; updated_at?: string }[] = [
          ...config.accounts.map((a) => ({ name: a.name, source: 'config file' })),
          ...(await listStoredAccounts(warehouse.db)).map((r) => ({
            name: r.name,
            source: 'stored',
            created_at: r.created_at.toISOString(),
            updated_at: r.updated_at.toISOString(),
          })),
        ];
        if (raw.json) process.stdout.write(`${JSON.stringify(rows)}\n`);
        else
          for (const r of rows)
            process.stdout.write(
              `${r.name}\t${r.source}${r.updated_at !== undefined ? `\tupdated ${r.updated_at}` : ''}\n`,
            );
      });
    });
  accounts
    .command('remove')
    .description('Remove a stored account and delete its schedules (its warehouse rows stay)')
    .requiredOption('--name <name>', 'the stored account')
    .action(async (raw: { name?: string }, cmd: Command) => {
      const name = parseName(raw.name);
      await withWarehouse(globalOptions(cmd), async (config, warehouse) => {
        const temporal = await connectTemporal(config);
        try {
          const r = await offboardAccount({
            db: warehouse.db,
            client: temporal.client,
            fileConfig: config,
            name,
          });
          if (!r.removed) throw new StoredAccountError(`--name: no stored account "${name}"`);
          process.stdout.write(`account ${name} removed; ${scheduleCounts(r.schedules)}\n`);
        } finally {
          await temporal.close();
        }
      });
    });
}
