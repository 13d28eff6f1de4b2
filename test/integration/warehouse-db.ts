// A fresh PostgreSQL database per warehouse test file, on the server the jest global setup started
// (or DATABASE_URL), so files running in parallel never see each other's rows.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import {
  createDatabase,
  migrateToLatest,
  type DatabaseOptions,
  type WarehouseDatabase,
} from '../../connectors/postgres';

function serverUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error(
      'DATABASE_URL is not set: run the tests through jest (test/support/global-setup.ts starts an embedded PostgreSQL) or set it to a server where this user may CREATE DATABASE.',
    );
  }
  return url;
}

async function admin<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Creates an empty database named after `label`; drop() removes it (closing any connection to it). */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = `wh_${label.toLowerCase().replace(/[^a-z0-9]+/g, '_')}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

export interface MigratedWarehouse extends WarehouseDatabase {
  url: string;
  /** Closes the pool and drops the database. */
  dispose(): Promise<void>;
}

/** A fresh database migrated to the latest warehouse schema. */
export async function createMigratedWarehouse(
  label: string,
  max = 10,
  opts: Omit<DatabaseOptions, 'max'> = {},
): Promise<MigratedWarehouse> {
  const test = await createTestDatabase(label);
  const warehouse = createDatabase(test.url, { ...opts, max });
  await migrateToLatest(warehouse.db);
  return {
    ...warehouse,
    url: test.url,
    dispose: async () => {
      await warehouse.close();
      await test.drop();
    },
  };
}
