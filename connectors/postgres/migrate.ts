// Runs the warehouse migrations with kysely's Migrator. The provider is in code (an object of
// imported migrations), so it works the same under tsx, jest and bundlers.
import type { Kysely } from 'kysely';
import { Migrator, type MigrationResult } from 'kysely/migration';
import { migrations } from './migrations';

/** A migration failed; `migration` names it and `cause` is the database's error. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
  constructor(
    readonly migration: string | undefined,
    readonly results: readonly MigrationResult[],
    options: { cause: unknown },
  ) {
    const what = migration ? `migration ${migration} failed` : 'migrations could not run';
    super(`Warehouse ${what}: ${describe(options.cause)}`, options);
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function migrator(db: Kysely<unknown>): Migrator {
  // Unordered: parts of callsync are built in parallel, each with its own timestamp prefix, so a
  // migration can land after one that sorts later and has already run; each one stands alone.
  return new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...migrations }) },
    allowUnorderedMigrations: true,
  });
}

/**
 * Brings the warehouse schema to the latest migration; returns the names it applied (none when
 * already up to date). Concurrent callers are serialised by the Migrator's lock. Throws
 * MigrationError naming the failing migration; a failed migration's changes are rolled back.
 */
export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<string[]> {
  const { error, results = [] } = await migrator(db as Kysely<unknown>).migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((r) => r.status === 'Error');
    throw new MigrationError(failed?.migrationName, results, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Names of the migrations the database has applied, in order. */
export async function appliedMigrations<DB>(db: Kysely<DB>): Promise<string[]> {
  const all = await migrator(db as Kysely<unknown>).getMigrations();
  return all.filter((m) => m.executedAt !== undefined).map((m) => m.name);
}
