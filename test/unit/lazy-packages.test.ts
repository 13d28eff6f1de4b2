// Connector client libraries load on first use (lib/lazy-package.ts): loading what `callsync worker`
// and the CLI load at start must not load any of them. A child process loads the modules as
// bin/callsync does (tsx's CommonJS hook) and lists the packages that ended up in require's cache.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(__dirname, '../..');

const LAZY = [
  'exceljs',
  'pdfkit',
  'nodemailer',
  'jsforce',
  '@hubspot/api-client',
  'google-auth-library',
  '@googleapis/drive',
  '@googleapis/sheets',
  '@googleapis/tasks',
  '@google-cloud/storage',
  '@google-cloud/bigquery',
  '@google-cloud/speech',
  '@google-cloud/language',
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage',
  'pino-pretty',
];

const LIST_LOADED = `
require('./runtime/activity-deps');
require('./runtime/worker');
for (const f of require('node:fs').readdirSync('cli/commands')) if (f.endsWith('.ts')) require('./cli/commands/' + f);
const loaded = new Set();
for (const k of Object.keys(require.cache)) {
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(k);
  if (m) loaded.add(m[1]);
}
process.stdout.write(JSON.stringify([...loaded]));
`;

it('loads no connector client library when the worker and CLI modules load', () => {
  const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', LIST_LOADED], {
    cwd: root,
    encoding: 'utf8',
  });
  const loaded = JSON.parse(out) as string[];
  // Not vacuous: the modules did load their own dependencies.
  expect(loaded).toEqual(expect.arrayContaining(['kysely', '@temporalio/worker']));
  expect(loaded.filter((p) => LAZY.includes(p))).toEqual([]);
}, 180_000);
