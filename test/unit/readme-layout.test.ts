// README's "What is here" names every folder a reader will find, so it cannot fall behind the tree.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');

/** Folders of `dir` that git tracks (not .git, not what .gitignore lists). */
function trackedFolders(dir: string): string[] {
  const ignored = readFileSync(join(root, '.gitignore'), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#') && !/[*?]/.test(line))
    .map((line) => line.replace(/\/$/, ''));
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== '.git' && !ignored.includes(e.name))
    .map((e) => e.name);
}

function layoutSection(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('## What is here');
  expect(start).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

describe("README's layout table", () => {
  it('lists every top-level folder (itself or its subfolders)', () => {
    const section = layoutSection();
    const missing = trackedFolders(root).filter((name) => !section.includes(`\`${name}/`));
    expect(missing).toEqual([]);
  });

  it('lists every connector', () => {
    const section = layoutSection();
    const missing = trackedFolders(join(root, 'connectors')).filter(
      (name) => !section.includes(`\`connectors/${name}/\``) && !section.includes(`\`${name}/\``),
    );
    expect(missing).toEqual([]);
  });
});
