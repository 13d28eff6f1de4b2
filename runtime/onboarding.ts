// Onboarding a company at run time: the account stored (sealed) and its schedules applied at once,
// through the same code as `callsync schedules apply`. Running workers and servers notice the table's
// change on their own (runtime/account-watch.ts) and take the account in without a restart.
import type { Client } from '@temporalio/client';
import type { Kysely } from 'kysely';
import type { CallsyncConfig } from '../config/schema';
import type { Database } from '../connectors/postgres';
import { applyAllSchedules, type ApplyAllResult } from './apply-all-schedules';
import {
  removeStoredAccount,
  storeAccount,
  StoredAccountError,
  withStoredAccounts,
  type StoreOutcome,
} from './stored-accounts';
import { secretBoxFromConfig } from '../lib/encryption-keys';

export interface OnboardResult {
  outcome: StoreOutcome;
  /** The schedules applied for the accounts as now stored. */
  schedules: ApplyAllResult;
}

/**
 * Stores account `name` (created, updated, or unchanged when the content is the same) and applies
 * every schedule for the file's accounts and the stored ones. `fileConfig` is the config file's alone.
 */
export async function onboardAccount(opts: {
  db: Kysely<Database>;
  client: Client;
  fileConfig: CallsyncConfig;
  name: string;
  input: unknown;
  source?: string;
}): Promise<OnboardResult> {
  const outcome = await storeAccount(opts.db, secretBoxFromConfig(opts.fileConfig.temporal), {
    fileAccounts: opts.fileConfig.accounts.map((a) => a.name),
    name: opts.name,
    input: opts.input,
    ...(opts.source !== undefined ? { source: opts.source } : {}),
  });
  const config = await withStoredAccounts(opts.fileConfig, opts.db);
  return { outcome, schedules: await applyAllSchedules(opts.client, config) };
}

/** Removes stored account `name` and deletes its schedules; refuses a config file's account. */
export async function offboardAccount(opts: {
  db: Kysely<Database>;
  client: Client;
  fileConfig: CallsyncConfig;
  name: string;
}): Promise<{ removed: boolean; schedules: ApplyAllResult }> {
  if (opts.fileConfig.accounts.some((a) => a.name === opts.name))
    throw new StoredAccountError(
      `--name: "${opts.name}" is an account of the config file; remove it there and run \`callsync schedules apply\``,
    );
  const removed = await removeStoredAccount(opts.db, opts.name);
  const config = await withStoredAccounts(opts.fileConfig, opts.db);
  return { removed, schedules: await applyAllSchedules(opts.client, config) };
}
