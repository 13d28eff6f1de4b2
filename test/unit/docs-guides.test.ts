// README is the front door and docs/ holds the guides; this keeps what they say checkable:
// (a) README stays short, links every guide, and every relative link (and anchor) resolves;
// (b) every ```json block is a valid callsync config (or fragment) or is marked as something else;
// (c) every `npm run X` names a package.json script and every `callsync <command>` a CLI command.
// It also keeps README's quick-start test command the one .ci/run runs.
//
// JSON blocks follow one convention, written before the block (blank lines between are allowed):
// - no marker: a config, or a fragment of one. Its top-level keys must all be keys of the config
//   schema; they replace those of a minimal valid config (one account), and the result must parse.
// - `<!-- config: accounts[] -->`: one `accounts[]` entry (the file `callsync accounts add` takes),
//   parsed as the minimal config's account (its `name` given when the block has none).
// - `<!-- not-config -->` (optionally `<!-- not-config: why -->`): not a config (an API answer or
//   payload, a command's output); not validated.
// Secrets in blocks are `{ "env": … }` and `{ "file": … }` references: they read made-up values here.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describeIssue } from '../../config/load';
import { configSchema } from '../../config/schema';
import { withSecretContext } from '../../config/secret';

const root = resolve(__dirname, '../..');
const guides = readdirSync(join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort();
const docFiles = ['README.md', ...guides.map((g) => `docs/${g}`)];
const read = (file: string) => readFileSync(join(root, file), 'utf8');

interface CodeBlock {
  lang: string;
  body: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The marker comment before the block, if any (`not-config`, `config: accounts[]`). */
  marker: string | undefined;
}

/** The file's fenced code blocks, and its prose with code blocks and inline code blanked out. */
function parseMarkdown(text: string): { blocks: CodeBlock[]; prose: string; inlineCode: string[] } {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  const proseLines: string[] = [];
  let open: { lang: string; line: number; body: string[]; marker: string | undefined } | undefined;
  lines.forEach((line, i) => {
    const fence = /^\s*```(\S*)/.exec(line);
    if (open) {
      if (/^\s*```\s*$/.test(line)) {
        blocks.push({ lang: open.lang, body: open.body.join('\n'), line: open.line, marker: open.marker });
        open = undefined;
      } else open.body.push(line);
      proseLines.push('');
      return;
    }
    if (fence) {
      let j = i - 1;
      while (j >= 0 && lines[j]!.trim() === '') j--;
      const marker =
        j >= 0 ? /^<!--\s*((?:not-config|config:)[^>]*?)\s*-->$/.exec(lines[j]!.trim())?.[1] : undefined;
      open = { lang: fence[1] ?? '', line: i + 1, body: [], marker };
      proseLines.push('');
      return;
    }
    proseLines.push(line);
  });
  const inlineCode: string[] = [];
  const prose = proseLines
    .join('\n')
    .replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) => {
      inlineCode.push(code);
      return ' ';
    });
  return { blocks, prose, inlineCode };
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function githubSlug(heading: string): string {
  return heading
    .replace(/<[^>]+>/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a file has: its headings' slugs, numbered as GitHub numbers repeats. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const text = read(file);
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const slug = githubSlug(heading[1]!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** Relative link targets in a file's prose (`[text](target)`), external ones left out. */
function relativeLinks(file: string): string[] {
  const { prose } = parseMarkdown(read(file));
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('README and the guides in docs/', () => {
  it('README is a front door: under 250 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThan(250);
  });

  it("README's quick start shows the test command .ci/run runs", () => {
    const quickStart = read('README.md').split('\n## Quick start\n')[1]?.split('\n## ')[0] ?? '';
    const block = /```sh\n([\s\S]*?)```/.exec(quickStart)?.[1] ?? '';
    const commands = block
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean);
    const ci = read('.ci/run')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'))
      .at(-1);
    expect(commands).toEqual(['npm install && npm start', 'npm test']);
    expect(commands).toContain(ci);
  });

  it('README links every guide in docs/', () => {
    const linked = new Set(relativeLinks('README.md').map((t) => t.split('#')[0]));
    expect(guides.filter((g) => !linked.has(`docs/${g}`))).toEqual([]);
  });

  it.each(docFiles)('every relative link in %s points to a file (and heading) that exists', (file) => {
    const broken = relativeLinks(file).filter((target) => {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const resolved = path === '' ? join(root, file) : resolve(root, dirname(file), decodeURI(path));
      if (!existsSync(resolved)) return true;
      if (anchor === undefined) return false;
      if (!resolved.endsWith('.md') || statSync(resolved).isDirectory()) return true;
      return !anchorsOf(relative(root, resolved)).has(decodeURIComponent(anchor));
    });
    expect(broken).toEqual([]);
  });
});

/** A config every fragment is laid onto: one account, inline secrets allowed (as `npm start` does). */
const minimalConfig = {
  allowInlineSecrets: true,
  accounts: [
    {
      name: 'acme',
      platform: {
        baseUrl: 'https://pbx.example.com/v1.1/voipstudio',
        credentials: { type: 'apiKey', userId: 120001, apiKey: 'doc-api-key' },
      },
    },
  ],
};

/** What `{ "env": NAME }` reads here: a connection string for a database, else a long enough secret. */
const docEnv = new Proxy(
  {},
  {
    get: (_, name) =>
      /DATABASE|POSTGRES/i.test(String(name))
        ? 'postgres://callsync:doc@localhost:5432/callsync'
        : 'doc-secret-0123456789abcdef',
  },
);

/** `{ "file": path }` references become `{ "env": … }` ones named after the path (no file is read). */
function withoutFileRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutFileRefs);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length === 1 && entries[0]![0] === 'file' && typeof entries[0]![1] === 'string')
    return { env: `DOC_FILE_${entries[0]![1].replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}` };
  return Object.fromEntries(entries.map(([k, v]) => [k, withoutFileRefs(v)]));
}

