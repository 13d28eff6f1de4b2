// A kysely that only compiles: repositories build their queries once, and the bulk loader runs the
// compiled SQL on its own pg client inside the COPY transaction, so a checkpoint or a quarantine
// entry commits together with the page.
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
} from 'kysely';
import type pg from 'pg';
import type { Database } from './tables';

/** Compiles queries for the warehouse database; it has no connection and executes nothing. */
export const queryCompiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Runs a compiled query on a pg client (or pool). */
export async function runCompiled<R extends pg.QueryResultRow = pg.QueryResultRow>(
  client: pg.ClientBase | pg.Pool,
  query: CompiledQuery,
): Promise<pg.QueryResult<R>> {
  return client.query<R>(query.sql, query.parameters as unknown[]);
}
