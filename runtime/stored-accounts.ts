// Accounts onboarded at run time (`callsync accounts add`): validated with the config file's own
// account schema, kept in PostgreSQL sealed (SecretBox, under temporal.encryption's keys), and merged
// into config.accounts by every process at start (and again when the table changes).
import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import { describeIssue } from '../config/load';
import { accountConfigSchema, type AccountConfig, type CallsyncConfig } from '../config/schema';
import {
  deleteStoredAccount,
  getStoredAccount,
  listStoredAccounts,
  putStoredAccount,
  type Database,
} from '../connectors/postgres';
import type { SecretBox } from '../lib/secret-box';
import { secretBoxFromConfig } from '../lib/encryption-keys';

/** What a stored account's seal is bound to: a row's value cannot be moved to another name. */
export const storedAccountContext = (name: string): string => `stored-account:${name}`;

/** An account file that does not fit accountConfigSchema; names each bad field, never a value. */
export class StoredAccountError extends Error {
  override readonly name = 'StoredAccountError';
}

/**
 * The account `name` from a JSON object in accountConfigSchema's shape (its `name`, when given, must
 * be `name`), or a StoredAccountError naming every bad field.
 */
export function parseAccountInput(name: string, input: unknown, source = 'account'): AccountConfig {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new StoredAccountError(`${source}: must be a JSON object in the shape of one accounts[] entry`);
  const given = (input as { name?: unknown }).name;
  if (given !== undefined && given !== name)
    throw new StoredAccountError(`${source}: name: differs from --name "${name}"`);
  const result = accountConfigSchema.safeParse({ ...input, name });
  if (result.success) return result.data;
  throw new StoredAccountError(
    `${source} is not a valid account:\n  - ${result.error.issues.map(describeIssue).join('\n  - ')}`,
  );
}

/** How `storeAccount` ended. */
export type StoreOutcome = 'created' | 'updated' | 'unchanged';

/**
 * Stores an account (sealed): created, updated when its content differs, or left alone when it is
 * the same (re-adding is a no-op). Refuses a name the config file already has.
 */
export async function storeAccount(
  db: Kysely<Database>,
  box: SecretBox,
  opts: { fileAccounts: readonly string[]; name: string; input: unknown; source?: string },
): Promise<StoreOutcome> {
  if (opts.fileAccounts.includes(opts.name))
    throw new StoredAccountError(
      `--name: "${opts.name}" is an account of the config file; change it there, or pick another name`,
    );
  const account = parseAccountInput(opts.name, opts.input, opts.source);
  const existing = await getStoredAccount(db, opts.name);
  if (existing) {
    const before = openStoredAccount(box, existing.name, existing.sealed_config);
    if (isDeepStrictEqual(before, account)) return 'unchanged';
  }
  await putStoredAccount(db, {
    name: opts.name,
    sealedConfig: box.seal(JSON.stringify(account), storedAccountContext(opts.name)),
  });
  return existing ? 'updated' : 'created';
}

/** Removes a stored account; false when there is none of that name. */
export function removeStoredAccount(db: Kysely<Database>, name: string): Promise<boolean> {
  return deleteStoredAccount(db, name);
}

function openStoredAccount(box: SecretBox, name: string, sealed: string): AccountConfig {
  const plain = box.open(sealed, storedAccountContext(name));
  return parseAccountInput(name, JSON.parse(plain) as unknown, `stored account "${name}"`);
}

/** Every stored account, opened; no keys are needed while there are none. */
export async function loadStoredAccounts(
  db: Kysely<Database>,
  temporal: CallsyncConfig['temporal'],
): Promise<AccountConfig[]> {
  const rows = await listStoredAccounts(db);
  if (rows.length === 0) return [];
  const box = secretBoxFromConfig(temporal);
  return rows.map((r) => openStoredAccount(box, r.name, r.sealed_config));
}

/**
 * `config` with the stored accounts after the file's. A stored account whose name the file has since
 * taken is left out (the file wins) and reported through `onShadowed`.
 */
export function mergeStoredAccounts(
  config: CallsyncConfig,
  stored: readonly AccountConfig[],
  onShadowed: (name: string) => void = () => undefined,
): CallsyncConfig {
  if (stored.length === 0) return config;
  const names = new Set(config.accounts.map((a) => a.name));
  const added = stored.filter((a) => {
    if (!names.has(a.name)) return true;
    onShadowed(a.name);
    return false;
  });
  return Object.freeze({ ...config, accounts: [...config.accounts, ...added] });
}

/** `config` with the accounts stored in `db` merged in (see mergeStoredAccounts). */
export async function withStoredAccounts(
  config: CallsyncConfig,
  db: Kysely<Database>,
  onShadowed?: (name: string) => void,
): Promise<CallsyncConfig> {
  return mergeStoredAccounts(config, await loadStoredAccounts(db, config.temporal), onShadowed);
}
