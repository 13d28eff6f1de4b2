// What every `callsync` command needs: the configuration, the warehouse URL, a Temporal client and a
// logger. A running `callsync start` leaves its effective settings in <data dir>/local-stack.json, so
// commands run in another shell reach the same local stack without any configuration.
import { join, resolve } from 'node:path';
import { Client } from '@temporalio/client';
import type { Command } from 'commander';
import { loadConfig } from '../config/load';
import type { CallsyncConfig, CallsyncConfigInput } from '../config/schema';
import { createLogger, type Logger } from '../lib/logger';
import { startEmbeddedPostgres } from '../local/embedded-postgres';
import { readRunningStack } from '../local/stack-file';
import { createDatabase, postgresSsl } from '../connectors/postgres';
import { withStoredAccounts } from '../runtime/stored-accounts';
import { connectTemporalClient } from '../runtime/temporal-connection';
import { temporalDataConverter } from '../runtime/temporal-encryption';

type Env = Record<string, string | undefined>;

/** Options every command inherits from the program. */
export interface GlobalOptions {
  config?: string;
  dataDir?: string;
}

/** The program's global options, from any (sub)command. */
export function globalOptions(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals<GlobalOptions>();
}

/** Where local state lives: --data-dir, else CALLSYNC_DATA_DIR, else ./.data. */
export function dataDir(opts: GlobalOptions, env: Env = process.env): string {
  return resolve(opts.dataDir ?? env.CALLSYNC_DATA_DIR ?? '.data');
}

/** The running local stack's settings (accounts, database URL, Temporal address), if one runs. */
export function readLocalStack(dir: string): Partial<CallsyncConfigInput> | undefined {
  return readRunningStack(dir)?.config;
}

/**
 * Throws, saying how to start it, when the command would need the local stack and it is not
 * running: no `npm start` runs on the data directory, and neither a config file nor DATABASE_URL
 * names other services.
 */
export function requireRunningStack(opts: GlobalOptions, command: string, env: Env = process.env): void {
  const dir = dataDir(opts, env);
  if (readLocalStack(dir) || opts.config || env.CALLSYNC_CONFIG || env.DATABASE_URL) return;
  throw new Error(
    `the local stack is not running (no \`callsync start\` on ${dir}). Start it with \`npm start\` ` +
      `(or \`npx callsync start\`) in another shell and run \`npx callsync ${command}\` again; for a ` +
      'deployment, give --config <file> or DATABASE_URL and TEMPORAL_ADDRESS.',
  );
}

/** Loads the configuration for a command: --config / CALLSYNC_CONFIG over the environment, with a running local stack as defaults. */
export function loadCliConfig(opts: GlobalOptions, env: Env = process.env): CallsyncConfig {
  const dir = dataDir(opts, env);
  const defaults: Partial<CallsyncConfigInput> = {
    database: { embeddedDir: join(dir, 'postgres') },
    archive: { dir: join(dir, 'archive') },
    ...readLocalStack(dir),
  };
  return loadConfig({ file: opts.config, env, defaults });
}

/** A logger on stderr at the configured level. */
export function cliLogger(config: CallsyncConfig, name = 'callsync'): Logger {
  return createLogger({ level: config.logLevel, name });
}

/** The warehouse URL: config.database.url, else an embedded PostgreSQL in config.database.embeddedDir (kept across runs). */
export async function resolveDatabase(
  config: CallsyncConfig,
  logger: Logger,
): Promise<{ url: string; stop(): Promise<void> }> {
  if (config.database.url) return { url: config.database.url, stop: async () => undefined };
  logger.info({ dir: config.database.embeddedDir }, 'starting embedded PostgreSQL');
  const pg = await startEmbeddedPostgres({
    dataDir: resolve(config.database.embeddedDir),
    persistent: true,
    onLog: (line) => logger.debug({ postgres: line.trim() }),
  });
  return { url: pg.url, stop: () => pg.stop() };
}

/** A command's configuration with the stored accounts merged in, and the database they were read from. */
export interface ConfigWithAccounts {
  config: CallsyncConfig;
  logger: Logger;
  database: { url: string; stop(): Promise<void> };
}

/**
 * What every process builds at start: the configuration (loadCliConfig), the database
 * (resolveDatabase), and the accounts stored there (`callsync accounts add`) merged into
 * config.accounts after the file's. A database not yet migrated has none.
 */
export async function loadConfigWithAccounts(
  opts: GlobalOptions,
  name = 'callsync',
  env: Env = process.env,
): Promise<ConfigWithAccounts> {
  const fileConfig = loadCliConfig(opts, env);
  const logger = cliLogger(fileConfig, name);
  const database = await resolveDatabase(fileConfig, logger);
  try {
    const config = await readStoredAccounts(fileConfig, database.url, logger);
    return { config, logger, database };
  } catch (err) {
    await database.stop();
    throw err;
  }
}

/** `config` with the accounts stored in the database at `url` merged in. */
export async function readStoredAccounts(
  config: CallsyncConfig,
  url: string,
  logger: Logger,
): Promise<CallsyncConfig> {
  const ssl = postgresSsl(config.database.sslmode, config.database.sslCa);
  const warehouse = createDatabase(url, { ...(ssl !== undefined ? { ssl } : {}), max: 1 });
  try {
    return await withStoredAccounts(config, warehouse.db, (shadowed) =>
      logger.warn(
        { account: shadowed },
        'stored account ignored: the config file has an account of that name',
      ),
    );
  } catch (err) {
    // 42P01: no stored_accounts table yet (a database no process has migrated): no stored accounts.
    if ((err as { code?: string }).code === '42P01') return config;
    throw err;
  } finally {
    await warehouse.close();
  }
}

/** The Temporal frontend address, or an error that says how to get one. */
export function temporalAddress(config: CallsyncConfig): string {
  const address = config.temporal.address;
  if (!address) {
    throw new Error(
      'no Temporal server: run `npm start` (it starts a local one) in another shell, or set TEMPORAL_ADDRESS (or temporal.address in the config file)',
    );
  }
  return address;
}

/** A Temporal client for the configured namespace; close() closes its connection. */
export async function connectTemporal(
  config: CallsyncConfig,
): Promise<{ client: Client; close(): Promise<void> }> {
  // Before connecting: without keys (and without encryption "off") this refuses, naming the setting.
  const dataConverter = temporalDataConverter(config.temporal);
  const connection = await connectTemporalClient({ ...config.temporal, address: temporalAddress(config) });
  const client = new Client({ connection, namespace: config.temporal.namespace, dataConverter });
  return { client, close: () => connection.close() };
}

/** The account a command acts on: --account, else the first configured one. */
export function pickAccount(config: CallsyncConfig, account: string | undefined): string {
  if (account === undefined) return config.accounts[0]!.name;
  if (!config.accounts.some((a) => a.name === account)) {
    throw new Error(
      `--account: "${account}" is not configured; accounts are: ${config.accounts.map((a) => a.name).join(', ')}`,
    );
  }
  return account;
}
