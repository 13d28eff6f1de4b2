// No two files of the project import each other, directly or around a circle (type imports count:
// a circle of types still ties the files' meanings together). Imports are read and resolved with
// the TypeScript compiler, the same way tsc resolves them.
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(__dirname, '../..');
const skipped = new Set(['node_modules', '.tools', '.data', '.git', 'dist', 'coverage']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || skipped.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each project file with the project files it imports (relative paths). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.Node20,
    moduleResolution: ts.ModuleResolutionKind.Node16,
  };
  const host = ts.createCompilerHost(options);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(ts.sys.readFile(file) ?? '', true, true);
    const targets = info.importedFiles.flatMap(({ fileName }) => {
      const resolved = ts.resolveModuleName(fileName, file, options, host).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) return [];
      return [relative(root, resolved.resolvedFileName)];
    });
    graph.set(relative(root, file), [...new Set(targets)]);
  }
  return graph;
}

/** Every circle, as the files of one strongly connected component (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('imports', () => {
  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('run one way: no file imports itself around a circle', () => {
    const graph = importGraph(sourceFiles(root));
    expect(graph.get('connectors/platform/core/http-core.ts')).toContain(
      'connectors/platform/core/pagination.ts',
    );
    expect(cycles(graph)).toEqual([]);
  });
});
