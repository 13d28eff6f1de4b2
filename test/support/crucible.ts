// The BigQuery emulator the tests use: crucible-emulator from PyPI (BigQuery's REST API over DuckDB,
// offline), started on a free port and stopped at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { stopChild } from '../../lib/child-process';
import { freePort } from '../../lib/free-port';
import { pipToolPath } from './pip-tool';

export const CRUCIBLE_REQUIREMENT = 'crucible-emulator[server]==0.1.0a2';

export interface RunningCrucible {
  /** API origin for `apiEndpoint` (http://127.0.0.1:<port>). */
  endpoint: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `crucible serve --dialect bigquery` on a free port and waits until it answers. */
export async function startCrucible(): Promise<RunningCrucible> {
  const binary = await pipToolPath('crucible', CRUCIBLE_REQUIREMENT, 'crucible');
  const port = await freePort();
  const child = spawn(
    binary,
    ['serve', '--dialect', 'bigquery', '--port', String(port), '--host', '127.0.0.1'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`crucible exited with ${child.exitCode}: ${log}`);
    try {
      const res = await fetch(`${endpoint}/bigquery/v2/projects/probe/datasets`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stopChild(child, 2000);
      throw new Error(`crucible did not answer on ${endpoint} within 60 s: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { endpoint, child, stop: () => stopChild(child, 5000) };
}

/**
 * A throwaway service account key for local emulators: google-auth-library signs its tokens itself
 * (selfSignedJwt), so nothing reaches Google and the emulator sees a real Bearer token.
 */
export function testServiceAccountJson(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return JSON.stringify({
    type: 'service_account',
    client_email: 'callsync-test@callsync-test.iam.gserviceaccount.com',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    private_key_id: 'test-key',
  });
}