/** The problems of one json block under the convention above; [] when it is fine. */
function jsonBlockProblems(block: CodeBlock): string[] {
  if (block.marker?.startsWith('not-config')) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(block.body);
  } catch (err) {
    return [`not JSON (${(err as Error).message}); mark it <!-- not-config --> if it is not a config`];
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return ['not a JSON object; mark it <!-- not-config --> if it is not a config'];
  let input: Record<string, unknown>;
  if (block.marker === undefined) {
    const keys = Object.keys(configSchema.shape);
    const unknown = Object.keys(parsed).filter((k) => !keys.includes(k));
    if (unknown.length > 0)
      return [
        `top-level keys ${unknown.join(', ')} are not config keys; mark it <!-- not-config --> or <!-- config: accounts[] -->`,
      ];
    input = { ...minimalConfig, ...parsed };
  } else if (block.marker === 'config: accounts[]') {
    input = { ...minimalConfig, accounts: [{ name: 'globex', ...parsed }] };
  } else return [`unknown marker <!-- ${block.marker} -->`];
  const result = withSecretContext({ env: docEnv, allowInline: true }, () =>
    configSchema.safeParse(withoutFileRefs(input)),
  );
  if (!result.success) return result.error.issues.map(describeIssue);
  return droppedKeys(input, result.data).map((path) => `${path}: not a config key (the schema drops it)`);
}

/** Keys of `input` that parsing dropped (a misspelt key in a non-strict object), as paths. */
function droppedKeys(input: unknown, output: unknown, path = ''): string[] {
  if (input === null || typeof input !== 'object' || output === null || typeof output !== 'object') return [];
  if (Array.isArray(input))
    return Array.isArray(output) ? input.flatMap((v, i) => droppedKeys(v, output[i], `${path}[${i}]`)) : [];
  return Object.entries(input).flatMap(([key, value]) =>
    key in output
      ? droppedKeys(value, (output as Record<string, unknown>)[key], path ? `${path}.${key}` : key)
      : [path ? `${path}.${key}` : key],
  );
}

describe('json blocks in README and docs/', () => {
  const cases = docFiles.flatMap((file) =>
    parseMarkdown(read(file))
      .blocks.filter((b) => b.lang === 'json')
      .map((block) => ({ where: `${file}:${block.line}`, block })),
  );

  it('there are config blocks to check', () => {
    expect(cases.filter((c) => c.block.marker === undefined).length).toBeGreaterThan(10);
  });

  it.each(cases)('$where is a valid config (or fragment), or is marked not-config', ({ block }) => {
    expect(jsonBlockProblems(block)).toEqual([]);
  });
});

describe('commands the docs name', () => {
  const scripts = Object.keys(
    (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts,
  );
  const cliCommands = [...read('cli/main.ts').matchAll(/^\s{2}([a-z][\w-]*): \(\) =>/gm)].map((m) => m[1]!);

  it('finds the CLI commands in cli/main.ts', () => {
    expect(cliCommands).toEqual(
      expect.arrayContaining(['start', 'worker', 'server', 'status', 'erase', 'crm']),
    );
  });

  it.each(docFiles)('every `npm run X` in %s names a package.json script', (file) => {
    const text = read(file);
    const named = [...text.matchAll(/\bnpm run (?:-s |--silent )?([\w:.*-]+)/g)].map((m) => m[1]!);
    const missing = named.filter((name) => {
      const pattern = new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
      return !scripts.some((s) => pattern.test(s));
    });
    expect(missing).toEqual([]);
  });

  it.each(docFiles)('every `callsync <command>` in the code of %s names a registered command', (file) => {
    const { blocks, inlineCode } = parseMarkdown(read(file));
    const shell = blocks.filter((b) => ['', 'sh', 'bash', 'shell', 'console'].includes(b.lang));
    const code = [...shell.map((b) => b.body), ...inlineCode].join('\n');
    const named = [
      ...code.matchAll(/(?:^|[\s(`'"|$])(?:npx |bin\/)?callsync ([a-z][\w-]*)(?=$|[\s`'")|;])/gm),
    ].map((m) => m[1]!);
    expect([...new Set(named)].filter((c) => !cliCommands.includes(c))).toEqual([]);
  });
});
