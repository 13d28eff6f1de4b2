import { removeCompiledDist } from './compiled-dist';

/** Stops the embedded PostgreSQL started by global-setup (its data directory is deleted), and deletes the compiled build. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.__CALLSYNC_PG__?.stop();
  globalThis.__CALLSYNC_PG__ = undefined;
  removeCompiledDist();
}
